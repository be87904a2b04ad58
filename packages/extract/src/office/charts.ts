import type { TextSegment } from '../types.ts';
import { tidy } from './elements.ts';
import type { OfficePackage } from './package.ts';
import { descendants, firstChild, relationshipId, rootOf, textContent } from './xml.ts';

/** A chart's title and its series' names (a DrawingML chart part): what a reader sees written on it. */
export async function chartElements(pkg: OfficePackage, part: string): Promise<TextSegment[]> {
  const document = await pkg.xml(part).catch(() => undefined);
  if (!document) return [];
  const out: TextSegment[] = [];
  const title = descendants(document, 'title')[0];
  const titleText = title ? tidy(descendants(title, 't').map(textContent).join('')) : '';
  if (titleText) out.push({ kind: 'caption', text: titleText });
  const names = descendants(document, 'ser')
    .map((series) => {
      const tx = firstChild(series, 'tx');
      return tx ? tidy(descendants(tx, 'v').map(textContent).join(' ')) : '';
    })
    .filter(Boolean);
  if (names.length > 0) out.push({ kind: 'paragraph', text: [...new Set(names)].join(', ') });
  return out;
}

/** The charts drawn on a worksheet (through its drawing part), in the drawing's order. */
export async function sheetCharts(pkg: OfficePackage, sheetPart: string): Promise<TextSegment[]> {
  const out: TextSegment[] = [];
  for (const rel of (await pkg.relationships(sheetPart)).values()) {
    if (rel.type !== 'drawing' || !rel.part) continue;
    const drawing = await pkg.xml(rel.part).catch(() => undefined);
    const root = drawing && rootOf(drawing);
    if (!root) continue;
    const drawingRels = await pkg.relationships(rel.part);
    for (const chart of descendants(root, 'chart')) {
      const part = drawingRels.get(relationshipId(chart) ?? '')?.part;
      if (part) out.push(...(await chartElements(pkg, part)));
    }
  }
  return out;
}
