import { loadServiceConfig } from '@quire/config';
import { missingOcrLanguages } from '@quire/extract';
import { stopOnSignals } from '@quire/infra';
import { createWorkerContext } from './context.ts';
import { startWorkerHttpServer } from './http-server.ts';
import { sweepStaleJobDirs } from './sandbox/job-dirs.ts';
import { sweepStaleOcrDirs } from './sandbox/ocr-dirs.ts';
import { startWorker } from './worker.ts';

const config = loadServiceConfig();
// Nothing is downloaded at run time: a configured language without its data is a setup error, said at once.
const missingLanguages = missingOcrLanguages(config.extraction.ocr.languages, config.extraction.ocr.dataDir);
if (missingLanguages.length) {
  throw new Error(
    `OCR_LANGUAGES lists ${missingLanguages.join(', ')} but no trained data was found: install @tesseract.js-data/<code> ` +
      'or set OCR_DATA_DIR to a folder of <code>.traineddata files (Debian: tesseract-ocr-<code>)',
  );
}
const ctx = await createWorkerContext(config);
await sweepStaleJobDirs(ctx.logger, config.worker.processingStaleMs);
await sweepStaleOcrDirs(ctx.logger, config.worker.processingStaleMs);
const running = startWorker(ctx);
const http = await startWorkerHttpServer(ctx, running).catch(async (err) => {
  // Fails loudly (a taken metrics port, say) instead of taking jobs with no health check to show for it.
  ctx.logger.fatal({ err }, 'worker could not start its HTTP server');
  await running.stop(0);
  await ctx.close();
  process.exit(1);
});
ctx.logger.info(
  {
    concurrency: config.worker.concurrency,
    interactiveConcurrency: config.worker.interactiveConcurrency,
    metrics: `${http.url}/metrics`,
  },
  'worker started',
);

// Under `npm start`'s supervisor it also says when ready, and stops should the supervisor itself die.
stopOnSignals(ctx.logger, 'worker', async () => {
  await running.stop();
  await http.close();
  await ctx.close();
});
