import type { Config } from '@quire/config';
import type { Db } from '@quire/db';
import type { MaterialsQueue } from '@quire/queue';
import type { ObjectStore } from '@quire/storage';
import type { Logger } from 'pino';
import type { RunSandboxed } from '../sandbox/pool.ts';

/** What processing a material needs from the worker. */
export interface ProcessDeps {
  db: Db;
  store: ObjectStore;
  config: Config;
  logger: Logger;
  /** Where a long recording's chunk jobs go; without it (and a job token) recordings are transcribed whole. */
  queue?: MaterialsQueue;
  /** Aborted when the worker must stop now: running extractions are killed and their jobs handed back. */
  shutdown?: AbortSignal;
  /** Aborted (with a `JobCancelledError`) when a client cancels this job: the work stops, nothing is retried. */
  cancel?: AbortSignal;
  /** Runs extractions in the worker's warm children; without it each job gets a process of its own. */
  sandbox?: RunSandboxed;
}
