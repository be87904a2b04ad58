import { Readability } from '@mozilla/readability';
import { clean, documentOf, type DomDocument, type DomElement } from './html-dom.ts';

/*
 * A page describes itself in its `<meta name="description">`, and most pages take that description from the
 * article's first lines. When the text Readability found does not hold it but the page does, Readability has left
 * out the article's lead (set above the body, in a block of its own) or taken the wrong block of the page.
 */

/** How much of the description's start is looked for: long enough not to be found by chance, short enough to survive edits of the rest. */
const PROBE_CHARS = 40;
const MIN_PROBE_CHARS = 25;
/** A lead is a paragraph or two; a longer block that holds the description is a part of the page Readability chose not to keep. */
const LEAD_CHARS = 1000;
/** The part of the page around the description that is searched again for the article: several paragraphs' worth. */
const AROUND_CHARS = 1500;

type Article = ReturnType<Readability['parse']>;

/**
 * The start of each description (without the ellipsis of one cut short) that the article's text is expected to hold.
 * Cut mid-word if need be: a prefix of a word is still found in it, and German compounds are long.
 */
export function descriptionProbes(descriptions: string[]): string[] {
  const probes = descriptions.map((description) =>
    description
      .replace(/\s*(?:\.\.\.|…|\[…\]|\[\.\.\.\])$/, '')
      .slice(0, PROBE_CHARS)
      .trim(),
  );
  return [...new Set(probes.filter((probe) => probe.length >= MIN_PROBE_CHARS))];
}

/** Whether `text` holds the probe, its white space read as a reader sees it. */
export function holdsProbe(text: string | null | undefined, probe: string): boolean {
  return (clean(text) ?? '').includes(probe);
}

/** The innermost element of the page whose text holds the probe. */
export function probeHolder(page: DomDocument, probe: string): DomElement | undefined {
  let holder: DomElement | undefined;
  // Document order: an element that holds the probe comes before its descendants that hold it too.
  for (const element of page.body.querySelectorAll('*')) {
    if (holdsProbe(element.textContent, probe)) holder = element;
  }
  return holder;
}

/** The text of the block that holds the description when it is as short as a lead. */
export function leadText(holder: DomElement): string | undefined {
  const text = clean(holder.textContent);
  return text && text.length <= LEAD_CHARS ? text : undefined;
}

/**
 * The article found again in the part of the page around the description, for when Readability chose another block
 * (a login form, a disclosure box); undefined when that part's article does not hold the description either.
 */
export function articleAround(page: DomDocument, holder: DomElement, probe: string): Article {
  let around = holder;
  while (
    (clean(around.textContent) ?? '').length < AROUND_CHARS &&
    around.parentElement &&
    around.parentElement !== page.body
  ) {
    around = around.parentElement;
  }
  const part = documentOf(around.outerHTML);
  const article = new Readability(part, { keepClasses: true }).parse();
  return article && holdsProbe(article.textContent, probe) ? article : null;
}
