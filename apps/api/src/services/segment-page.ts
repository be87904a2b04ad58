import type { Readable } from 'node:stream';
import { firstPieceEnd, MAX_SEGMENT_CHARS, type StoredTextSegment } from '@quire/material';
import StreamJson from 'stream-json';

/** One token of stream-json's parser, as configured below. */
interface Token {
  name: string;
  value?: string | number;
}

export interface SegmentPage {
  segments: StoredTextSegment[];
  hasMore: boolean;
}

/**
 * A page stops short of its `limit` once its segments pass this many bytes of JSON (a thousand segments of a one-line
 * text were 13 MB), with `hasMore`: the next page starts at the segment after its last. It always holds one segment.
 */
export const MAX_PAGE_BYTES = 2 * 1024 * 1024;
/** What a segment's fields other than its text (offset, page, source, ...) add to its JSON, at most. */
const FIELDS_BYTES = 256;

/**
 * One page of a material's segments (NDJSON as the worker stores them), read as a stream of JSON tokens so
 * that no segment is ever held whole: a segment longer than `MAX_SEGMENT_CHARS` (a plain text or a web page
 * stored as one segment before segments were cut) is served as the pieces the worker cuts today
 * (`firstPieceEnd`), and only the pieces of the page asked for are kept. Memory is bounded by the page; time by
 * how far into the file the page is.
 */
export async function readSegmentPage(
  ndjson: Readable,
  first: number,
  limit: number,
  maxBytes = MAX_PAGE_BYTES,
): Promise<SegmentPage> {
  const page: StoredTextSegment[] = [];
  let index = 0;
  let hasMore = false;
  let end = first + limit;
  let bytes = 0;

  // The segment being read: its small fields as they come, its text as pieces, only the page's kept.
  let fields: Record<string, unknown> = {};
  let key: string | undefined;
  let text = '';
  let textStart = 0;
  let inSegment = false;
  let kept: { text: string; start: number }[] = [];
  let otherString = '';
  // The arrays and objects a segment holds (a table's rows, a heading path, a box), built as they come.
  const nested: { value: unknown[] | Record<string, unknown>; key: string | undefined }[] = [];
  const put = (value: unknown) => {
    const into = nested.at(-1)?.value;
    if (!into) fields[key!] = value;
    else if (Array.isArray(into)) into.push(value);
    else into[key!] = value;
  };
  const open = (value: unknown[] | Record<string, unknown>) => nested.push({ value, key });
  const close = () => {
    const { value, key: outerKey } = nested.pop()!;
    key = outerKey;
    put(value);
  };

  const piece = (pieceText: string) => {
    const size = index >= first && index < end ? Buffer.byteLength(JSON.stringify(pieceText)) + FIELDS_BYTES : 0;
    if (index > first && bytes + size > maxBytes) end = Math.min(end, index);
    if (index >= end) hasMore = true;
    else if (index >= first) {
      kept.push({ text: pieceText, start: textStart });
      bytes += size;
    }
    index++;
    textStart += pieceText.length;
  };

  const tokens = ndjson.pipe(
    StreamJson.parser({
      jsonStreaming: true,
      packKeys: true,
      streamKeys: false,
      packNumbers: true,
      packStrings: false,
    }),
  );
  try {
    for await (const token of tokens as AsyncIterable<Token>) {
      switch (token.name) {
        case 'startArray':
          open([]);
          break;
        case 'endArray':
          close();
          break;
        case 'trueValue':
        case 'falseValue':
          put(token.name === 'trueValue');
          break;
        case 'nullValue':
          put(null);
          break;
        case 'startObject':
          if (nested.length > 0 || inSegment) {
            open({});
            break;
          }
          inSegment = true;
          fields = {};
          text = '';
          textStart = 0;
          kept = [];
          break;
        case 'keyValue':
          key = token.value as string;
          break;
        case 'startString':
          otherString = '';
          break;
        case 'stringChunk':
          if (key !== 'text' || nested.length > 0) {
            otherString += token.value as string;
            break;
          }
          text += token.value as string;
          // Cut only once more than a piece is known, so the cut is where the worker's would be.
          while (text.length > MAX_SEGMENT_CHARS) {
            const end = firstPieceEnd(text);
            piece(text.slice(0, end));
            text = text.slice(end);
          }
          // Past the page, with nothing of this segment kept: no need to read the rest of it.
          if (hasMore && kept.length === 0) return { segments: page, hasMore };
          break;
        case 'endString':
          if (key === 'text' && nested.length === 0) {
            // A segment without text (a figure without a caption) is an element of its own too.
            if (text || textStart === 0) piece(text);
            text = '';
          } else put(otherString);
          break;
        case 'numberValue':
          put(Number(token.value));
          break;
        case 'endObject': {
          if (nested.length > 0) {
            close();
            break;
          }
          inSegment = false;
          const { offset, ...position } = fields;
          for (const { text: pieceText, start } of kept) {
            page.push({ text: pieceText, offset: Number(offset) + start, ...position } as StoredTextSegment);
          }
          if (hasMore) return { segments: page, hasMore };
          break;
        }
      }
    }
    return { segments: page, hasMore };
  } finally {
    tokens.destroy();
    ndjson.destroy();
  }
}
