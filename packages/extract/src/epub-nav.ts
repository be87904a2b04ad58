import path from 'node:path';
import { DomUtils, parseDocument } from 'htmlparser2';

export interface NavEntry {
  title: string;
  level: number;
  /** Path inside the book, with its #fragment when the entry points into a chapter. */
  href?: string;
}

type Element = ReturnType<typeof DomUtils.getElementsByTagName>[number];

/**
 * Resolves a reference found in a book file (`../images/a.png#x`) to the path of its entry inside the zip,
 * without fragment or query. Undefined for external and data URLs, which the book does not contain.
 */
export function resolveInBook(fromFile: string, reference: string): string | undefined {
  if (!reference || /^[a-z][a-z0-9+.-]*:/i.test(reference)) return undefined;
  const target = reference.split('#')[0]!.split('?')[0]!;
  if (!target) return bookPath(fromFile);
  return bookPath(path.posix.join(path.posix.dirname(fromFile), target));
}

/** The form every path is compared in: normalised, percent-decoded. */
export function bookPath(file: string): string {
  let decoded = file;
  try {
    decoded = decodeURIComponent(file);
  } catch {
    // a stray % is part of the name
  }
  return path.posix.normalize(decoded).replace(/^\/+/, '');
}

/** The entries of an EPUB 3 navigation document's table of contents (`<nav epub:type="toc">`), in order. */
export function parseNavDocument(xhtml: string, navFile: string): NavEntry[] {
  const document = parseDocument(xhtml);
  const navs = DomUtils.getElementsByTagName('nav', document, true);
  const nav = navs.find((n) => /\btoc\b/.test(n.attribs['epub:type'] ?? '')) ?? navs[0];
  const list = nav && DomUtils.findOne((e) => e.name === 'ol' || e.name === 'ul', nav.children, true);
  const entries: NavEntry[] = [];
  const walk = (items: Element, level: number) => {
    for (const item of items.children.filter(DomUtils.isTag)) {
      if (item.name !== 'li') continue;
      const children = item.children.filter(DomUtils.isTag);
      const label = children.find((c) => c.name === 'a' || c.name === 'span');
      const title = label ? DomUtils.textContent(label).replace(/\s+/g, ' ').trim() : '';
      if (label && title) {
        const href =
          label.name === 'a' && label.attribs.href ? resolveReference(navFile, label.attribs.href) : undefined;
        entries.push({ title, level, ...(href ? { href } : {}) });
      }
      const nested = children.find((c) => c.name === 'ol' || c.name === 'ul');
      if (nested) walk(nested, level + 1);
    }
  };
  if (list) walk(list, 0);
  return entries;
}

function resolveReference(fromFile: string, reference: string): string | undefined {
  const file = resolveInBook(fromFile, reference);
  const fragment = reference.includes('#') ? reference.slice(reference.indexOf('#')) : '';
  return file === undefined ? undefined : file + fragment;
}
