import type { Document, Element } from 'domhandler';
import type { TableCell } from '../document.ts';
import type { TextSegment } from '../types.ts';
import { tableElement, tidy } from './elements.ts';
import type { OfficePackage } from './package.ts';
import { attribute, childElements, descendants, firstChild, relationshipId, rootOf, textContent } from './xml.ts';

/** The most categories (rows) a chart's table keeps: a chart of thousands of points is not read as numbers. */
const MAX_CHART_ROWS = 1000;
/** The most series (columns) a chart's table keeps: Excel draws at most 255. */
const MAX_CHART_SERIES = 255;

/**
 * A DrawingML chart part as what a reader sees on it and what it is drawn from: its title as a caption, then its
 * cached data (the `c:cat` and `c:val` caches Office keeps in the chart) as a table, a row per category and a
 * column per series under the series' names. A chart without cached values keeps its series' names as a line.
 */
export function chartSegments(document: Document): TextSegment[] {
  const out: TextSegment[] = [];
  const title = descendants(document, 'title')[0];
  const titleText = title ? tidy(descendants(title, 't').map(textContent).join('')) : '';
  if (titleText) out.push({ kind: 'caption', text: titleText });
  const series = descendants(document, 'ser')
    .slice(0, MAX_CHART_SERIES)
    .map((ser) => {
      const tx = firstChild(ser, 'tx');
      return {
        name: tx ? tidy(descendants(tx, 'v').map(textContent).join(' ')) : '',
        categories: pointsOf(firstChild(ser, 'cat') ?? firstChild(ser, 'xVal')),
        values: pointsOf(firstChild(ser, 'val') ?? firstChild(ser, 'yVal')),
      };
    });
  const table = series.some((s) => s.values.size > 0) ? chartTable(series) : undefined;
  if (table) out.push(table);
  else {
    const names = series.map((s) => s.name).filter(Boolean);
    if (names.length > 0) out.push({ kind: 'paragraph', text: [...new Set(names)].join(', ') });
  }
  return out;
}

interface Series {
  name: string;
  categories: Map<number, string>;
  values: Map<number, string>;
}

function chartTable(series: Series[]): TextSegment | undefined {
  const categories = series.find((s) => s.categories.size > 0)?.categories ?? new Map<number, string>();
  let count = maxIndex(categories) + 1;
  for (const s of series) count = Math.max(count, maxIndex(s.values) + 1);
  count = Math.min(MAX_CHART_ROWS, count);
  const header: TableCell[] = [
    { text: '', header: true },
    ...series.map((s, index) => ({ text: s.name || `Series ${index + 1}`, header: true })),
  ];
  const rows: TableCell[][] = [header];
  for (let index = 0; index < count; index++)
    rows.push([
      { text: categories.get(index) ?? String(index + 1) },
      ...series.map((s) => ({ text: s.values.get(index) ?? '' })),
    ]);
  return tableElement(rows);
}

/** The highest point index (a loop: a chart may cache more points than a spread's arguments may hold). */
function maxIndex(points: Map<number, string>): number {
  let max = -1;
  for (const index of points.keys()) if (index > max) max = index;
  return max;
}

/**
 * A category or value reference's cached points by index (`c:strCache`, `c:numCache`, a multi-level category's
 * levels joined innermost first, or a literal `c:strLit`/`c:numLit`).
 */
function pointsOf(data: Element | undefined): Map<number, string> {
  const points = new Map<number, string>();
  if (!data) return points;
  for (const level of descendants(data, 'lvl').length > 0 ? descendants(data, 'lvl') : [data])
    for (const pt of descendants(level, 'pt')) {
      const index = Number(attribute(pt, 'idx'));
      const value = tidy(childElements(pt, 'v').map(textContent).join(''));
      if (!Number.isInteger(index) || index < 0 || !value) continue;
      const before = points.get(index);
      points.set(index, before ? `${before} ${value}` : value);
    }
  return points;
}

/** A chart part's segments, or none when the part cannot be read. */
export async function chartElements(pkg: OfficePackage, part: string): Promise<TextSegment[]> {
  const document = await pkg.xml(part).catch(() => undefined);
  return document ? chartSegments(document) : [];
}

/**
 * What is drawn on a worksheet (through its drawing part), in the drawing's order: each chart as its alt text,
 * title and data table, each picture as its alt text (a figure without a stored image: a sheet's pictures are
 * not extracted).
 */
export async function sheetCharts(pkg: OfficePackage, sheetPart: string): Promise<TextSegment[]> {
  const out: TextSegment[] = [];
  for (const rel of (await pkg.relationships(sheetPart)).values()) {
    if (rel.type !== 'drawing' || !rel.part) continue;
    const drawing = await pkg.xml(rel.part).catch(() => undefined);
    const root = drawing && rootOf(drawing);
    if (!root) continue;
    const drawingRels = await pkg.relationships(rel.part);
    for (const anchor of childElements(root)) {
      for (const shape of [...descendants(anchor, 'graphicFrame'), ...descendants(anchor, 'pic')]) {
        const alt = tidy(attribute(descendants(shape, 'cNvPr')[0], 'descr') ?? '');
        if (alt) out.push({ kind: 'figure', text: alt });
        for (const chart of descendants(shape, 'chart')) {
          const part = drawingRels.get(relationshipId(chart) ?? '')?.part;
          if (part) out.push(...(await chartElements(pkg, part)));
        }
      }
    }
  }
  return out;
}
