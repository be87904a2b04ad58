import { Readable } from 'node:stream';
import { createInterface } from 'node:readline';
import { MarkdownWriter, paragraphsOf, type TextSegment } from '@quire/extract';
import type { Material, StoredTextSegment } from '@quire/material';
import type { ApiContext } from '../context.ts';
import { activeMaterial } from './material-text.service.ts';

/** The lines of a stream, one at a time. */
const linesOf = (stream: Readable) => createInterface({ input: stream, crlfDelay: Infinity });

/** The stored segments, one at a time; without them, the text's paragraphs. */
async function* elementsOf(ctx: ApiContext, material: Material): AsyncGenerator<StoredTextSegment | TextSegment> {
  const { metadata } = material;
  if (metadata.segmentsKey) {
    for await (const line of linesOf(await ctx.store.get(metadata.segmentsKey))) {
      if (line.trim()) yield JSON.parse(line) as StoredTextSegment;
    }
    return;
  }
  if (!metadata.textKey) {
    yield* paragraphsOf(metadata.extractedText ?? '');
    return;
  }
  let paragraph: string[] = [];
  for await (const line of linesOf(await ctx.store.get(metadata.textKey))) {
    if (line.trim()) paragraph.push(line);
    else if (paragraph.length > 0) {
      yield { text: paragraph.join('\n') };
      paragraph = [];
    }
  }
  if (paragraph.length > 0) yield { text: paragraph.join('\n') };
}

/** The signed URL of each stored image, by its `id` (what a figure's `image` names). */
async function imageUrls(ctx: ApiContext, material: Material): Promise<Map<string, string>> {
  const urls = new Map<string, string>();
  for (const image of material.metadata.images ?? []) urls.set(image.id, await ctx.signUrl(image.s3Key));
  return urls;
}

async function* markdownOf(ctx: ApiContext, material: Material): AsyncGenerator<string> {
  const urls = await imageUrls(ctx, material);
  const writer = new MarkdownWriter({ imageUrl: (id) => urls.get(id) });
  let table: { end: number } | undefined;
  for await (const element of elementsOf(ctx, material)) {
    const offset = 'offset' in element ? element.offset : undefined;
    // A table longer than a segment is stored as several: its first has the rows, which render all of it.
    if (element.kind === 'table' && !element.rows && table && offset === table.end) {
      table.end += element.text.length;
      continue;
    }
    table = element.kind === 'table' && offset !== undefined ? { end: offset + element.text.length } : undefined;
    const markdown = writer.write(element);
    if (markdown) yield markdown;
  }
  const end = writer.end();
  if (end) yield end;
}

/**
 * The whole document as CommonMark with GFM tables, streamed one element at a time: headings, lists, tables,
 * code and figures (linked to their images' signed URLs) from the stored segments, page and slide changes as
 * HTML comments; a material without stored segments as its text's paragraphs.
 */
export async function openMarkdown(ctx: ApiContext, organizationId: string, id: string): Promise<Readable> {
  const material = await activeMaterial(ctx, organizationId, id);
  return Readable.from(markdownOf(ctx, material), { objectMode: false });
}
