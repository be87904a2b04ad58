import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  makeEpub,
  makePdf,
  renderPdf,
  sendJson,
  startTestStack,
  uploadAndProcess,
  type Tenant,
  type TestStack,
} from '@quire/testkit';

let stack: TestStack;
let tenant: Tenant;
beforeAll(async () => {
  stack = await startTestStack();
  tenant = await stack.newTenant();
});
afterAll(() => stack?.close());

const words = (topic: string) =>
  `${topic} rise and fall twice a day as the moon pulls the sea around the earth. `.repeat(10);

/** A web page whose article has a heading hierarchy, a numbered list and a table with a merged cell. */
const PAGE = `<!doctype html><html><head><title>Tides</title></head><body>
  <nav><a href="/">Home</a> <a href="/about">About</a></nav>
  <article>
    <h1>How tides work</h1><p>${words('Tides')}</p>
    <h2>Spring tides</h2><p>${words('Spring tides')}</p>
    <ol><li>New moon</li><li>Full moon</li></ol>
    <table><tr><th>Tide</th><th>Height</th></tr><tr><td colspan="2">twice a day</td></tr></table>
  </article></body></html>`;

async function processed(body: Buffer, filename: string, options: { extractImages?: boolean } = {}) {
  const res = await uploadAndProcess(tenant, body, filename, options);
  expect(res.status).toBe(201);
  return res.json();
}

const text = (id: string, query: string, headers: Record<string, string> = {}) =>
  tenant.request(`/api/v1/materials/${id}/text${query}`, { headers });

describe('/text as Markdown', () => {
  it("streams a web page's article as CommonMark with its headings, list and GFM table", async () => {
    const material = await processed(Buffer.from(PAGE), 'tides.html');
    const res = await text(material._id, '?format=markdown');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    const markdown = await res.text();
    expect(markdown).toMatch(/^# How tides work\n\nTides rise/);
    expect(markdown).toContain('\n\n## Spring tides\n\n');
    expect(markdown).toContain('\n\n1. New moon\n2. Full moon\n\n');
    expect(markdown).toContain('| Tide | Height |\n|---|---|\n| twice a day | twice a day |');
    expect(markdown).not.toContain('Home');

    // Accept chooses it too; the plain text is unchanged by it.
    const accepted = await text(material._id, '', { accept: 'text/markdown' });
    expect(accepted.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(await accepted.text()).toBe(markdown);
    const plain = await text(material._id, '');
    expect(plain.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await plain.text()).toMatch(/^How tides work\n\nTides rise/);
  });

  it('links an EPUB figure to its signed image URL, each chapter heading a heading', async () => {
    const book = await makeEpub(
      [
        { title: 'Roots', paragraphs: ['Roots hold the plant.'] },
        { title: 'Leaves', paragraphs: ['Leaves catch light.'] },
      ],
      { pictureInChapter: 2 },
    );
    const material = await processed(book, 'plants.epub', { extractImages: true });
    const [image] = material.metadata.images as { id: string; s3Url: string }[];
    const markdown = await (await text(material._id, '?format=markdown')).text();
    expect(markdown).toMatch(
      /^# Roots\n\nRoots hold the plant\.\n\n# Leaves\n\nLeaves catch light\.\n\n!\[\]\(<(.+)>\)\n$/,
    );
    const url = /!\[\]\(<(.+)>\)/.exec(markdown)![1]!;
    expect(new URL(url).pathname).toBe(new URL(image!.s3Url).pathname);
    expect((await fetch(url)).status).toBe(200);
  });

  it('renders a plain text as its paragraphs', async () => {
    const material = await processed(Buffer.from('First *line*\nof one.\n\n# not a heading\n'), 'notes.txt');
    const markdown = await (await text(material._id, '?format=markdown')).text();
    expect(markdown).toBe('First \\*line\\*\nof one.\n\n\\# not a heading\n');
  });
});

describe('/text segments with their structure', () => {
  it('gives each segment its kind, level and the path of headings above it', async () => {
    const material = await processed(Buffer.from(PAGE), 'tides.html');
    const res = await text(material._id, '?format=json');
    const { segments } = await res.json();
    expect(
      segments.map(({ text: t, kind, level, path, rows }: Record<string, unknown>) => ({ t, kind, level, path, rows })),
    ).toEqual([
      { t: 'How tides work', kind: 'heading', level: 1 },
      { t: expect.stringMatching(/^Tides rise/), path: ['How tides work'] },
      { t: 'Spring tides', kind: 'heading', level: 2, path: ['How tides work'] },
      { t: expect.stringMatching(/^Spring tides rise/), path: ['How tides work', 'Spring tides'] },
      { t: 'New moon', kind: 'list-item', level: 1, path: ['How tides work', 'Spring tides'] },
      { t: 'Full moon', kind: 'list-item', level: 1, path: ['How tides work', 'Spring tides'] },
      {
        t: 'Tide\tHeight\ntwice a day',
        kind: 'table',
        path: ['How tides work', 'Spring tides'],
        rows: [
          [
            { text: 'Tide', header: true },
            { text: 'Height', header: true },
          ],
          [{ text: 'twice a day', colSpan: 2 }],
        ],
      },
    ]);
    const ndjson = await (await text(material._id, '?format=ndjson')).text();
    const lines = ndjson
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.map(({ offset: _o, ...rest }) => rest)).toEqual(
      segments.map(({ offset: _o, ...rest }: Record<string, unknown>) => rest),
    );
  });

  it("reads a Markdown file's own structure", async () => {
    const material = await processed(
      Buffer.from('# Notes\n\n## Week 1\n\n- Read *chapter* 1\n  - Take notes\n'),
      'notes.md',
    );
    const { segments } = await (await text(material._id, '?format=json')).json();
    expect(
      segments.map(({ text: t, kind, level, path }: Record<string, unknown>) => ({ t, kind, level, path })),
    ).toEqual([
      { t: 'Notes', kind: 'heading', level: 1 },
      { t: 'Week 1', kind: 'heading', level: 2, path: ['Notes'] },
      { t: 'Read chapter 1', kind: 'list-item', level: 1, path: ['Notes', 'Week 1'] },
      { t: 'Take notes', kind: 'list-item', level: 2, path: ['Notes', 'Week 1'] },
    ]);
  });

  it("keeps a numbered list's own numbers where a paragraph interrupts it, in the segments and the Markdown", async () => {
    const material = await processed(Buffer.from('Steps:\n\n3. Third\n\nA note.\n\n4. Fourth\n5. Fifth\n'), 'steps.md');
    const { segments } = await (await text(material._id, '?format=json')).json();
    const items = segments.filter((segment: Record<string, unknown>) => segment.kind === 'list-item');
    expect(items.map(({ text: t, ordered, number }: Record<string, unknown>) => ({ t, ordered, number }))).toEqual([
      { t: 'Third', ordered: true, number: 3 },
      { t: 'Fourth', ordered: true, number: 4 },
      { t: 'Fifth', ordered: true, number: 5 },
    ]);
    const ndjson = (await (await text(material._id, '?format=ndjson')).text()).trim().split('\n');
    expect(ndjson.map((line) => JSON.parse(line).number)).toEqual(segments.map((s: { number?: number }) => s.number));
    const markdown = await (await text(material._id, '?format=markdown')).text();
    expect(markdown).toBe('Steps:\n\n3. Third\n\nA note.\n\n4. Fourth\n5. Fifth\n');
    expect(await (await text(material._id, '')).text()).toContain('A note.\n\n4. Fourth');
  });
});

describe('search hits along the structure', () => {
  const search = async (query: string) => {
    const res = await sendJson(tenant, 'POST', '/api/v1/materials/search', { query });
    expect(res.status).toBe(200);
    return (await res.json()).results as Record<string, unknown>[];
  };

  it('gives a hit the heading path and the chapter it stands under', async () => {
    const book = await makeEpub([
      { title: 'Roots', paragraphs: ['Roots hold the plant.'] },
      {
        title: 'Leaves',
        paragraphs: ['Leaves catch light.', '</p><h2>Stomata</h2><p>Quillwort stomata open at dawn.'],
      },
    ]);
    const material = await processed(book, 'plants.epub');
    const [hit] = await search('quillwort stomata');
    expect(hit).toMatchObject({
      text: 'Stomata\nQuillwort stomata open at dawn.',
      heading: ['Leaves', 'Stomata'],
      chapter: 2,
      material: { id: material._id },
    });
  });

  it('gives a hit in a web page the headings of its section, cut at the heading', async () => {
    const material = await processed(Buffer.from(PAGE), 'tides.html');
    const hit = (await search('full moon')).find((result) => (result.material as { id: string }).id === material._id);
    expect(hit).toMatchObject({ heading: ['How tides work', 'Spring tides'], material: { id: material._id } });
    expect(hit!.text).toMatch(/^Spring tides\n/);
    expect(hit!.text).not.toContain('How tides work');
  });

  it('gives a PDF hit its page and the headings it stands under, set on earlier pages', async () => {
    const pdf = await renderPdf({}, (doc) => {
      doc.addPage();
      doc.font('Helvetica-Bold').fontSize(24).text('Plant Transport');
      doc.moveDown(0.5);
      doc.font('Helvetica').fontSize(11).text(words('Tides'), { width: 450 });
      doc.moveDown(0.8);
      doc.font('Helvetica-Bold').fontSize(16).text('1 Water');
      doc.moveDown(0.3);
      doc.font('Helvetica').fontSize(11).text(words('Roots'), { width: 450 });
      doc.addPage();
      doc
        .font('Helvetica')
        .fontSize(11)
        .text('Xylem vessels carry water upward from the roots to every leaf. '.repeat(3), {
          width: 450,
        });
    });
    const material = await processed(pdf, 'transport.pdf');
    const hit = (await search('xylem vessels')).find(
      (result) => (result.material as { id: string }).id === material._id,
    );
    expect(hit).toMatchObject({ page: 2, heading: ['Plant Transport', '1 Water'], material: { id: material._id } });
  });

  it('gives a hit in a plain PDF its page', async () => {
    const material = await processed(await makePdf(['Cover page.', 'Phloem sieve tubes carry sugar.']), 'x.pdf');
    const [hit] = await search('phloem sieve');
    expect(hit).toMatchObject({ page: 2, material: { id: material._id } });
  });
});
