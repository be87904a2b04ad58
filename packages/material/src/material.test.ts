import { describe, expect, it } from 'vitest';
import { materialFromRow, type MaterialRow } from './material.row.ts';
import { forReprocessing, withError, withResult } from './metadata.ts';
import { parseStoredSource, toFlatContent, toStoredContent } from './source.ts';
import { assertTransitions, canTransition } from './status.ts';

const file = { s3Key: 'o/m/original', filename: 'a.pdf', fileSize: 3, mimeType: 'application/pdf' };

describe('the stored source', () => {
  it('reads the flat content of earlier versions by which fields are set', () => {
    expect(parseStoredSource({ text: 'hi' })).toEqual({ kind: 'text', text: 'hi' });
    expect(parseStoredSource({ url: 'https://x.org/a' })).toEqual({ kind: 'url', url: 'https://x.org/a' });
    expect(parseStoredSource({ url: 'https://x.org/a', ...file })).toEqual({
      kind: 'url',
      url: 'https://x.org/a',
      fetched: file,
    });
    expect(parseStoredSource(file)).toEqual({ kind: 'file', file });
    expect(() => parseStoredSource({})).toThrow(/neither text, url nor s3Key/);
  });

  it('stores the flat wire content tagged with its kind, and reads it back as it was', () => {
    const sources = [
      { kind: 'url', url: 'https://x.org/a', fetched: file },
      { kind: 'url', url: 'https://x.org/a' },
      { kind: 'file', file },
      { kind: 'text', text: 't' },
    ] as const;
    for (const source of sources)
      expect(parseStoredSource(JSON.parse(JSON.stringify(toStoredContent(source))))).toEqual(source);
    expect(toStoredContent(sources[0])).toEqual({ kind: 'url', url: 'https://x.org/a', ...file });
    expect(toFlatContent(sources[2])).toEqual(file);
    expect(() => parseStoredSource({ kind: 'file', filename: 'a.pdf' })).toThrow();
  });
});

describe('the row mapping', () => {
  const row: MaterialRow = {
    id: 'm',
    organization_id: 'o',
    folder_id: null,
    name: 'n',
    content_type: 'pdf',
    status: 'active',
    content: file,
    metadata: { pageCount: 2, wordCount: 5, extra: 'kept' },
    references: [],
    extract_images: true,
    storage_bytes: 3,
    derived_bytes: 0,
    processing_started_at: null,
    created_at: new Date(0),
    updated_at: new Date(0),
  };

  it('parses the JSON columns with the schema of the content type, keeping unknown fields', () => {
    const material = materialFromRow(row);
    expect(material).toMatchObject({ organizationId: 'o', contentType: 'pdf', source: { kind: 'file', file } });
    expect(material.metadata).toEqual({ pageCount: 2, wordCount: 5, extra: 'kept' });
  });

  it('names the row it cannot read instead of passing on a wrong value', () => {
    expect(() => materialFromRow({ ...row, metadata: { pageCount: 'two' } })).toThrow(
      'material m has a row this version cannot read',
    );
  });
});

describe('metadata across runs', () => {
  const run = { processingMs: 10 };
  const result = { wordCount: 1, textLength: 3, extractedText: 'new', extractor: { name: 'text', version: 2 } };

  it('a successful run drops the last error, progress, peak and stale outputs, and keeps the rest', () => {
    const previous = {
      requestedType: 'url' as const,
      progress: 50,
      peakMemoryMb: 9,
      error: { code: 'TIMEOUT' as const, message: 'm' },
      textKey: 'k',
      thumbnail: { id: 't', s3Key: 's' },
    };
    expect(withResult(previous, { format: 'plain' }, result, run)).toEqual({
      requestedType: 'url',
      format: 'plain',
      ...result,
      ...run,
    });
  });

  it('a failed run keeps the last result readable beside its error; reprocessing clears the error', () => {
    const failed = withError({ ...result, progress: 90 }, { code: 'CORRUPT', message: 'bad' }, run);
    expect(failed).toEqual({ ...result, error: { code: 'CORRUPT', message: 'bad' }, ...run });
    expect(forReprocessing(failed)).toEqual({ ...result, ...run });
  });
});

describe('status transitions', () => {
  it('allows only the moves of the table', () => {
    expect(canTransition('pending_upload', 'processing')).toBe(true);
    expect(canTransition('active', 'processing')).toBe(true);
    expect(canTransition('pending_upload', 'active')).toBe(false);
    expect(canTransition('deleted', 'processing')).toBe(false);
    expect(() => assertTransitions(['processing', 'deleted'], 'active')).toThrow(
      'a material cannot go from deleted to active',
    );
  });
});
