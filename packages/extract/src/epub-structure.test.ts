import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEpub } from '@quire/testkit';
import { extractEpub } from './epub.ts';

let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-epub-structure-'));
});
afterAll(() => fs.rm(dir, { recursive: true, force: true }));

/** Markup set inside a chapter's paragraph list: the paragraph before it is closed, the one after it opened. */
const block = (html: string) => `</p>${html}<p>`;

describe('extractEpub: the chapters as the document model', () => {
  it('reads headings, nested lists, a table with a merged cell and a figure with its stored image, in their chapter', async () => {
    const book = await makeEpub(
      [
        {
          title: 'Roots',
          paragraphs: [
            'Roots hold the plant.',
            block(
              '<h2>Kinds</h2><ol><li>Taproot<ul><li>Carrot</li></ul></li><li>Fibrous</li></ol>' +
                '<table><tr><th>Root</th><th>Depth</th></tr><tr><td colspan="2">varies</td></tr></table>',
            ),
          ],
        },
        { title: 'Leaves', paragraphs: ['Leaves catch light.'] },
      ],
      { pictureInChapter: 2 },
    );
    const input = path.join(dir, 'book.epub');
    await fs.writeFile(input, book);
    const outputDir = path.join(dir, 'out');
    await fs.mkdir(outputDir);
    const result = await extractEpub(input, { extractImages: true, outputDir });
    const structured = result.segments.filter((segment) => segment.kind);
    expect(structured).toEqual([
      { chapter: 1, kind: 'heading', level: 1, text: 'Roots' },
      { chapter: 1, kind: 'heading', level: 2, text: 'Kinds' },
      { chapter: 1, kind: 'list-item', level: 1, ordered: true, text: 'Taproot' },
      { chapter: 1, kind: 'list-item', level: 2, ordered: false, text: 'Carrot' },
      { chapter: 1, kind: 'list-item', level: 1, ordered: true, text: 'Fibrous' },
      {
        chapter: 1,
        kind: 'table',
        text: 'Root\tDepth\nvaries',
        rows: [
          [
            { text: 'Root', header: true },
            { text: 'Depth', header: true },
          ],
          [{ text: 'varies', colSpan: 2 }],
        ],
      },
      { chapter: 2, kind: 'heading', level: 1, text: 'Leaves' },
      // The 16 px icon is decoration, not kept; the figure names the file its picture was stored as.
      { chapter: 2, kind: 'figure', text: '', image: result.images[0]!.file },
    ]);
    for (const segment of result.segments) expect(result.text).toContain(segment.text);
  });
});
