import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_SEGMENT_CHARS } from '@quire/material';
import { startTestStack, uploadAndProcess, type Tenant, type TestStack } from '@quire/testkit';

let stack: TestStack;
let tenant: Tenant;
beforeAll(async () => {
  stack = await startTestStack();
  tenant = await stack.newTenant();
});
afterAll(() => stack?.close());

/**
 * About 2 MB of prose in one paragraph of many lines (a plain text is stored as its paragraphs; this one is a segment
 * longer than a piece), with quotes, backslashes and characters outside the BMP along the way.
 */
const longText = () =>
  Array.from(
    { length: 4000 },
    (_, i) => `Paragraph ${i}: "quoted" words, a back\\slash, ü € 😀 and ${'more words '.repeat(40)}end.`,
  ).join('\n');

interface Page {
  segments: { text: string; offset: number; source: string }[];
  page: number;
  limit: number;
  hasMore: boolean;
}
const page = async (id: string, query: string): Promise<Page> => {
  const res = await tenant.request(`/api/v1/materials/${id}/text?format=json&${query}`);
  expect(res.status).toBe(200);
  return res.json();
};

async function longMaterial(name: string) {
  const res = await uploadAndProcess(tenant, Buffer.from(longText()), `${name}.txt`);
  expect(res.status).toBe(201);
  const material = await res.json();
  const text = await (await tenant.request(`/api/v1/materials/${material._id}/text`)).text();
  return { id: material._id as string, segmentsKey: material.metadata.segmentsKey as string, text };
}

describe('/text?format=json on a long plain text', () => {
  it('serves pages of segments of bounded size, cut at line breaks, that tile the text', async () => {
    const { id, text } = await longMaterial('long');
    const first = await page(id, 'limit=1');
    expect(first.hasMore).toBe(true);
    expect(first.segments).toHaveLength(1);
    const [segment] = first.segments;
    expect(segment!.offset).toBe(0);
    expect(segment!.text.length).toBeLessThanOrEqual(MAX_SEGMENT_CHARS);
    expect(segment!.text.endsWith('\n')).toBe(true);
    expect(text.startsWith(segment!.text)).toBe(true);

    const third = await page(id, 'page=3&limit=1');
    const [piece] = third.segments;
    expect(text.slice(piece!.offset, piece!.offset + piece!.text.length)).toBe(piece!.text);

    const all: Page['segments'] = [];
    for (let p = 1; ; p++) {
      const next = await page(id, `page=${p}&limit=100`);
      all.push(...next.segments);
      if (!next.hasMore) break;
    }
    expect(all.map((s) => s.text).join('')).toBe(text);
    expect(Math.max(...all.map((s) => s.text.length))).toBeLessThanOrEqual(MAX_SEGMENT_CHARS);
  });

  it('serves a material stored as one long segment (before segments were cut) in the same pieces', async () => {
    const { id, segmentsKey, text } = await longMaterial('legacy');
    const today = await page(id, 'page=2&limit=2');
    // What a worker wrote before: the whole text as one NDJSON line.
    const oneLine = `${JSON.stringify({ text, offset: 0, source: 'text-layer' })}\n`;
    await stack.store.put(segmentsKey, Buffer.from(oneLine), { contentType: 'application/x-ndjson' });

    const first = await page(id, 'limit=1');
    expect(first.hasMore).toBe(true);
    expect(first.segments[0]!.text.length).toBeLessThanOrEqual(MAX_SEGMENT_CHARS);
    expect(first.segments[0]!.offset).toBe(0);
    expect(await page(id, 'page=2&limit=2')).toEqual(today);
    const last = await page(id, 'page=1000&limit=1');
    expect(last).toMatchObject({ segments: [], hasMore: false });
  });

  it('caps a page at about 2 MB, short of its limit, with hasMore and the next segment to start from', async () => {
    // A text of one 6 MB line, served in 16,384-character segments: a thousand of them would be a 6 MB answer.
    // (Written as the segments file directly: extracting 6 MB takes minutes on a busy test machine.)
    const { id, segmentsKey } = await longMaterial('one-line');
    const line = Array.from({ length: 1_200_000 }, (_, i) => `w${i % 1000}`)
      .join(' ')
      .slice(0, 6_000_000);
    const oneLine = `${JSON.stringify({ text: line, offset: 0, source: 'text-layer' })}\n`;
    await stack.store.put(segmentsKey, Buffer.from(oneLine), { contentType: 'application/x-ndjson' });
    const served: string[] = [];
    let query = 'limit=1000';
    for (let pages = 0; ; pages++) {
      expect(pages).toBeLessThan(10);
      const answer = await tenant.request(`/api/v1/materials/${id}/text?format=json&${query}`);
      const bytes = (await answer.clone().arrayBuffer()).byteLength;
      expect(bytes).toBeLessThanOrEqual(2 * 1024 * 1024 + 64 * 1024);
      const body = (await answer.json()) as Page & { next?: number };
      served.push(...body.segments.map((segment) => segment.text));
      if (!body.hasMore) break;
      expect(body.segments.length).toBeLessThan(1000);
      expect(body.next).toBe(served.length);
      query = `limit=1000&start=${body.next}`;
    }
    expect(served.length).toBeGreaterThan(300);
    expect(served.join('')).toBe(line);
  });
});
