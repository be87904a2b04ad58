import { STATUS_CODES } from 'node:http';

export interface ErrorDetail {
  field?: string;
  message: string;
}

/**
 * Every deliberate error response: status, stable code for logs and clients, human message. The one error
 * class of the api; the error middleware renders it, and `toBody` is the one place its body is shaped.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: ErrorDetail[],
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'AppError';
  }

  /**
   * The NestJS-shaped body the public service returns; two bodies of the contract are fixed instead: every
   * auth failure's, whatever the reason, and the analytics endpoints' 400.
   */
  toBody(): Record<string, unknown> {
    if (this.code === UNAUTHORIZED) return { error: 'Unauthorized' };
    if (this.code === MISSING_PARAMS) return { error: 'Missing params', message: this.message };
    return {
      statusCode: this.status,
      error: STATUS_CODES[this.status] ?? 'Error',
      message: this.message,
      ...(this.details?.length ? { details: this.details } : {}),
      ...this.extra,
    };
  }
}

const UNAUTHORIZED = 'UNAUTHORIZED';
const MISSING_PARAMS = 'MISSING_PARAMS';

export const badRequest = (message: string, details?: ErrorDetail[]) =>
  new AppError(400, 'BAD_REQUEST', message, details);
export const notFound = (what = 'Material') => new AppError(404, 'NOT_FOUND', `${what} not found`);
export const conflict = (message: string) => new AppError(409, 'CONFLICT', message);
export const payloadTooLarge = (message: string) => new AppError(413, 'TOO_LARGE', message);
export const unsupportedType = (message: string) => new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', message);
export const unavailable = (message: string) => new AppError(503, 'UNAVAILABLE', message);

/** A 400 for one event of a usage batch names its index, so the sender can find it among a thousand. */
export const badEvent = (
  index: number,
  field: string,
  message: string,
  details = [{ field: `events.${index}.${field}`, message }],
) => new AppError(400, 'BAD_REQUEST', `events[${index}].${field}: ${message}`, details, { index });

/** Auth failures have their own fixed body on every endpoint, whatever the reason: `{"error": "Unauthorized"}`. */
export const unauthorized = () => new AppError(403, UNAUTHORIZED, 'Unauthorized');

/** The analytics endpoints' 400 has its own fixed body: `{"error": "Missing params", "message"}`. */
export const missingParams = (message: string) => new AppError(400, MISSING_PARAMS, message);
