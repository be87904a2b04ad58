import type { Logger } from 'pino';

/**
 * Stops the process once, whichever comes first: SIGTERM, SIGINT, or (under `npm start`'s supervisor) the
 * supervisor going away. `stop` closes what the process opened; then it exits. Also tells the supervisor,
 * if any, that the process is ready.
 */
export function stopOnSignals(logger: Logger, name: string, stop: () => Promise<void>): void {
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, `${name} stopping`);
    await stop();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.send?.({ type: 'ready' });
  process.on('disconnect', () => void shutdown('supervisor gone'));
}
