import { Router } from 'express';
import { sql } from 'kysely';
import type { ApiContext } from '../context.ts';

const CHECK_TIMEOUT_MS = 2_000;

const withTimeout = <T>(promise: Promise<T>) =>
  Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timed out')), CHECK_TIMEOUT_MS).unref())]);

/** `/healthz`: the process is alive. `/readyz`: Postgres, Redis and storage answer, each named. */
export function healthRouter(ctx: ApiContext): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    const checks: Record<string, () => Promise<unknown>> = {
      postgres: () => sql`select 1`.execute(ctx.db),
      redis: () => ctx.redis.ping(),
      storage: () => ctx.store.ping(),
    };
    const results = await Promise.all(
      Object.entries(checks).map(async ([name, check]) => {
        try {
          await withTimeout(check());
          return [name, 'ok'] as const;
        } catch (err) {
          return [name, `unavailable: ${(err as Error).message}`] as const;
        }
      }),
    );
    const ready = results.every(([, status]) => status === 'ok');
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not ready', checks: Object.fromEntries(results) });
  });
  return router;
}
