import type { ExtractResult } from '@quire/extract';
import { describe, expect, it } from 'vitest';
import { packResult, unpackResult } from './protocol.ts';

const roundTrip = (result: ExtractResult) => unpackResult(JSON.parse(JSON.stringify(packResult(result))));

describe('a result crossing the channel', () => {
  it('sends the text of page segments once, and arrives as it left', () => {
    const pages = ['Page one.', 'Page one.', '', 'Third\npage.'];
    const text = pages.filter(Boolean).join('\n\n');
    const result: ExtractResult = {
      text,
      segments: pages.flatMap((page, i) => (page ? [{ text: page, page: i + 1 }] : [])),
      images: [],
      metadata: { pageCount: 4 },
    };
    const wire = JSON.stringify(packResult(result));
    expect(wire.split('Page one.')).toHaveLength(3);
    expect(roundTrip(result)).toEqual(result);
  });

  it('keeps inline the segments that are not a slice of the text where they fall', () => {
    const result: ExtractResult = {
      text: 'Layer text.\n\nRead by OCR.',
      segments: [
        { text: 'Layer text.', page: 1 },
        { text: 'read by ocr', page: 2, source: 'ocr', confidence: 91 },
        { text: 'Layer text.', page: 3 },
      ],
      images: [],
      metadata: {},
    };
    expect(roundTrip(result)).toEqual(result);
  });
});
