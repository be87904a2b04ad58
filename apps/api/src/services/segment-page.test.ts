import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { MAX_SEGMENT_CHARS, textSegmentsOf, type StoredTextSegment } from '@quire/material';
import { readSegmentPage } from './segment-page.ts';

/** NDJSON as the worker stores it, delivered in small chunks so that tokens straddle them. */
const ndjson = (segments: StoredTextSegment[], chunk = 1000) => {
  const bytes = Buffer.from(segments.map((segment) => `${JSON.stringify(segment)}\n`).join(''));
  return Readable.from(
    (function* () {
      for (let at = 0; at < bytes.length; at += chunk) yield bytes.subarray(at, at + chunk);
    })(),
  );
};

const prose = (paragraphs: number) =>
  Array.from({ length: paragraphs }, (_, i) => `Para ${i} "quoted" \\ ü € 😀 ${'words '.repeat(300)}`).join('\n\n');

describe('readSegmentPage', () => {
  it('pages through positioned segments with every field as stored', async () => {
    const segments: StoredTextSegment[] = Array.from({ length: 5 }, (_, i) => ({
      text: `page ${i + 1} "text"`,
      offset: i * 100,
      page: i + 1,
      source: 'ocr',
      confidence: 91.5,
    }));
    expect(await readSegmentPage(ndjson(segments, 7), 0, 2)).toEqual({ segments: segments.slice(0, 2), hasMore: true });
    expect(await readSegmentPage(ndjson(segments, 7), 4, 2)).toEqual({ segments: segments.slice(4), hasMore: false });
    expect(await readSegmentPage(ndjson(segments), 10, 2)).toEqual({ segments: [], hasMore: false });
  });

  it('serves a long segment stored whole in the pieces the worker cuts today', async () => {
    const text = prose(60);
    expect(text.length).toBeGreaterThan(MAX_SEGMENT_CHARS * 4);
    const cut = textSegmentsOf(text, [], 'text');
    const whole = [{ text, offset: 0, source: 'text-layer' as const }];
    expect(await readSegmentPage(ndjson(whole), 0, 1)).toEqual({ segments: cut.slice(0, 1), hasMore: true });
    expect(await readSegmentPage(ndjson(whole), 2, 2)).toEqual({ segments: cut.slice(2, 4), hasMore: true });
    expect(await readSegmentPage(ndjson(whole), 0, 1000)).toEqual({ segments: cut, hasMore: false });
    expect(await readSegmentPage(ndjson(cut), 2, 2)).toEqual({ segments: cut.slice(2, 4), hasMore: true });
  });

  it('keeps the position of a long segment on each of its pieces, and the offsets after it', async () => {
    const long = 'x'.repeat(MAX_SEGMENT_CHARS + 10);
    const stored: StoredTextSegment[] = [
      { text: long, offset: 0, page: 1, source: 'text-layer' },
      { text: 'next', offset: long.length + 1, page: 2, source: 'text-layer' },
    ];
    const { segments } = await readSegmentPage(ndjson(stored), 0, 10);
    expect(segments).toEqual([
      { text: 'x'.repeat(MAX_SEGMENT_CHARS), offset: 0, page: 1, source: 'text-layer' },
      { text: 'x'.repeat(10), offset: MAX_SEGMENT_CHARS, page: 1, source: 'text-layer' },
      stored[1],
    ]);
  });

  it('stops a page short of its limit once it holds maxBytes of JSON, and always holds one segment', async () => {
    const segments: StoredTextSegment[] = Array.from({ length: 6 }, (_, i) => ({
      text: `${i}`.repeat(1000),
      offset: i * 1000,
      source: 'text-layer',
    }));
    expect(await readSegmentPage(ndjson(segments), 0, 6, 2600)).toEqual({
      segments: segments.slice(0, 2),
      hasMore: true,
    });
    expect(await readSegmentPage(ndjson(segments), 2, 6, 2600)).toEqual({
      segments: segments.slice(2, 4),
      hasMore: true,
    });
    expect(await readSegmentPage(ndjson(segments), 4, 6, 10)).toEqual({
      segments: segments.slice(4, 5),
      hasMore: true,
    });
    expect(await readSegmentPage(ndjson(segments), 4, 6, 2600)).toEqual({
      segments: segments.slice(4),
      hasMore: false,
    });
  });
});
