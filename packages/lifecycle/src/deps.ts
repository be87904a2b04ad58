import type { Db } from '@quire/db';
import type { MaterialsQueue } from '@quire/queue';
import type { ObjectStore } from '@quire/storage';
import type { Logger } from 'pino';

/**
 * What the lifecycle needs, passed explicitly by whichever app calls it (the api's and the worker's contexts
 * both fit). Each function takes only the pieces it uses.
 */
export interface LifecycleDeps {
  db: Db;
  store: ObjectStore;
  queue: MaterialsQueue;
  logger: Logger;
}
