import { loadServiceConfig } from '@quire/config';
import { stopOnSignals } from '@quire/infra';
import { createApiContext } from './context.ts';
import { startServer } from './server.ts';
import { startPartialSweeper } from './uploads/partial-sweeper.ts';

const config = loadServiceConfig();
const ctx = await createApiContext(config);
await ctx.waiter.ready();
const stopSweeper = await startPartialSweeper(ctx);
const running = await startServer(ctx);
ctx.logger.info({ url: running.url }, 'api listening');

// Under `npm start`'s supervisor it also says when ready, and stops should the supervisor itself die.
stopOnSignals(ctx.logger, 'api', async () => {
  stopSweeper();
  await running.close();
  await ctx.close();
});
