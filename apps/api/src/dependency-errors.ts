const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'EAI_AGAIN',
]);
// Postgres SQLSTATEs for "the server went away or is not accepting work".
const PG_UNAVAILABLE = new Set(['57P01', '57P02', '57P03', '08000', '08003', '08006', '08001', '08004', '53300']);

/** True for errors that mean Postgres, Redis or storage is unreachable, which clients see as 503. */
export function isDependencyDown(err: unknown): boolean {
  const e = err as { code?: string; name?: string; message?: string; cause?: unknown } | undefined;
  if (!e) return false;
  if (e.code && (NETWORK_CODES.has(e.code) || PG_UNAVAILABLE.has(e.code))) return true;
  const message = e.message ?? '';
  if (
    e.name === 'MaxRetriesPerRequestError' ||
    /Connection is closed|Command timed out|enableOfflineQueue|Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(
      message,
    )
  ) {
    return true;
  }
  return e.cause !== undefined && e.cause !== err && isDependencyDown(e.cause);
}
