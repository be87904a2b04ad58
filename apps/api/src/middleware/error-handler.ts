import type { NextFunction, Request, Response } from 'express';
import multer from 'multer';
import { ZodError } from 'zod';
import { isUnstorableText, violatedForeignKey } from '@quire/db';
import { AppError, badRequest, notFound, payloadTooLarge, unavailable } from '../errors.ts';
import { isDependencyDown } from '../dependency-errors.ts';

/**
 * Services check a folderId before writing it; a folder deleted between that check and the write trips one
 * of these foreign keys instead, which means the same thing.
 */
const FOLDER_REFERENCES = new Set(['materials_folder_fk', 'folders_parent_fk']);

const MULTER_MESSAGES: Record<string, string> = {
  LIMIT_PART_COUNT: 'Too many parts in the multipart body',
  LIMIT_FILE_COUNT: 'Only one file may be uploaded per request',
  LIMIT_FIELD_KEY: 'A form field name is too long',
  LIMIT_FIELD_VALUE: 'A form field value is too long',
  LIMIT_FIELD_COUNT: 'Too many form fields',
  LIMIT_UNEXPECTED_FILE: 'Unexpected file field; send the file as "file"',
  MISSING_FIELD_NAME: 'A form field has no name',
};

/** Turns anything thrown into the one error body shape; unknown errors become 500 without internals. */
export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof ZodError) {
    const details = err.issues.map((issue) => ({
      field: issue.path.join('.') || undefined,
      message: issue.message,
    }));
    const message = details.map((d) => (d.field ? `${d.field}: ${d.message}` : d.message)).join('; ');
    return badRequest(message, details);
  }
  if (err instanceof multer.MulterError) {
    if (err.code === 'LIMIT_FILE_SIZE') return payloadTooLarge('The file is larger than the upload limit');
    return badRequest(
      MULTER_MESSAGES[err.code] ?? err.message,
      err.field ? [{ field: err.field, message: err.message }] : undefined,
    );
  }
  const type = (err as { type?: string }).type;
  if (type === 'entity.parse.failed') return badRequest('The request body is not valid JSON');
  if (type === 'entity.too.large') return payloadTooLarge('The request body is too large');
  if (type === 'encoding.unsupported' || type === 'charset.unsupported')
    return new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Unsupported body encoding');
  // body-parser's 400 for a body its Content-Encoding cannot undo (not compressed, truncated, corrupt).
  if ((err as { status?: number }).status === 400 && isDecodingError((err as { code?: string }).code)) {
    return badRequest(`The request body could not be decoded as its Content-Encoding says: ${(err as Error).message}`);
  }
  if (
    (err as Error)?.message === 'Unexpected end of form' ||
    /Malformed part header|Multipart: Boundary not found/i.test((err as Error)?.message ?? '')
  ) {
    return badRequest('The multipart body is malformed or truncated');
  }
  if (FOLDER_REFERENCES.has(violatedForeignKey(err) ?? '')) return notFound('Folder');
  if (isUnstorableText(err)) return badRequest('Text must not contain NUL (\\u0000) characters');
  if (isDependencyDown(err)) return unavailable('A service quire depends on is unavailable; try again shortly');
  return new AppError(500, 'INTERNAL', 'Internal server error');
}

export function errorHandler() {
  return (err: unknown, req: Request, res: Response, _next: NextFunction) => {
    const appError = toAppError(err);
    if (appError.status >= 500) req.log?.error({ err }, 'request failed');
    if (appError.status === 503) res.set('Retry-After', '5');
    if (!res.headersSent) res.status(appError.status).json(appError.toBody());
  };
}

/** zlib's codes (Z_DATA_ERROR, Z_BUF_ERROR) and brotli's (ERR__ERROR_FORMAT_..., ERR_BROTLI_...). */
const isDecodingError = (code: string | undefined) => !!code && /^(Z_|ERR__|ERR_BROTLI)/.test(code);
