import { randomBytes } from 'node:crypto';
import type { ServiceConfig } from '@quire/config';
import { deleteApiCallEventsBefore, insertApiCallEvents, type ApiCallEvent, type Db } from '@quire/db';
import type { Logger } from 'pino';

/** Where the events go: Postgres (`apiCallTable`), or a test's stand-in. */
export interface ApiCallTable {
  insert(events: ApiCallEvent[]): Promise<void>;
  /** Deletes at most `limit` events older than `before`; returns how many. */
  deleteBefore(before: Date, limit: number): Promise<number>;
}

export const apiCallTable = (db: Db): ApiCallTable => ({
  insert: (events) => insertApiCallEvents(db, events),
  deleteBefore: (before, limit) => deleteApiCallEventsBefore(db, before, limit),
});

const DAY_MS = 86_400_000;
const PRUNE_EVERY_MS = 3_600_000;
const PRUNE_BATCH = 5_000;
/** Batches waiting beyond this many (Postgres slow or down) are dropped rather than held in memory. */
const MAX_PENDING_BATCHES = 20;

export type ApiCall = Omit<ApiCallEvent, 'eventId'>;

/**
 * Keeps an api process's `api_call` events and writes them in batches, off the requests' path: when
 * `flushIntervalMs` has passed since the first one waiting, when `batchMax` wait, and at shutdown. A batch
 * that cannot be written is logged and dropped: usage accounting never fails or slows a request. Also deletes
 * the events past their retention, hourly.
 */
export class ApiCallRecorder {
  private pending: ApiCallEvent[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  private readonly pruner: NodeJS.Timeout | undefined;
  private dropped = 0;
  /** Event ids are this process's, then a count: unique without a random draw per request (a UUID costs 14 µs). */
  private readonly idPrefix = `api_call:${randomBytes(8).toString('hex')}:`;
  private sequence = 0;

  constructor(
    private readonly table: ApiCallTable,
    private readonly settings: ServiceConfig['apiCalls'],
    private readonly logger: Logger,
    private readonly random: () => number = Math.random,
  ) {
    // Also when off: what was recorded before still ages out.
    if (settings.retentionDays > 0) {
      this.pruner = setInterval(() => void this.prune(), PRUNE_EVERY_MS);
      this.pruner.unref();
    }
  }

  /** Whether this request is to be recorded (decided as it starts, so a sample costs the others nothing). */
  wants(): boolean {
    const { mode, sampleRate } = this.settings;
    return mode === 'all' || (mode === 'sampled' && this.random() < sampleRate);
  }

  record(call: ApiCall): void {
    if (this.pending.length >= MAX_PENDING_BATCHES * this.settings.batchMax) {
      if (this.dropped++ === 0) this.logger.warn('api_call events are not being written fast enough; dropping some');
      return;
    }
    // Ordered within the process: a batch lands in one place of the primary key's index, not all over it.
    const sequence = (this.sequence++).toString(36).padStart(10, '0');
    this.pending.push({ eventId: `${this.idPrefix}${sequence}`, ...call });
    if (this.pending.length >= this.settings.batchMax) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.settings.flushIntervalMs).unref();
  }

  /** Writes what waits (after any write in progress); resolves once it is written or dropped. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return this.writing;
    this.writing = this.writing.then(() =>
      this.table
        .insert(batch)
        .catch((err: unknown) =>
          this.logger.warn({ err, events: batch.length }, 'api_call events could not be written; dropped'),
        ),
    );
    return this.writing;
  }

  /** Deletes the `api_call` events older than the retention, a batch at a time. */
  async prune(now = Date.now()): Promise<number> {
    const before = new Date(now - this.settings.retentionDays * DAY_MS);
    let total = 0;
    try {
      for (let deleted = PRUNE_BATCH; deleted === PRUNE_BATCH; total += deleted)
        deleted = await this.table.deleteBefore(before, PRUNE_BATCH);
    } catch (err) {
      this.logger.warn({ err }, 'old api_call events could not be deleted; trying again in an hour');
    }
    return total;
  }

  /** At shutdown: stops pruning and writes what waits. */
  async close(): Promise<void> {
    clearInterval(this.pruner);
    await this.flush();
    if (this.dropped > 0) this.logger.warn({ dropped: this.dropped }, 'api_call events dropped while the api ran');
  }
}
