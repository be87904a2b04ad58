import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Registry } from 'prom-client';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Compares a presented secret with the configured one in constant time, whatever their lengths. */
export const secretsEqual = (presented: string, secret: string): boolean =>
  timingSafeEqual(digest(presented), digest(secret));

/** True when `authorization` is `Bearer <token>`. */
export function bearerMatches(authorization: string | undefined, token: string): boolean {
  const [scheme, value] = (authorization ?? '').split(' ', 2);
  return scheme?.toLowerCase() === 'bearer' && value !== undefined && secretsEqual(value, token);
}

/** Serves the registry in Prometheus' text format; with a token set, only to requests bearing it. */
export function metricsHandler(registry: Registry, token: string | undefined) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (token && !bearerMatches(req.headers.authorization, token)) {
      res.writeHead(401, { 'Content-Type': 'application/json', 'WWW-Authenticate': 'Bearer realm="metrics"' });
      res.end(JSON.stringify({ error: 'Unauthorized' }));
      return;
    }
    const body = await registry.metrics();
    res.writeHead(200, { 'Content-Type': registry.contentType });
    res.end(body);
  };
}
