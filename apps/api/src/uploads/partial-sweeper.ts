import type { LocalStore } from '@quire/storage';
import type { ApiContext } from '../context.ts';

/**
 * An upload whose api process died leaves its `*.partial` file behind, and that file also holds the upload
 * URL's claim. A partial nobody has written to for HTTP_IDLE_TIMEOUT_MS belongs to a dropped connection, so
 * it is removed at start-up and then once per that interval.
 */
export async function startPartialSweeper(ctx: Pick<ApiContext, 'store' | 'config' | 'logger'>): Promise<() => void> {
  if (ctx.store.driver !== 'local') return () => {};
  const store = ctx.store as LocalStore;
  const olderThanMs = ctx.config.server.idleTimeoutMs;
  const sweep = async () => {
    const removed = await store.sweepPartials(olderThanMs);
    if (removed > 0) ctx.logger.warn({ removed }, 'removed partial uploads left by dropped connections');
  };
  await sweep();
  const timer = setInterval(
    () => sweep().catch((err) => ctx.logger.warn({ err }, 'partial upload sweep failed')),
    olderThanMs,
  );
  timer.unref();
  return () => clearInterval(timer);
}
