import { clean, documentOf, parseDocument, type DomDocument, type DomElement } from './html-dom.ts';

/*
 * Readability scores blocks and keeps the best with the neighbours it scored; on pages whose article is a run of
 * paragraphs directly in one container, with a boxed block among them (a FAQ, a recipe card), it can settle for the
 * box and leave the paragraphs out. Trafilatura keeps the whole main container (github.com/adbar/trafilatura,
 * main_extractor.py, Apache-2.0, by Adrien Barbaresi); here, when the block Readability took has more prose beside it
 * than in it, the block it sits in is the article.
 */

/** The block Readability took holds this share of its article's text. */
const CONTAINER_SHARE = 0.6;
/** How many blocks up from the one Readability took the article's container is looked for. */
const LEVELS = 3;
/** A paragraph of prose: at least this long... */
const PROSE_CHARS = 80;
/** ...and at most this share of it links. */
const MAX_LINK_SHARE = 0.25;

const textOf = (element: DomElement) => clean(element.textContent) ?? '';

/**
 * The container of Readability's article (`content`) in the page it was found in (`page`, the page without its
 * furniture), when that container's direct paragraphs of prose beside the article hold at least as much text as the
 * article itself; undefined otherwise, which is most pages.
 */
export function widerArticle(content: DomDocument, page: string): DomDocument | undefined {
  const articleText = textOf(content.body);
  let longest = '';
  for (const p of content.querySelectorAll('p')) {
    const text = textOf(p);
    if (text.length > longest.length) longest = text;
  }
  if (longest.length < PROSE_CHARS) return undefined;
  const document = parseDocument(page);
  // Readability turns runs of text between <br>s into paragraphs and rewrites inline markup: the paragraph is found
  // in the page by the run of text it starts with.
  const start = longest.slice(0, 30);
  let container: DomElement | null | undefined = [...document.querySelectorAll('*')].find((element) =>
    Array.from(element.childNodes).some(
      (node) => node.nodeType === 3 && (clean(node.textContent) ?? '').includes(start),
    ),
  );
  while (container && textOf(container).length < articleText.length * CONTAINER_SHARE) {
    container = container.parentElement;
  }
  for (let level = 0; container && level < LEVELS; level++) {
    const parent: DomElement | null = container.parentElement;
    // A page's own <body> is the whole page, not a container; a <body> nested in the page's content is a container.
    if (!parent || parent === document.body || parent === document.documentElement) return undefined;
    if (proseBeside(parent, container, articleText) >= articleText.length) return wrapped(parent);
    container = parent;
  }
  return undefined;
}

/** The text of the paragraphs of prose directly in `parent`, beside `container`, that the article does not hold. */
function proseBeside(parent: DomElement, container: DomElement, articleText: string): number {
  let beside = 0;
  let paragraphs = 0;
  for (const sibling of Array.from(parent.children)) {
    if (sibling === container || sibling.tagName !== 'P') continue;
    const text = textOf(sibling);
    const linked = [...sibling.querySelectorAll('a')].reduce((sum, a) => sum + textOf(a).length, 0);
    if (text.length < PROSE_CHARS || linked > text.length * MAX_LINK_SHARE || articleText.includes(text)) continue;
    beside += text.length;
    paragraphs++;
  }
  return paragraphs >= 2 ? beside : 0;
}

function wrapped(element: DomElement): DomDocument {
  return documentOf(element.outerHTML);
}
