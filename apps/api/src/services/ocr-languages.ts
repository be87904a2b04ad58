import { missingOcrLanguages } from '@quire/extract';
import type { ApiContext } from '../context.ts';
import { badRequest } from '../errors.ts';

/** Why OCR languages cannot be read here (not in OCR_LANGUAGES, or listed but without trained data), if they cannot. */
export function ocrLanguagesRefused(ctx: ApiContext, languages: string[] | undefined): string | undefined {
  if (!languages?.length) return undefined;
  const { languages: configured, dataDir } = ctx.config.extraction.ocr;
  const unavailable = [
    ...languages.filter((language) => !configured.includes(language)),
    ...missingOcrLanguages(
      languages.filter((language) => configured.includes(language)),
      dataDir,
    ),
  ];
  if (unavailable.length === 0) return undefined;
  return `OCR language${unavailable.length > 1 ? 's' : ''} ${unavailable.join(', ')} not installed; installed: ${configured.join(', ')}`;
}

/** Refuses OCR languages this deployment cannot read: a 400 naming them. */
export function requireOcrLanguages(ctx: ApiContext, languages: string[] | undefined): void {
  const message = ocrLanguagesRefused(ctx, languages);
  if (message !== undefined) throw badRequest(message, [{ field: 'ocrLanguages', message }]);
}
