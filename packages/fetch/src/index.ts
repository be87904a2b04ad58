export class FetchError extends Error {
  constructor(readonly code: 'FETCH_FAILED' | 'TOO_LARGE', message: string) {
    super(message);
  }
}
export async function fetchToFile(url: string, _dest: string, _o: { maxBytes: number; timeoutMs: number }): Promise<{ finalUrl: string }> {
  throw new FetchError('FETCH_FAILED', `placeholder until the fetch package lands: ${url}`);
}
