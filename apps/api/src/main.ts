import { loadServiceConfig } from '@quire/config';
import { createApiContext } from './context.ts';
import { startServer } from './server.ts';
import { startPartialSweeper } from './uploads/partial-sweeper.ts';

const config = loadServiceConfig();
const ctx = await createApiContext(config);
await ctx.waiter.ready();
const stopSweeper = await startPartialSweeper(ctx);
const running = await startServer(ctx);
ctx.logger.info({ url: running.url }, 'api listening');

let stopping = false;
const shutdown = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  ctx.logger.info({ signal }, 'api stopping');
  stopSweeper();
  await running.close();
  await ctx.close();
  process.exit(0);
};
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
// Under `npm start`'s supervisor: say when ready, and stop should the supervisor itself die.
process.send?.({ type: 'ready' });
process.on('disconnect', () => void shutdown('supervisor gone'));
