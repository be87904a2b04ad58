import type { Element } from 'domhandler';
import type { TableCell } from '../document.ts';
import { ExtractError, type ExtractOptions, type ExtractResult, type TextSegment } from '../types.ts';
import { chartElements } from './charts.ts';
import { resultOf, tableElement, tidy } from './elements.ts';
import { FigureImages } from './images.ts';
import type { OfficePackage, Relationship } from './package.ts';
import {
  attribute,
  childElements,
  descendants,
  firstChild,
  localName,
  pathOf,
  relationshipId,
  rootOf,
  textContent,
} from './xml.ts';

/** Where a shape stands on its slide, in EMU. */
interface Point {
  x: number;
  y: number;
}

/** Maps a grouped shape's coordinates to the slide's. */
type Transform = (point: Point) => Point;
const identity: Transform = (point) => point;

interface Placed {
  at: Point;
  title: boolean;
  elements: TextSegment[];
}

interface Placeholder {
  type: string;
  idx?: string;
}

const TITLE_TYPES = new Set(['title', 'ctrTitle']);
/** Placeholders whose paragraphs are bullets unless they say otherwise (the master's body style). */
const BULLETED_TYPES = new Set(['body', 'obj']);
const NOWHERE: Point = { x: Number.MAX_SAFE_INTEGER, y: Number.MAX_SAFE_INTEGER };

/** A PowerPoint deck (PPTX, PPSX, POTX) as the document model, slide by slide, speaker notes after each slide. */
export async function readPptx(pkg: OfficePackage, options: ExtractOptions): Promise<ExtractResult> {
  const main = await pkg.mainPart('ppt/presentation.xml');
  const presentation = await pkg.xml(main);
  const root = presentation && rootOf(presentation);
  if (!root) throw new ExtractError('CORRUPT', 'The presentation has no ppt/presentation.xml');
  const rels = await pkg.relationships(main);
  const slideParts = childElements(firstChild(root, 'sldIdLst') ?? root, 'sldId')
    .map((sldId) => rels.get(relationshipId(sldId) ?? ''))
    .filter((rel): rel is Relationship & { part: string } => Boolean(rel?.part && pkg.has(rel.part)))
    .map((rel) => rel.part);

  const figures = new FigureImages(options.extractImages);
  const reader = new SlideReader(pkg, figures);
  const elements: TextSegment[] = [];
  const hiddenSlides: number[] = [];
  for (const [index, part] of slideParts.entries()) {
    const slide = index + 1;
    const { elements: slideElements, hidden } = await reader.slide(part, slide);
    if (hidden) hiddenSlides.push(slide);
    elements.push(...slideElements.map((element) => ({ ...element, slide, ...(hidden ? { hidden } : {}) })));
    options.onProgress?.(Math.round((slide / slideParts.length) * 90));
  }
  const result = resultOf(elements, {
    format: 'pptx',
    slideCount: slideParts.length,
    ...(hiddenSlides.length > 0 ? { hiddenSlides } : {}),
  });
  options.onText?.(result);
  result.images = await figures.save(pkg, options);
  result.segments = result.segments.filter((segment) => segment.text !== '' || segment.image);
  return result;
}

class SlideReader {
  private readonly placeholderPositions = new Map<string, Map<string, Point>>();

  constructor(
    private readonly pkg: OfficePackage,
    private readonly figures: FigureImages,
  ) {}

  async slide(part: string, slide: number): Promise<{ elements: TextSegment[]; hidden: boolean }> {
    const document = await this.pkg.xml(part);
    const root = document && rootOf(document);
    const tree = pathOf(root, 'cSld', 'spTree');
    if (!root || !tree) return { elements: [], hidden: false };
    const rels = await this.pkg.relationships(part);
    const layout = [...rels.values()].find((rel) => rel.type === 'slideLayout')?.part;
    const inherited = layout ? await this.placeholdersOf(layout) : new Map<string, Point>();
    const context: ShapeContext = { rels, inherited, slide };
    const placed: Placed[] = [];
    await this.shapes(tree, identity, context, placed);
    placed.sort((a, b) => Number(b.title) - Number(a.title) || a.at.y - b.at.y || a.at.x - b.at.x);
    const elements = placed.flatMap((item) => item.elements);

    const notesPart = [...rels.values()].find((rel) => rel.type === 'notesSlide')?.part;
    const notes = notesPart ? await this.notes(notesPart) : '';
    if (notes) elements.push({ kind: 'notes', text: notes });
    return { elements, hidden: attribute(root, 'show') === '0' || attribute(root, 'show') === 'false' };
  }

  private async shapes(tree: Element, transform: Transform, context: ShapeContext, placed: Placed[]): Promise<void> {
    for (const shape of childElements(tree)) {
      switch (localName(shape)) {
        case 'sp': {
          const placeholder = placeholderOf(shape);
          const at = positionOf(pathOf(shape, 'spPr', 'xfrm'), transform) ?? inheritedPosition(placeholder, context);
          const title = placeholder !== undefined && TITLE_TYPES.has(placeholder.type);
          const body = firstChild(shape, 'txBody');
          if (!body) break;
          const bulleted = placeholder !== undefined && BULLETED_TYPES.has(placeholder.type);
          placed.push({ at, title, elements: title ? titleOf(body) : paragraphsOf(body, bulleted) });
          break;
        }
        case 'grpSp': {
          const xfrm = pathOf(shape, 'grpSpPr', 'xfrm');
          await this.shapes(shape, groupTransform(xfrm, transform), context, placed);
          break;
        }
        case 'graphicFrame': {
          const at = positionOf(firstChild(shape, 'xfrm'), transform) ?? NOWHERE;
          const data = pathOf(shape, 'graphic', 'graphicData');
          if (!data) break;
          const table = firstChild(data, 'tbl');
          if (table) {
            const element = tableOf(table);
            if (element) placed.push({ at, title: false, elements: [element] });
          }
          const chart = firstChild(data, 'chart');
          const chartPart = chart && context.rels.get(relationshipId(chart) ?? '')?.part;
          if (chartPart) placed.push({ at, title: false, elements: await chartElements(this.pkg, chartPart) });
          break;
        }
        case 'pic': {
          const at = positionOf(pathOf(shape, 'spPr', 'xfrm'), transform) ?? NOWHERE;
          const blip = descendants(shape, 'blip')[0];
          const part = blip && context.rels.get(relationshipId(blip, 'embed') ?? '')?.part;
          const alt = attribute(pathOf(shape, 'nvPicPr', 'cNvPr'), 'descr') ?? '';
          placed.push({ at, title: false, elements: [this.figures.figure(part, alt, { slide: context.slide })] });
          break;
        }
        case 'AlternateContent':
          await this.shapes(firstChild(shape, 'Choice') ?? shape, transform, context, placed);
          break;
        default:
      }
    }
  }

  private async notes(part: string): Promise<string> {
    const document = await this.pkg.xml(part).catch(() => undefined);
    const tree = document && pathOf(rootOf(document), 'cSld', 'spTree');
    if (!tree) return '';
    return tidy(
      descendants(tree, 'sp')
        .filter((shape) => placeholderOf(shape)?.type === 'body')
        .flatMap((shape) => paragraphsOf(firstChild(shape, 'txBody')!, false))
        .map((element) => element.text)
        .join('\n'),
    );
  }

  /** Where the layout (or its master) puts each placeholder, by type and by index, for slides that inherit it. */
  private async placeholdersOf(part: string, depth = 0): Promise<Map<string, Point>> {
    const known = this.placeholderPositions.get(part);
    if (known) return known;
    const positions = new Map<string, Point>();
    this.placeholderPositions.set(part, positions);
    const document = await this.pkg.xml(part).catch(() => undefined);
    const tree = document && pathOf(rootOf(document), 'cSld', 'spTree');
    if (depth === 0) {
      const master = [...(await this.pkg.relationships(part)).values()].find((rel) => rel.type === 'slideMaster')?.part;
      if (master) for (const [key, at] of await this.placeholdersOf(master, 1)) positions.set(key, at);
    }
    for (const shape of tree ? descendants(tree, 'sp') : []) {
      const placeholder = placeholderOf(shape);
      const at = positionOf(pathOf(shape, 'spPr', 'xfrm'), identity);
      if (!placeholder || !at) continue;
      positions.set(`type:${placeholder.type}`, at);
      if (placeholder.idx) positions.set(`idx:${placeholder.idx}`, at);
    }
    return positions;
  }
}

interface ShapeContext {
  rels: Map<string, Relationship>;
  inherited: Map<string, Point>;
  slide: number;
}

function placeholderOf(shape: Element): Placeholder | undefined {
  const ph = pathOf(shape, 'nvSpPr', 'nvPr', 'ph');
  if (!ph) return undefined;
  const idx = attribute(ph, 'idx');
  return { type: attribute(ph, 'type') ?? 'obj', ...(idx ? { idx } : {}) };
}

function inheritedPosition(placeholder: Placeholder | undefined, context: ShapeContext): Point {
  if (!placeholder) return NOWHERE;
  return (
    (placeholder.idx ? context.inherited.get(`idx:${placeholder.idx}`) : undefined) ??
    context.inherited.get(`type:${placeholder.type}`) ??
    (placeholder.type === 'obj' ? context.inherited.get('type:body') : undefined) ??
    NOWHERE
  );
}

function positionOf(xfrm: Element | undefined, transform: Transform): Point | undefined {
  const off = xfrm && firstChild(xfrm, 'off');
  if (!off) return undefined;
  return transform({ x: Number(attribute(off, 'x') ?? 0) || 0, y: Number(attribute(off, 'y') ?? 0) || 0 });
}

/** A group's children are laid out in its own space (chOff, chExt), scaled onto where the group stands (off, ext). */
function groupTransform(xfrm: Element | undefined, outer: Transform): Transform {
  if (!xfrm) return outer;
  const read = (name: string, a: string, b: string) => {
    const element = firstChild(xfrm, name);
    return [Number(attribute(element, a) ?? 0) || 0, Number(attribute(element, b) ?? 0) || 0] as const;
  };
  const [offX, offY] = read('off', 'x', 'y');
  const [extX, extY] = read('ext', 'cx', 'cy');
  const [childX, childY] = read('chOff', 'x', 'y');
  const [childExtX, childExtY] = read('chExt', 'cx', 'cy');
  const scaleX = childExtX > 0 ? extX / childExtX : 1;
  const scaleY = childExtY > 0 ? extY / childExtY : 1;
  return (point) => outer({ x: offX + (point.x - childX) * scaleX, y: offY + (point.y - childY) * scaleY });
}

function titleOf(body: Element): TextSegment[] {
  const text = tidy(
    childElements(body, 'p')
      .map(paragraphText)
      .filter((line) => line.trim())
      .join(' '),
  );
  return text ? [{ kind: 'heading', level: 1, text }] : [];
}

function paragraphsOf(body: Element, bulleted: boolean): TextSegment[] {
  const out: TextSegment[] = [];
  for (const p of childElements(body, 'p')) {
    const text = tidy(paragraphText(p));
    if (!text) continue;
    const pPr = firstChild(p, 'pPr');
    const level = Number(attribute(pPr, 'lvl') ?? 0) + 1;
    const numbered = Boolean(pPr && firstChild(pPr, 'buAutoNum'));
    const marked = numbered || Boolean(pPr && (firstChild(pPr, 'buChar') ?? firstChild(pPr, 'buBlip')));
    const unmarked = Boolean(pPr && firstChild(pPr, 'buNone'));
    if (marked || (bulleted && !unmarked))
      out.push({ kind: 'list-item', level: Math.min(9, level), ordered: numbered, text });
    else out.push({ kind: 'paragraph', text });
  }
  return out;
}

function paragraphText(p: Element): string {
  let text = '';
  for (const child of childElements(p)) {
    const name = localName(child);
    if (name === 'r' || name === 'fld') text += descendants(child, 't').map(textContent).join('');
    else if (name === 'br') text += '\n';
  }
  return text;
}

function tableOf(tbl: Element): TextSegment | undefined {
  const header = attribute(firstChild(tbl, 'tblPr'), 'firstRow') === '1';
  const rows: TableCell[][] = childElements(tbl, 'tr').map((tr, rowIndex) =>
    childElements(tr, 'tc')
      .filter((tc) => attribute(tc, 'hMerge') !== '1' && attribute(tc, 'vMerge') !== '1')
      .map((tc) => {
        const body = firstChild(tc, 'txBody');
        const text = body ? tidy(childElements(body, 'p').map(paragraphText).join('\n')) : '';
        const colSpan = Number(attribute(tc, 'gridSpan') ?? 1) || 1;
        const rowSpan = Number(attribute(tc, 'rowSpan') ?? 1) || 1;
        return {
          text,
          ...(header && rowIndex === 0 ? { header: true } : {}),
          ...(colSpan > 1 ? { colSpan } : {}),
          ...(rowSpan > 1 ? { rowSpan } : {}),
        };
      }),
  );
  return tableElement(rows);
}
