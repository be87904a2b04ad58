import { referenceSchema } from '@quire/material';

/**
 * A reference as a client gives it: a link a reader can follow on the web. `javascript:`, `file:` and `data:` URLs are
 * well-formed URLs too, but a page that shows references as links would run or open them.
 */
export const referenceInputSchema = referenceSchema.extend({
  url: referenceSchema.shape.url.refine(
    (url) => ['http:', 'https:'].includes(new URL(url).protocol),
    'must be an http or https URL',
  ),
});
