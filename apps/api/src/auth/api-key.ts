import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const KEY_PATTERN = /^qk_([A-Za-z0-9]{12})_([A-Za-z0-9_-]{43})$/;

export interface GeneratedKey {
  apiKey: string;
  prefix: string;
  hash: Buffer;
}

export const hashApiKey = (apiKey: string): Buffer => createHash('sha256').update(apiKey).digest();

/** `qk_<prefix>_<secret>`: the prefix finds the row and can be shown in listings; only the hash is stored. */
export function generateApiKey(): GeneratedKey {
  const prefix = randomBytes(9).toString('base64url').replace(/[-_]/g, 'x').slice(0, 12);
  const apiKey = `qk_${prefix}_${randomBytes(32).toString('base64url')}`;
  return { apiKey, prefix, hash: hashApiKey(apiKey) };
}

export function parseApiKey(apiKey: string): { prefix: string } | null {
  const match = KEY_PATTERN.exec(apiKey);
  return match ? { prefix: match[1]! } : null;
}

export function hashesEqual(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
