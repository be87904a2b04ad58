import { parseHTML } from 'linkedom';

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

export const parseDocument = (html: string): DomDocument => parseHTML(html).document as DomDocument;

/** Text with its runs of white space collapsed; undefined when nothing is left. */
export function clean(value: string | null | undefined): string | undefined {
  const text = value?.replace(/\s+/g, ' ').trim();
  return text || undefined;
}
