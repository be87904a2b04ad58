import type { NextFunction, Request, Response } from 'express';
import { bearerMatches, secretsEqual } from '@quire/metrics';

/**
 * Lets a request through with `Authorization: Bearer <token>`, or with basic auth whose password is the
 * token (any user name), which is what a browser's login prompt sends; anything else gets that prompt.
 */
export function requireAdminToken(token: string) {
  return (req: Request, res: Response, next: NextFunction) => {
    const authorization = req.get('authorization') ?? '';
    if (bearerMatches(authorization, token)) return next();
    const [scheme, encoded] = authorization.split(' ', 2);
    if (scheme?.toLowerCase() === 'basic' && encoded) {
      const decoded = Buffer.from(encoded, 'base64').toString('utf8');
      const password = decoded.slice(decoded.indexOf(':') + 1);
      if (secretsEqual(password, token)) return next();
    }
    res
      .set('WWW-Authenticate', 'Basic realm="quire admin", charset="UTF-8"')
      .status(401)
      .json({ error: 'Unauthorized' });
  };
}
