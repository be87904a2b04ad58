import type { Document, Element } from 'domhandler';
import { parseDocument } from 'htmlparser2';

/**
 * Parses an office part. htmlparser2 in XML mode decodes only the XML's own character references: a DTD's
 * entities are never expanded (an entity bomb stays a few bytes of text) and nothing it names is fetched.
 */
export function parseXml(bytes: Buffer | string): Document {
  return parseDocument(typeof bytes === 'string' ? bytes : bytes.toString('utf8'), {
    xmlMode: true,
    decodeEntities: true,
  });
}

/** An element's name without its namespace prefix: `w:p` is `p`, whatever prefix the file bound. */
export const localName = (element: Element) => element.name.slice(element.name.indexOf(':') + 1);

export const isElement = (node: unknown): node is Element =>
  typeof node === 'object' && node !== null && (node as Element).type === 'tag';

/** The element children, those with the local name given when one is. */
export function childElements(parent: Element | Document, name?: string): Element[] {
  const out: Element[] = [];
  for (const node of parent.children)
    if (isElement(node) && (name === undefined || localName(node) === name)) out.push(node);
  return out;
}

export const firstChild = (parent: Element | Document, name: string): Element | undefined =>
  childElements(parent, name)[0];

/** The first element down a path of local names. */
export function pathOf(parent: Element | Document | undefined, ...names: string[]): Element | undefined {
  let at = parent;
  for (const name of names) at = at && firstChild(at, name);
  return at as Element | undefined;
}

/** Every element below `parent` with the local name, in document order. */
export function descendants(parent: Element | Document, name: string): Element[] {
  const out: Element[] = [];
  const walk = (node: Element | Document) => {
    for (const child of node.children) {
      if (!isElement(child)) continue;
      if (localName(child) === name) out.push(child);
      walk(child);
    }
  };
  walk(parent);
  return out;
}

/** An attribute by its local name (`w:val` is `val`). */
export function attribute(element: Element | undefined, name: string): string | undefined {
  if (!element) return undefined;
  const direct = element.attribs[name];
  if (direct !== undefined) return direct;
  for (const [key, value] of Object.entries(element.attribs))
    if (key.slice(key.indexOf(':') + 1) === name) return value;
  return undefined;
}

/** The root element of a parsed part. */
export const rootOf = (document: Document): Element | undefined => childElements(document)[0];

/** All the character data below an element. */
export function textContent(element: Element): string {
  let out = '';
  for (const node of element.children) {
    if (node.type === 'text') out += (node as unknown as { data: string }).data;
    else if (isElement(node)) out += textContent(node);
  }
  return out;
}

/** The relationship id an element points with (`r:id`, `r:embed`), never the element's own `id`. */
export function relationshipId(element: Element | undefined, name = 'id'): string | undefined {
  if (!element) return undefined;
  for (const [key, value] of Object.entries(element.attribs))
    if (key.includes(':') && key.slice(key.indexOf(':') + 1) === name) return value;
  return undefined;
}
