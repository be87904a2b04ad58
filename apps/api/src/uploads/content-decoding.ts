import type { Request } from 'express';
import type { Writable } from 'node:stream';
import zlib from 'node:zlib';
import { AppError, badRequest } from '../errors.ts';

/** The codings a multipart body may come in: the ones express.json undoes for a JSON body, and no others. */
const DECODERS: Record<string, () => zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress> = {
  gzip: () => zlib.createGunzip(),
  'x-gzip': () => zlib.createGunzip(),
  deflate: () => zlib.createInflate(),
  br: () => zlib.createBrotliDecompress(),
};

/**
 * The request's `Content-Encoding`, checked before a byte of the body is read: none or `identity`, or one
 * coding quire can undo (else 415, as for a JSON body).
 */
export function contentEncodingOf(req: Request): string | undefined {
  const coding = (req.get('content-encoding') ?? 'identity').trim().toLowerCase();
  if (coding === 'identity' || coding === '') return undefined;
  if (!(coding in DECODERS)) {
    throw new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', `Unsupported body encoding "${coding}"; use gzip, deflate or br`);
  }
  return coding;
}

/**
 * Feeds busboy the body as it was before its `Content-Encoding`: a body that is not what its label says
 * (plain text labelled gzip, a truncated stream) fails the upload with a 400, as it would for a JSON body.
 * Limits on files, fields and parts count the decoded bytes, so a small compressed bomb meets them too.
 */
export function decodingStreamHandler(coding: string | undefined) {
  return (req: Request, busboy: Writable): void => {
    if (!coding) {
      req.pipe(busboy);
      return;
    }
    const decoder = DECODERS[coding]!();
    decoder.on('error', (err) => {
      req.unpipe(decoder);
      // Destroyed, not just told of the error: destroying busboy ends the file part's stream too, which closes the
      // object being written (a cut body ends the decoder, never busboy, so nothing else would end that stream).
      busboy.destroy(
        badRequest(`The request body could not be decoded as its Content-Encoding (${coding}) says: ${err.message}`),
      );
    });
    // multer unpipes the request from busboy when the form is bad; here the decoder sits between the two.
    busboy.once('error', () => {
      req.unpipe(decoder);
      decoder.destroy();
    });
    req.pipe(decoder).pipe(busboy);
  };
}
