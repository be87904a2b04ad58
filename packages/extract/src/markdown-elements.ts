import { DomUtils, parseDocument } from 'htmlparser2';
import { Lexer, type Token, type Tokens } from 'marked';
import type { TableCell } from './document.ts';
import type { TextSegment } from './types.ts';
import { normalizeText } from './words.ts';

/** A Markdown file by its name or its declared type (sniffing sees only text). */
export function isMarkdownFile(fileName: string | undefined, mimeType: string | undefined): boolean {
  const type = (mimeType ?? '').split(';')[0]!.trim().toLowerCase();
  return (
    type === 'text/markdown' || type === 'text/x-markdown' || /\.(md|markdown|mdown|mkd|mkdn)$/i.test(fileName ?? '')
  );
}

/** Text with its character references decoded (`&amp;` is `&`), which marked leaves for its HTML renderer. */
const decoded = (text: string) => (text.includes('&') ? DomUtils.textContent(parseDocument(text)) : text);

/** The words of inline Markdown: emphasis, links and code spans as their text; raw HTML tags and images left out. */
function inlineText(tokens: Token[] | undefined): string {
  let text = '';
  for (const token of tokens ?? []) {
    switch (token.type) {
      case 'br':
        text += '\n';
        break;
      case 'image':
      case 'html':
        break;
      case 'escape':
      case 'codespan':
        text += token.text;
        break;
      default:
        text +=
          'tokens' in token && token.tokens
            ? inlineText(token.tokens)
            : decoded('text' in token ? String(token.text) : '');
    }
  }
  return text;
}

const cellOf = (cell: Tokens.TableCell, header: boolean): TableCell => ({
  text: normalizeText(inlineText(cell.tokens).replace(/\n/g, ' ')),
  ...(header ? { header: true } : {}),
});

/** The document model of a Markdown file, read by marked's lexer (CommonMark with GFM tables). */
export function markdownElements(markdown: string): TextSegment[] {
  const elements: TextSegment[] = [];
  const blocks = (tokens: Token[], list?: { level: number; ordered: boolean }) => {
    for (const token of tokens) {
      switch (token.type) {
        case 'heading': {
          const text = normalizeText(inlineText(token.tokens).replace(/\n/g, ' '));
          if (text) elements.push({ kind: 'heading', level: token.depth, text });
          break;
        }
        case 'list': {
          const { ordered, start } = token as Tokens.List;
          for (const [index, item] of (token as Tokens.List).items.entries()) {
            const level = (list?.level ?? 0) + 1;
            // CommonMark numbers a list from its first item's number on, whatever the next items' markers say.
            const number = ordered && typeof start === 'number' ? start + index : undefined;
            const own = item.tokens.filter((t) => t.type === 'text' || t.type === 'paragraph');
            const text = normalizeText(
              own.map((t) => inlineText('tokens' in t && t.tokens ? t.tokens : [t])).join('\n'),
            );
            if (text)
              elements.push({ kind: 'list-item', level, ordered, ...(number !== undefined ? { number } : {}), text });
            blocks(
              item.tokens.filter((t) => !own.includes(t)),
              { level, ordered },
            );
          }
          break;
        }
        case 'table': {
          const table = token as Tokens.Table;
          const rows = [
            table.header.map((cell) => cellOf(cell, true)),
            ...table.rows.map((row) => row.map((cell) => cellOf(cell, false))),
          ];
          elements.push({
            kind: 'table',
            text: rows.map((row) => row.map((cell) => cell.text).join('\t')).join('\n'),
            rows,
          });
          break;
        }
        case 'code': {
          const text = token.text.replace(/\s+$/, '');
          const language = (token as Tokens.Code).lang?.split(/\s/)[0];
          if (text.trim()) elements.push({ kind: 'code', text, ...(language ? { language } : {}) });
          break;
        }
        case 'blockquote':
          blocks(token.tokens ?? [], list);
          break;
        case 'paragraph':
        case 'text': {
          const text = normalizeText(inlineText(token.tokens ?? [token]));
          if (text) elements.push({ text });
          break;
        }
        case 'html': {
          const text = normalizeText(DomUtils.textContent(parseDocument(token.text)));
          if (text) elements.push({ text });
          break;
        }
        default:
          // Spaces, thematic breaks and link definitions carry no text.
          break;
      }
    }
  };
  blocks(new Lexer({ gfm: true }).lex(markdown));
  return elements;
}
