import type { Document, Element } from 'domhandler';
import { isElement, parseXml } from '../../packages/extract/src/office/xml.ts';

/**
 * The text of a flat OpenDocument file (`.fodt`, `.fodp`, `.fods`) as LibreOffice wrote it from its own document
 * model: the office bench's reference for "text against LibreOffice's own reading". What is taken, by kind:
 *
 * - every paragraph and heading of the body (`text:p`, `text:h`), so list items, table cells, frames and text
 *   boxes, footnotes and endnotes, a slide's shapes and tables, and a sheet's cells;
 * - a slide's speaker notes (`presentation:notes`), hidden slides included;
 * - a text document's headers and footers (`style:header`/`style:footer` and their first-page and left-page
 *   variants in the master pages), each distinct text once; not a deck's or a sheet's master pages, which hold
 *   layout placeholders ("Click to add Title") and Calc's default "Sheet1" / "Page 1" print decorations;
 * - a sheet's name (`table:name`), what its tab shows;
 * - a picture's or shape's title and description (`svg:title`, `svg:desc`: alt text);
 * - an embedded chart's title, subtitle, axis titles and its data table (categories, series names, values);
 * - an embedded formula's MathML tokens (not its StarMath annotation).
 *
 * Left out: comments (`office:annotation`), tracked deletions (`text:tracked-changes`), a note's citation mark,
 * field declarations, a deck's footer/date declarations, styles, settings, metadata, and embedded binary data.
 */
/** The element children with the qualified name given (flat ODF files use the standard prefixes). */
const named = (parent: Element | Document, name?: string): Element[] =>
  parent.children.filter((node): node is Element => isElement(node) && (name === undefined || node.name === name));

export function flatOdfText(xml: string): string {
  const document = parseXml(xml);
  const root = named(document)[0];
  if (!root) return '';
  const out: string[] = [];
  const body = named(root, 'office:body')[0];
  const isText = Boolean(body && named(body, 'office:text')[0]);
  if (isText) {
    const masters = named(root, 'office:master-styles')[0];
    const seen = new Set<string>();
    for (const page of masters ? named(masters, 'style:master-page') : [])
      for (const part of named(page))
        if (HEADER_FOOTER.has(part.name)) {
          const text = collect(part).trim();
          if (text && !seen.has(text)) {
            seen.add(text);
            out.push(text);
          }
        }
  }
  if (body) out.push(collect(body));
  return out.join('\n');
}

const HEADER_FOOTER = new Set([
  'style:header',
  'style:footer',
  'style:header-first',
  'style:footer-first',
  'style:header-left',
  'style:footer-left',
]);

/** Subtrees that are not the document's text. */
const SKIPPED = new Set([
  'office:binary-data',
  'office:annotation',
  'office:annotation-end',
  'text:tracked-changes',
  'text:note-citation',
  'text:sequence-decls',
  'text:variable-decls',
  'text:user-field-decls',
  'text:dde-connection-decls',
  'presentation:header-decl',
  'presentation:footer-decl',
  'presentation:date-time-decl',
  'math:annotation',
  'math:annotation-xml',
  'office:automatic-styles',
  'office:styles',
  'office:font-face-decls',
  'office:settings',
  'office:meta',
  'office:scripts',
  'office:forms',
  'table:named-expressions',
  'table:database-ranges',
  'table:content-validations',
]);

/** Elements that end a block of text (a word never runs across them). */
const BLOCKS = new Set([
  'text:p',
  'text:h',
  'text:list-item',
  'table:table-cell',
  'table:covered-table-cell',
  'table:table-row',
  'draw:frame',
  'draw:text-box',
  'text:note-body',
  'presentation:notes',
  'draw:page',
  'svg:title',
  'svg:desc',
  'math:mi',
  'math:mn',
  'math:mo',
  'math:mtext',
]);

function collect(node: Element | Document): string {
  let out = '';
  const walk = (parent: Element | Document) => {
    for (const child of parent.children) {
      if (child.type === 'text') {
        out += (child as unknown as { data: string }).data;
        continue;
      }
      if (!isElement(child) || SKIPPED.has(child.name)) continue;
      // A chart's data cells carry the sheet ranges they were drawn from as a description: LibreOffice's own.
      if (child.name === 'draw:g' && (parent as Element).name === 'table:table-cell') continue;
      switch (child.name) {
        case 'text:s':
          out += ' ';
          continue;
        case 'text:tab':
          out += '\t';
          continue;
        case 'text:line-break':
          out += '\n';
          continue;
        case 'table:table': {
          const name = child.attribs['table:name'];
          // A sheet's name is what its tab shows; a chart's own data table is named "local-table".
          if (name && name !== 'local-table' && isSheet(child)) out += `\n${name}\n`;
          break;
        }
        default:
      }
      const block = BLOCKS.has(child.name);
      if (block) out += '\n';
      walk(child);
      if (block) out += '\n';
    }
  };
  walk(node);
  return out;
}

const isSheet = (table: Element) => (table.parent as Element | null)?.name === 'office:spreadsheet';
