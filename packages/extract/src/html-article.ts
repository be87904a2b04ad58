import { Readability } from '@mozilla/readability';
import { clean, documentOf, parseDocument, type DomDocument, type DomElement } from './html-dom.ts';
import { isoDate, pageFacts, type PageFacts } from './html-facts.ts';
import { widerArticle } from './html-container.ts';
import { articleAround, descriptionProbes, holdsProbe, leadText, probeHolder } from './html-lead.ts';
import { pruneBoilerplate } from './html-prune.ts';
import { pageShape, streamedText } from './html-stream.ts';
import { cutAtTail, dropCreditedCaptions, dropLinkLists, dropReadAlso, trimEdges } from './html-tidy.ts';
import { paragraphsOf, plainTextOf } from './document.ts';
import { htmlElements, keepHeadingLevels } from './html-elements.ts';
import { documentTitle } from './html-text.ts';
import type { TextSegment } from './types.ts';

/**
 * Below this many characters Readability's pick is not an article (its own threshold for "found the content"):
 * it has settled for the longest scrap it saw, and the whole page says more than the scrap.
 */
const MIN_ARTICLE_CHARS = 500;

/**
 * Pages past either limit are not parsed into a DOM: the DOM libraries recurse through the tree (100,000 nested
 * `<div>`s overflow the stack) and Readability's work grows faster than the page (a flat megabyte of 87,000 elements
 * took 10 s here). Their text is read from the stream of tags instead, in time linear in their size, flagged as the
 * whole page. Real pages are far under both: the largest of trafilatura's 990 evaluation pages has 10,000 elements.
 */
const MAX_DEPTH = 256;
const MAX_ELEMENTS = 50_000;

export interface HtmlPageMetadata {
  /** `article`: the main content only; `whole-page`: no article was found, so every readable part of the page is kept. */
  extraction: 'article' | 'whole-page';
  /** Why the whole page was kept, when it was. */
  fallbackReason?: string;
  title?: string;
  lang?: string;
  canonicalUrl?: string;
  siteName?: string;
  author?: string;
  /** ISO 8601 when the page's date could be read as one. */
  publishedAt?: string;
  excerpt?: string;
}

export interface HtmlPage {
  /** The elements' text (`plainTextOf`). */
  text: string;
  /** The content as the document model: headings, lists, tables, figures, code and paragraphs. */
  elements: TextSegment[];
  metadata: HtmlPageMetadata;
}

/**
 * A web page's main content as text, with headings, lists and tables kept as blocks, and what the page says
 * about itself. Readability finds the article; a page it refuses keeps its whole readable text, flagged. Relative
 * links (the canonical URL) resolve against the page's `<base>`, itself against `pageUrl`, where it was fetched.
 */
export function extractHtmlPage(html: string, pageUrl?: string): HtmlPage {
  const { elements, deepest } = pageShape(html);
  if (deepest > MAX_DEPTH || elements > MAX_ELEMENTS) {
    const { text, lang } = streamedText(html);
    const fallbackReason =
      deepest > MAX_DEPTH
        ? `the page nests ${deepest} elements deep, more than the ${MAX_DEPTH} searched for an article`
        : `the page has ${elements} elements, more than the ${MAX_ELEMENTS} searched for an article`;
    return withText(
      paragraphsOf(text),
      defined({ extraction: 'whole-page', fallbackReason, title: documentTitle(html), lang }),
    );
  }
  const { head, article, pruned, failure: thrown } = readArticle(html, pageUrl);
  const described = {
    title: headlineOf(clean(article?.title), head.headline) ?? documentTitle(html),
    lang: head.lang ?? clean(article?.lang),
    canonicalUrl: head.canonicalUrl,
    siteName: clean(article?.siteName),
    author: author(article?.byline),
    publishedAt: isoDate(article?.publishedTime) ?? head.publishedAt,
    excerpt: clean(article?.excerpt),
  };
  const articleChars = article?.textContent?.trim().length ?? 0;
  if (article?.content && articleChars >= MIN_ARTICLE_CHARS) {
    const found = documentOf(article.content);
    const content = (pruned && widerArticle(found, pruned)) || found;
    tidyArticle(content, described.author);
    // The posts are found in the page without its furniture, and each is tidied as the article is.
    const posts = postsLike(pruned ?? html, content);
    const body = posts
      ? posts.flatMap((post) => htmlElements(tidiedPost(post, described.author).body))
      : htmlElements(content.body);
    const lead = leadLeftOut(plainTextOf(body), head, html, pruned);
    const elements = withHeadline(lead ? [...paragraphsOf(lead), ...body] : body, head);
    return withText(elements, defined({ extraction: 'article', ...described }));
  }
  const failure =
    thrown ??
    (article
      ? `the longest block of text found is ${articleChars} characters, under ${MIN_ARTICLE_CHARS}`
      : 'no block of text was found');
  return withText(
    htmlElements(parseDocument(pruned ?? html).body),
    defined({ extraction: 'whole-page', fallbackReason: failure, ...described }),
  );
}

function withText(elements: TextSegment[], metadata: HtmlPageMetadata): HtmlPage {
  return { text: plainTextOf(elements), elements, metadata };
}

/** Readability's article and what the page says of itself; the document it works on is dropped on return, so a large page is not held twice. */
function readArticle(
  html: string,
  pageUrl: string | undefined,
): { head: PageFacts; article: ReturnType<Readability['parse']>; pruned?: string; failure?: string } {
  const document = parseDocument(html);
  // Read before Readability, which rewrites the document as it works.
  const head = pageFacts(document, pageUrl);
  keepHeadingLevels(document);
  pruneBoilerplate(document);
  // Readability rewrites the document as it works; the page without its furniture is what is kept if it finds nothing.
  const pruned = document.documentElement?.outerHTML;
  try {
    // Classes kept: they tell which element of the page the article came from (see postsLike).
    const article = new Readability(document, { keepClasses: true }).parse();
    const around = pruned && articleByDescription(article, head, pruned);
    if (around)
      return {
        head,
        pruned,
        article: { ...around, ...article, content: around.content, textContent: around.textContent },
      };
    if ((article?.textContent?.trim().length ?? 0) >= MIN_ARTICLE_CHARS) return { head, pruned, article };
    // The furniture rules took the article with them (a post inside a block named like a widget): the page as it is.
    const page = parseDocument(html);
    keepHeadingLevels(page);
    const unpruned = new Readability(page, { keepClasses: true }).parse();
    const found = (unpruned?.textContent?.trim().length ?? 0) >= MIN_ARTICLE_CHARS;
    return { head, pruned, article: found ? unpruned : article };
  } catch (err) {
    return { head, pruned, article: null, failure: `the article could not be found: ${(err as Error).message}` };
  }
}

/**
 * The article found again around the page's description, when Readability's article does not hold the description and
 * the page does: it took another block of the page. Undefined when that does not find a long enough article either.
 */
function articleByDescription(
  article: ReturnType<Readability['parse']>,
  head: PageFacts,
  pruned: string,
): ReturnType<Readability['parse']> | undefined {
  const probes = descriptionProbes(head.descriptions);
  if (probes.length === 0 || probes.some((probe) => holdsProbe(article?.textContent, probe))) return undefined;
  const page = parseDocument(pruned);
  for (const probe of probes) {
    const holder = probeHolder(page, probe);
    const around = holder && articleAround(page, holder, probe);
    if (around && (around.textContent?.trim().length ?? 0) >= MIN_ARTICLE_CHARS) return around;
  }
  return undefined;
}

/**
 * The page's lead, when the article's text does not hold the page's description and a block as short as a lead does:
 * looked for in the page without its furniture, then in the whole page (a lead set in a block named like a teaser or
 * an excerpt is taken for furniture).
 */
function leadLeftOut(body: string, head: PageFacts, html: string, pruned: string | undefined): string | undefined {
  const probes = descriptionProbes(head.descriptions);
  if (probes.length === 0 || probes.some((probe) => holdsProbe(body, probe))) return undefined;
  const pages = [() => (pruned ? parseDocument(pruned) : undefined), () => withoutCode(parseDocument(html))];
  for (const page of pages) {
    const document = page();
    if (!document) continue;
    for (const probe of probes) {
      const holder = probeHolder(document, probe);
      const lead = holder && leadText(holder);
      if (lead) return lead;
    }
  }
  return undefined;
}

function withoutCode(document: DomDocument): DomDocument {
  for (const code of [...document.querySelectorAll('script, style, noscript, template, title')]) code.remove();
  return document;
}

/** The label an ad slot keeps when its ad is not loaded: the whole text of a block. */
const AD_LABEL = /^(advertisement|advertising|ad|sponsored|anzeige|werbung|publicité|publicidad|pubblicità)$/i;

/**
 * Takes out of Readability's article what is not its text: ad-slot labels, the byline and the author's note (short
 * paragraphs at its start or end naming the author, which Readability keeps when the author is also in the page's
 * meta tags) and pull quotes (a quote whose words are already in one of the article's paragraphs).
 */
function tidyArticle(content: DomDocument, author: string | undefined): void {
  for (const block of content.querySelectorAll('p, div, span')) {
    if (block.childElementCount === 0 && AD_LABEL.test(clean(block.textContent) ?? '')) block.remove();
  }
  cutAtTail(content);
  dropCreditedCaptions(content);
  dropReadAlso(content);
  dropLinkLists(content);
  trimEdges(content);
  const paragraphs = [...content.querySelectorAll('p')];
  if (author) {
    const name = author.toLowerCase();
    const edges = new Set([...paragraphs.slice(0, 3), ...paragraphs.slice(-2)]);
    for (const p of edges) {
      const text = clean(p.textContent) ?? '';
      if (text.length <= 200 && text.toLowerCase().includes(name)) p.remove();
    }
  }
  const paragraphTexts = [...content.querySelectorAll('p')]
    .filter((p) => !p.closest('blockquote'))
    .map((p) => clean(p.textContent) ?? '');
  for (const quote of content.querySelectorAll('blockquote, aside')) {
    const text = clean(quote.textContent);
    if (text && text.length >= 20 && paragraphTexts.some((p) => p !== text && p.includes(text))) quote.remove();
  }
}

/**
 * The posts of a thread (questions and answers, forum posts) when Readability picked one of them: the element it
 * took the article from (it keeps its classes) has others of its kind (same tag and classes) in `html`, the page
 * without its furniture, holding text of their own. Undefined for a page with one article body, which is most pages,
 * without parsing it again.
 */
function postsLike(html: string, content: DomDocument): DomElement[] | undefined {
  const articleChars = (clean(content.body.textContent) ?? '').length;
  let longest: DomElement | undefined;
  let longestChars = 0;
  for (const p of content.querySelectorAll('p')) {
    const chars = p.textContent?.length ?? 0;
    if (chars > longestChars) [longest, longestChars] = [p, chars];
  }
  let container = longest?.parentElement;
  while (container && (container.textContent?.length ?? 0) < articleChars * 0.6) container = container.parentElement;
  const kind = container?.getAttribute('class')?.trim();
  if (!container || !kind || countClass(html, kind) < 2) return undefined;
  // Readability has moved and rewritten its copy of the page; the others are found in a fresh one.
  const posts: DomElement[] = [];
  // In document order, so a post nested in another follows it.
  for (const el of parseDocument(html).getElementsByTagName(container.tagName.toLowerCase())) {
    if (el.getAttribute('class')?.trim() !== kind || posts.at(-1)?.contains(el)) continue;
    if ((clean(el.textContent) ?? '').length >= 80) posts.push(el);
  }
  return posts.length >= 2 ? posts : undefined;
}

function tidiedPost(post: DomElement, author: string | undefined): DomDocument {
  const document = documentOf(post.outerHTML);
  tidyArticle(document, author);
  return document;
}

function countClass(html: string, kind: string): number {
  const escaped = kind.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return html.match(new RegExp(`class\\s*=\\s*["']?\\s*${escaped}\\s*["'\\s>]`, 'g'))?.length ?? 0;
}

/** The page's own headline when the title is that headline plus the site's or author's name after a separator. */
function headlineOf(title: string | undefined, headline: string | undefined): string | undefined {
  if (!title || !headline || title === headline || !title.startsWith(headline)) return title;
  return /^\s*[|\-–—:·»/]/.test(title.slice(headline.length)) ? headline : title;
}

/** Puts the page's headline (as its title) and subtitle back on top of the article when Readability left them out. */
function withHeadline(elements: TextSegment[], { headline, subtitle }: PageFacts): TextSegment[] {
  const text = plainTextOf(elements);
  const top: TextSegment[] = [];
  if (headline !== undefined && !text.includes(headline)) top.push({ kind: 'title', text: headline });
  if (subtitle !== undefined && !text.includes(subtitle)) top.push({ text: subtitle });
  return [...top, ...elements];
}

/** A byline without its leading "By". */
function author(byline: string | null | undefined): string | undefined {
  return clean(byline?.replace(/^\s*(by|von|par|por|di|door)\s+/i, ''));
}

function defined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
