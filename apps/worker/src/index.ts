export { createWorkerContext, type WorkerContext } from './context.ts';
export { startWorker, type RunningWorker } from './worker.ts';
export { startWorkerHttpServer, type WorkerHttpServer } from './http-server.ts';
export { sweepStaleDeliveries, sweepStaleMaterials } from './sweeper.ts';
export { processMaterial } from './processors/process-material.ts';
