import type { ExtractOptions } from './types.ts';

/** With OCR of textless pages to follow, the text layer's share of the text phase's progress. */
export const TEXT_SHARE_BEFORE_OCR = 0.4;

/** Progress when the text is whole: what follows is the images' when they are asked for. */
export const textPhaseEnd = (options: ExtractOptions) => (options.extractImages ? 60 : 95);
