import { DomUtils, parseDocument } from 'htmlparser2';

const OPF_NAMESPACE = 'http://www.idpf.org/2007/opf';

/**
 * The package document with its OPF elements unprefixed: `<opf:package xmlns:opf="…">` is valid XML and
 * the same book as `<package xmlns="…">`, but epub2 looks for the unprefixed names and finds an empty manifest.
 */
export function withoutOpfPrefix(xml: string): string {
  const escaped = OPF_NAMESPACE.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const prefix = new RegExp(`xmlns:([\\w.-]+)\\s*=\\s*["']${escaped}["']`).exec(xml)?.[1];
  if (!prefix) return xml;
  return xml.replace(new RegExp(`<(/?)${prefix}:`, 'g'), '<$1');
}

/**
 * The text a page draws with SVG `<text>` (fixed-layout books, converted comics and scans), one line per
 * element, its `<tspan>`s joined. HTML-to-text skips SVG as a whole, since its `<title>`s label pictures.
 */
export function svgTextOf(html: string): string {
  if (!/<(\w+:)?svg\b/i.test(html)) return '';
  const document = parseDocument(html, { xmlMode: false, decodeEntities: true });
  const isSvg = (name: string) => name === 'svg' || name.endsWith(':svg');
  const isText = (name: string) => name === 'text' || name.endsWith(':text');
  const lines: string[] = [];
  for (const svg of DomUtils.findAll((e) => isSvg(e.name), document.children)) {
    for (const text of DomUtils.findAll((e) => isText(e.name), svg.children)) {
      const line = DomUtils.textContent(text).replace(/\s+/g, ' ').trim();
      if (line) lines.push(line);
    }
  }
  return lines.join('\n');
}
