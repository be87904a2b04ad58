import type { NextFunction, Request, Response } from 'express';
import { findApiKeyByPrefix, type Db } from '@quire/db';
import { hashApiKey, hashesEqual, parseApiKey } from '../auth/api-key.ts';
import type { KeyCache } from '../auth/key-cache.ts';
import type { Principal } from '../auth/principal.ts';
import { unauthorized } from '../errors.ts';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      principal?: Principal;
    }
  }
}

// Compared against when the prefix is unknown, so a miss costs the same hash-and-compare as a hit.
const DECOY = hashApiKey('qk_decoy');

/**
 * Resolves `x-api-key` to its organization (`req.principal`); a missing, unknown or revoked key leaves it unset
 * for `requireKey` to refuse after the request is counted. The row comes from this process's key cache when
 * it holds it, else from Postgres.
 */
export function authenticate(db: Db, keys: KeyCache) {
  const load = (prefix: string) => findApiKeyByPrefix(db, prefix);
  return async (req: Request, _res: Response, next: NextFunction) => {
    try {
      const header = req.get('x-api-key');
      const parsed = header ? parseApiKey(header) : null;
      const row = parsed ? await keys.lookup(parsed.prefix, load) : undefined;
      const matches = hashesEqual(hashApiKey(header ?? ''), row?.key_hash ?? DECOY);
      if (!row || !matches || row.revoked_at) return next();
      req.principal = {
        keyId: row.id,
        organizationId: row.organization_id,
        groupId: row.group_id,
        planValidFrom: row.plan_valid_from,
        planValidUntil: row.plan_valid_until,
      };
      next();
    } catch (err) {
      next(err);
    }
  };
}

/** Missing, unknown and revoked keys all get the same 403. */
export function requireKey(req: Request, _res: Response, next: NextFunction) {
  next(req.principal ? undefined : unauthorized());
}

export function principalOf(req: Request): Principal {
  if (!req.principal) throw unauthorized();
  return req.principal;
}
