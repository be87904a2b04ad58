export type FetchErrorCode = 'FETCH_FAILED' | 'TOO_LARGE';

/** A URL that could not be fetched for a reason that belongs to the URL, not to the machine fetching it. */
export class FetchError extends Error {
  constructor(
    readonly code: FetchErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'FetchError';
  }
}
