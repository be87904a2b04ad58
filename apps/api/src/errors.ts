import { STATUS_CODES } from 'node:http';

export interface ErrorDetail {
  field?: string;
  message: string;
}

/** Every deliberate error response: status, stable code for logs and clients, human message. */
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

  /** The NestJS-shaped body the public service returns. */
  toBody(): Record<string, unknown> {
    return {
      statusCode: this.status,
      error: STATUS_CODES[this.status] ?? 'Error',
      message: this.message,
      ...(this.details?.length ? { details: this.details } : {}),
      ...this.extra,
    };
  }
}

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

/** Auth failures have their own fixed body on every endpoint, whatever the reason. */
export class UnauthorizedError extends Error {
  constructor() {
    super('Unauthorized');
  }
}

/** The analytics endpoints' 400 has its own fixed body: `{"error": "Missing params", "message"}`. */
export class MissingParamsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MissingParamsError';
  }
}
