import { parseHTML } from 'linkedom';
import { parse, serialize } from 'parse5';

/**
 * The part of the DOM used here. The project compiles without TypeScript's DOM library (it is a Node code base);
 * linkedom supplies these at run time.
 */
/** A node of any kind: an element (nodeType 1) or a run of text (nodeType 3). */
export interface DomNode {
  readonly nodeType: number;
  textContent: string | null;
  remove(): void;
}

export interface DomElement {
  readonly tagName: string;
  readonly childNodes: ArrayLike<DomNode>;
  textContent: string | null;
  readonly parentElement: DomElement | null;
  readonly nextElementSibling: DomElement | null;
  readonly nextSibling: DomNode | null;
  readonly children: ArrayLike<DomElement>;
  readonly outerHTML: string;
  readonly innerHTML: string;
  readonly childElementCount: number;
  readonly isConnected: boolean;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  querySelector(selectors: string): DomElement | null;
  querySelectorAll(selectors: string): Iterable<DomElement>;
  getElementsByTagName(name: string): Iterable<DomElement>;
  closest(selectors: string): DomElement | null;
  contains(other: DomElement): boolean;
  remove(): void;
  before(node: DomElement): void;
}

export interface DomDocument {
  createElement(tagName: string): DomElement;
  readonly documentElement: DomElement | null;
  readonly body: DomElement;
  querySelector(selectors: string): DomElement | null;
  querySelectorAll(selectors: string): Iterable<DomElement>;
  getElementsByTagName(name: string): Iterable<DomElement>;
}

/**
 * The page as a DOM. linkedom builds the tree as the tags are written: a page with a second `<html>` or `<body>` (a
 * post pasted in whole with its own doctype) or with markup before its `<html>` (a server's warnings) gets nested
 * roots, and linkedom's text of it stops at the inner one or is empty. Such a page is first rebuilt as a browser builds
 * it (parse5 follows the HTML standard's tree construction: one `<html>`, `<head>` and `<body>`), then read.
 */
export function parseDocument(html: string): DomDocument {
  const document = parseHTML(html).document as DomDocument;
  const wellFormed =
    count(document, 'body') <= 1 && count(document, 'html') <= 1 && clean(document.body?.textContent) !== undefined;
  if (wellFormed) return document;
  return parseHTML(serialize(parse(html))).document as DomDocument;
}

/** A fragment of a page (an article, a post, a block) as a document of its own, for the rules that work on one. */
export function documentOf(fragment: string): DomDocument {
  return parseDocument(`<!doctype html><html><body>${fragment}</body></html>`);
}

function count(document: DomDocument, tag: string): number {
  let n = 0;
  for (const _ of document.getElementsByTagName(tag)) n++;
  return n;
}

/** Text with its runs of white space collapsed; undefined when nothing is left. */
export function clean(value: string | null | undefined): string | undefined {
  const text = value?.replace(/\s+/g, ' ').trim();
  return text || undefined;
}
