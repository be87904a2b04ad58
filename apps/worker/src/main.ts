import { loadServiceConfig } from '@quire/config';
import { createWorkerContext } from './context.ts';
import { startWorkerHttpServer } from './http-server.ts';
import { startWorker } from './worker.ts';

const config = loadServiceConfig();
const ctx = await createWorkerContext(config);
const running = startWorker(ctx);
const http = await startWorkerHttpServer(ctx, running);
ctx.logger.info({ concurrency: config.worker.concurrency, metrics: `${http.url}/metrics` }, 'worker started');

let stopping = false;
const shutdown = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  ctx.logger.info({ signal }, 'worker stopping');
  await running.stop();
  await http.close();
  await ctx.close();
  process.exit(0);
};
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
