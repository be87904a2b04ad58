import { text as readAll } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  makePdf,
  scannedPdf,
  scanOf,
  sendJson,
  startTestStack,
  uploadAndProcess,
  waitForStatus,
  wordF1,
  type Tenant,
  type TestStack,
} from '@quire/testkit';

let stack: TestStack;
let tenant: Tenant;
let other: Tenant;

beforeAll(async () => {
  stack = await startTestStack();
  tenant = await stack.newTenant();
  other = await stack.newTenant();
});
afterAll(() => stack?.close());

interface Segment {
  text: string;
  offset: number;
  page?: number;
  source: string;
  confidence?: number;
}

const parseNdjson = (body: string) =>
  body
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Segment);

/** About 1,700 characters a page, every page different, so a page out of place or missing shows. */
const bookPage = (n: number) =>
  `Page ${n} of the long handbook. ` +
  Array.from({ length: 24 }, (_, i) => `Sentence ${i + 1} of page ${n} explains topic ${(n * 31 + i) % 997}.`).join(
    ' ',
  );

describe('GET /api/v1/materials/{id}/text', () => {
  it('returns the whole text of a 600-page PDF, byte for byte, as text and as segments with their pages', async () => {
    const pages = Array.from({ length: 600 }, (_, i) => bookPage(i + 1));
    const res = await uploadAndProcess(tenant, await makePdf(pages), 'handbook.pdf', { timeoutMs: 170_000 });
    expect(res.status).toBe(201);
    const material = await res.json();
    // Too long to inline: the material says where the text is.
    expect(material.metadata.extractedText).toBeUndefined();
    expect(material.metadata.textUrl).toBe(`/api/v1/materials/${material._id}/text`);
    const produced = await readAll(await stack.store.get(material.metadata.textKey));
    expect(produced.length).toBe(material.metadata.textLength);

    const plain = await tenant.request(material.metadata.textUrl);
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const text = await plain.text();
    expect(text).toBe(produced);
    // pdfkit wraps the lines; pdf.js gives the breaks back.
    const flowing = text.replace(/\s+/g, ' ');
    for (const n of [1, 300, 600]) expect(flowing).toContain(bookPage(n));

    const ndjson = await tenant.request(`${material.metadata.textUrl}?format=ndjson`);
    expect(ndjson.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    const segments = parseNdjson(await ndjson.text());
    expect(segments.map((s) => s.page)).toEqual(pages.map((_, i) => i + 1));
    expect(segments.every((s) => s.source === 'text-layer')).toBe(true);
    for (const s of segments) expect(text.slice(s.offset, s.offset + s.text.length)).toBe(s.text);
    expect(segments.map((s) => s.text).join('\n\n')).toBe(text);

    // Pages of JSON walk the same segments.
    const walked: Segment[] = [];
    for (let page = 1; ; page++) {
      const body = await (
        await tenant.request(material.metadata.textUrl + `?page=${page}&limit=250`, {
          headers: { accept: 'application/json' },
        })
      ).json();
      walked.push(...body.segments);
      if (!body.hasMore) break;
    }
    expect(walked).toEqual(segments);
  }, 240_000);

  it('gives a mixed PDF page by page: the text layer where there is one, OCR with its confidence where not', async () => {
    const lines = ['Volcanoes form where plates meet', 'Magma rises through the crust', 'and cools into new rock'];
    const pdf = await scannedPdf(['The first page has a real text layer about geology.', await scanOf(lines)]);
    const res = await uploadAndProcess(tenant, pdf, 'scan.pdf');
    expect(res.status).toBe(201);
    const material = await res.json();
    expect(material.metadata.ocr).toMatchObject({ engine: 'tesseract', language: 'eng', pages: 1 });

    const body = await (await tenant.request(`/api/v1/materials/${material._id}/text?format=json`)).json();
    expect(body).toMatchObject({ page: 1, limit: 100, hasMore: false });
    const [first, second] = body.segments as Segment[];
    expect(first).toMatchObject({ page: 1, source: 'text-layer', offset: 0 });
    expect(first!.confidence).toBeUndefined();
    expect(second).toMatchObject({ page: 2, source: 'ocr' });
    expect(second!.confidence).toBeGreaterThan(60);
    expect(wordF1(second!.text, lines.join(' '))).toBeGreaterThanOrEqual(0.9);
    expect(await (await tenant.request(`/api/v1/materials/${material._id}/text`)).text()).toBe(
      material.metadata.extractedText,
    );
  });

  it('answers 404 to another organization, 409 while not active, 400 for an unknown format', async () => {
    const res = await uploadAndProcess(tenant, await makePdf(['A short page.']), 'short.pdf');
    const { _id: id } = await res.json();
    const foreign = await other.request(`/api/v1/materials/${id}/text`);
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toMatchObject({ statusCode: 404 });
    expect((await other.request(`/api/v1/materials/${id}/text?format=json`)).status).toBe(404);
    expect((await tenant.request(`/api/v1/materials/${id}/text?format=xml`)).status).toBe(400);

    const pending = await (
      await sendJson(tenant, 'POST', '/api/v1/materials/upload/presigned-url', {
        name: 'later.pdf',
        filename: 'later.pdf',
        contentType: 'application/pdf',
      })
    ).json();
    const waiting = await tenant.request(`/api/v1/materials/${pending.materialId}/text`);
    expect(waiting.status).toBe(409);
    expect((await waiting.json()).message).toMatch(/pending_upload/);
  });

  it('serves a short text as its one segment without storing it twice', async () => {
    const created = await (
      await sendJson(tenant, 'POST', '/api/v1/materials', { name: 'Note', content: { text: 'Just a short note.' } })
    ).json();
    const done = await waitForStatus(tenant, created._id, ['active', 'error']);
    expect(done).toMatchObject({ status: 'active', usage: { derivedBytes: 0 } });
    expect(done.metadata.segmentsKey).toBeUndefined();
    const ndjson = await (await tenant.request(`/api/v1/materials/${done._id}/text?format=ndjson`)).text();
    expect(parseNdjson(ndjson)).toEqual([{ text: 'Just a short note.', offset: 0, source: 'text-layer' }]);
    const page = await (await tenant.request(`/api/v1/materials/${done._id}/text?format=json`)).json();
    expect(page).toEqual({ segments: parseNdjson(ndjson), page: 1, limit: 100, hasMore: false });
  });
});
