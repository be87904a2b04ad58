import type { ExtractResult } from '../types.ts';
import { workbookResult, MAX_CELLS_PER_SHEET, type SheetCut } from './xlsx.ts';

/** A CSV or TSV file as one sheet, its rows a table (RFC 4180 quoting; the delimiter the sniffer found). */
export function readDelimited(bytes: Buffer, format: 'csv' | 'tsv'): ExtractResult {
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  const delimiter = format === 'tsv' ? '\t' : delimiterOf(text);
  const cells = new Map<number, Map<number, string>>();
  let count = 0;
  let cut: SheetCut | undefined;
  let row = 0;
  let column = 0;
  let field = '';
  let quoted = false;
  const endField = () => {
    const value = field.trim();
    if (value && !cut) {
      if (++count > MAX_CELLS_PER_SHEET) cut = 'maxCellsPerSheet';
      else {
        let line = cells.get(row);
        if (!line) cells.set(row, (line = new Map()));
        line.set(column, value);
      }
    }
    field = '';
    column++;
  };
  for (let i = 0; i < text.length && !cut; i++) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"' && field.trim() === '') quoted = true;
    else if (char === delimiter) endField();
    else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[i + 1] === '\n') i++;
      endField();
      row++;
      column = 0;
    } else field += char;
  }
  if (field || column > 0) endField();
  return workbookResult([{ name: '', hidden: false, cells, ...(cut ? { cut } : {}) }], format);
}

function delimiterOf(text: string): string {
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  return firstLine.split(';').length > firstLine.split(',').length ? ';' : ',';
}
