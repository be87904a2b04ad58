import type { TableCell } from './document.ts';

/**
 * A tagged PDF's structure tree (ISO 32000 §14.8: `StructTreeRoot`, the roles H1-H6, P, L/LI, Table/TR/TD...)
 * read into what each piece of a page's text belongs to. The tree is the author's own structure, so where a
 * file carries one, it says what the page's look can only suggest.
 */

/** One element of a page's structure tree, as the engine reads it: its role, marked contents and children. */
export interface StructNode {
  /** The role, after the file's role map (a custom "Heading1" mapped to H1 reads H1). */
  type: string;
  /** The marked-content ids of the page's content this element holds directly. */
  mcids: number[];
  children: StructNode[];
  /** A table cell's spans (its `RowSpan` and `ColSpan` attributes), where more than 1. */
  rowSpan?: number;
  colSpan?: number;
}

export type TaggedKind = 'heading' | 'paragraph' | 'list-item' | 'cell' | 'caption' | 'footnote' | 'code' | 'formula';

/** What a piece of text belongs to: the block it is part of, and that block's kind and place. */
export interface LineTag {
  /** The block (a paragraph, a heading, a list's item, a table's cell) the text is part of, unique on its page. */
  block: number;
  /** The block's place in the tree's order, which is the reading order the author gave. */
  order: number;
  kind: TaggedKind;
  /** A heading's level (H1-H6), or a list item's nesting depth. */
  level?: number;
  /**
   * A cell's table: its rows of cells as the tree has them (empty ones and spans included, text left to fill),
   * shared by all its cells, and where this cell stands in them.
   */
  table?: TableCell[][];
  row?: number;
  column?: number;
}

/** Roles inside a block's text: their text belongs to the block around them. */
const INLINE = new Set([
  'Span',
  'Link',
  'Annot',
  'Reference',
  'Quote',
  'Em',
  'Strong',
  'Sub',
  'BibEntry',
  'Ruby',
  'RB',
  'RT',
  'RP',
  'Warichu',
  'WT',
  'WP',
  'Lbl',
  'LBody',
]);

const HEADING = /^H([1-6])$/;

function kindOf(role: string): { kind: TaggedKind; level?: number } | undefined {
  const numbered = HEADING.exec(role);
  if (numbered) return { kind: 'heading', level: Number(numbered[1]) };
  switch (role) {
    case 'H':
    case 'Title':
      return { kind: 'heading', level: 1 };
    case 'Caption':
      return { kind: 'caption' };
    case 'Note':
    case 'FENote':
    case 'Footnote':
    case 'Endnote':
      return { kind: 'footnote' };
    case 'Code':
      return { kind: 'code' };
    case 'Formula':
      return { kind: 'formula' };
    default:
      return undefined;
  }
}

/**
 * Each marked-content id of the page's tree with the block it belongs to: a list's item (nested lists deeper),
 * a table's cell (by row and column), or the innermost element that is not inline (a heading, a paragraph).
 * A heading inside a list's item is a heading (a numbered heading is often tagged as a list).
 *
 * An element whose text runs on over a page break lists its marked contents on both pages, and the engine
 * does not say which page each is on; ids number the content of each page from 0, so such an element's ids
 * fall back where its page changes, and there it only takes ids no other element of the page holds.
 */
export function tagsByMarkedContent(roots: StructNode[]): Map<number, LineTag> {
  const found = new Map<number, LineTag>();
  /** Elements whose content runs over a page break, with their ids on every page. */
  const spanning: { ids: number[]; tag: LineTag }[] = [];
  let blocks = 0;
  const block = (kind: TaggedKind, fields: Omit<LineTag, 'block' | 'order' | 'kind'> = {}): LineTag => ({
    block: ++blocks,
    order: blocks,
    kind,
    ...fields,
  });

  const visitTable = (table: StructNode, lists: number) => {
    const rows: TableCell[][] = [];
    const rowsOf = (group: StructNode) => {
      for (const child of group.children) {
        if (child.type === 'TR') {
          const cells: TableCell[] = [];
          for (const place of child.children) {
            const cell: TableCell = {
              text: '',
              ...(place.type === 'TH' ? { header: true } : {}),
              ...(place.rowSpan ? { rowSpan: place.rowSpan } : {}),
              ...(place.colSpan ? { colSpan: place.colSpan } : {}),
            };
            visit(place, block('cell', { table: rows, row: rows.length, column: cells.length }), lists);
            cells.push(cell);
          }
          rows.push(cells);
        } else if (child.type === 'THead' || child.type === 'TBody' || child.type === 'TFoot') rowsOf(child);
        else visit(child, undefined, lists);
      }
    };
    rowsOf(table);
  };

  const visit = (node: StructNode, around: LineTag | undefined, lists: number): void => {
    const role = node.type;
    if (role === 'Table') return visitTable(node, lists);
    const known = kindOf(role);
    let tag = around;
    // Whatever a cell holds is the cell's text.
    if (around?.kind === 'cell') tag = around;
    else if (role === 'LI') tag = block('list-item', { level: lists });
    else if (known?.kind === 'heading') tag = block('heading', { level: known.level! });
    else if (around?.kind === 'list-item') tag = around;
    // A heading's paragraphs are its text (Impress tags a slide's title as H holding a P).
    else if (around?.kind === 'heading' && !known) tag = around;
    else if (!INLINE.has(role) || !around) tag = block(known?.kind ?? 'paragraph');
    const ids = node.mcids.filter((id) => id >= 0);
    // Ids that fall back mark a move to another page: that element's ids claim only what no other element on
    // the page does.
    if (ids.some((id, i) => i > 0 && id < ids[i - 1]!)) spanning.push({ ids, tag: tag! });
    else for (const id of ids) if (!found.has(id)) found.set(id, tag!);
    for (const child of node.children) visit(child, tag, role === 'L' ? lists + 1 : lists);
  };
  for (const root of roots) visit(root, undefined, 0);
  for (const { ids, tag } of spanning) for (const id of ids) if (!found.has(id)) found.set(id, tag);
  return found;
}
