import { missingOcrLanguages } from '@quire/extract';
import type { ApiContext } from '../context.ts';
import { badRequest } from '../errors.ts';

/** Refuses OCR languages this deployment cannot read: not in OCR_LANGUAGES, or listed but without trained data. */
export function requireOcrLanguages(ctx: ApiContext, languages: string[] | undefined): void {
  if (!languages?.length) return;
  const { languages: configured, dataDir } = ctx.config.extraction.ocr;
  const unavailable = [
    ...languages.filter((language) => !configured.includes(language)),
    ...missingOcrLanguages(
      languages.filter((language) => configured.includes(language)),
      dataDir,
    ),
  ];
  if (unavailable.length === 0) return;
  const message = `OCR language${unavailable.length > 1 ? 's' : ''} ${unavailable.join(', ')} not installed; installed: ${configured.join(', ')}`;
  throw badRequest(message, [{ field: 'ocrLanguages', message }]);
}
