/**
 * The queue refused a material's job after its row was committed; the material has been withdrawn (or put
 * back as it was), so the client can retry. `cause` is the queue's own error, for the caller to judge.
 */
export class JobRefusedError extends Error {
  constructor(override readonly cause: unknown) {
    super('The processing queue refused the job', { cause });
    this.name = 'JobRefusedError';
  }
}
