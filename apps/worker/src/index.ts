export { createWorkerContext, type WorkerContext } from './context.ts';
export { startWorker, type RunningWorker } from './worker.ts';
export { sweepStaleMaterials } from './sweeper.ts';
