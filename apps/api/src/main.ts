import { loadServiceConfig } from '@quire/config';
import { createApiContext } from './context.ts';
import { startServer } from './server.ts';

const config = loadServiceConfig();
const ctx = await createApiContext(config);
await ctx.waiter.ready();
const running = await startServer(ctx);
ctx.logger.info({ url: running.url }, 'api listening');

let stopping = false;
const shutdown = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  ctx.logger.info({ signal }, 'api stopping');
  await running.close();
  await ctx.close();
  process.exit(0);
};
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
