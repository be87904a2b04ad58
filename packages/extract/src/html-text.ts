import { Readability } from '@mozilla/readability';
import { convert, type HtmlToTextOptions } from 'html-to-text';
import { Parser } from 'htmlparser2';
import { parseHTML } from 'linkedom';

const skip = (selector: string) => ({ selector, format: 'skip' });

const READABLE: HtmlToTextOptions = {
  wordwrap: false,
  // Its default cuts pages past 16 MB without a word; the sandbox's time and memory budget is the limit instead.
  limits: { maxInputLength: Number.MAX_SAFE_INTEGER },
  selectors: [
    ...['nav', 'script', 'style', 'noscript', 'template', 'svg', 'img', 'iframe', 'object'].map(skip),
    { selector: 'a', options: { ignoreHref: true } },
    ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({ selector, options: { uppercase: false } })),
    { selector: 'table', format: 'dataTable', options: { uppercaseHeaderCells: false } },
  ],
};

/**
 * Below this many characters Readability's pick is not an article (its own threshold for "found the content"):
 * it has settled for the longest scrap it saw, and the whole page says more than the scrap.
 */
const MIN_ARTICLE_CHARS = 500;

/**
 * The part of the DOM used here. The project compiles without TypeScript's DOM library (it is a Node code base);
 * linkedom supplies these at run time.
 */
interface DomElement {
  readonly tagName: string;
  textContent: string | null;
  readonly parentElement: DomElement | null;
  readonly nextElementSibling: DomElement | null;
  readonly outerHTML: string;
  readonly innerHTML: string;
  readonly childElementCount: number;
  getAttribute(name: string): string | null;
  querySelector(selectors: string): DomElement | null;
  querySelectorAll(selectors: string): Iterable<DomElement>;
  getElementsByTagName(name: string): Iterable<DomElement>;
  closest(selectors: string): DomElement | null;
  contains(other: DomElement): boolean;
  remove(): void;
  before(node: DomElement): void;
}

interface DomDocument {
  createElement(tagName: string): DomElement;
  readonly documentElement: DomElement | null;
  readonly body: DomElement;
  querySelector(selectors: string): DomElement | null;
  querySelectorAll(selectors: string): Iterable<DomElement>;
  getElementsByTagName(name: string): Iterable<DomElement>;
}

const parseDocument = (html: string): DomDocument => parseHTML(html).document as DomDocument;

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
  text: string;
  metadata: HtmlPageMetadata;
}

/**
 * A web page's main content as text, with headings, lists and tables kept as blocks, and what the page says
 * about itself. Readability finds the article; a page it refuses keeps its whole readable text, flagged. Relative
 * links (the canonical URL) resolve against the page's `<base>`, itself against `pageUrl`, where it was fetched.
 */
export function extractHtmlPage(html: string, pageUrl?: string): HtmlPage {
  const { head, article, failure: thrown } = readArticle(html, pageUrl);
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
    const content = parseDocument(`<!doctype html><html><body>${article.content}</body></html>`);
    dropNonText(content, described.author);
    const posts = postsLike(html, content);
    const body = posts ? posts.map((post) => convert(post.outerHTML, READABLE)).join('\n\n') : convert(content.body.innerHTML, READABLE);
    return { text: withHeadline(body, head), metadata: defined({ extraction: 'article', ...described }) };
  }
  const failure = thrown ?? (article ? `the longest block of text found is ${articleChars} characters, under ${MIN_ARTICLE_CHARS}` : 'no block of text was found');
  return { text: wholePageText(html), metadata: defined({ extraction: 'whole-page', fallbackReason: failure, ...described }) };
}

/** Readability's article and what the page says of itself; the document it works on is dropped on return, so a large page is not held twice. */
function readArticle(html: string, pageUrl: string | undefined): { head: PageFacts; article: ReturnType<Readability['parse']>; failure?: string } {
  const document = parseDocument(html);
  // Read before Readability, which rewrites the document as it works.
  const head = pageFacts(document, pageUrl);
  try {
    // Classes kept: they tell which element of the page the article came from (see postsLike).
    return { head, article: new Readability(document, { keepClasses: true }).parse() };
  } catch (err) {
    return { head, article: null, failure: `the article could not be found: ${(err as Error).message}` };
  }
}

/**
 * Every readable part of a page (no navigation elements, scripts, styles or link targets) and its document title:
 * what is kept when no article is found, and an EPUB chapter's text.
 */
export function htmlToText(html: string): { title?: string; text: string } {
  return { title: documentTitle(html), text: wholePageText(html) };
}

function wholePageText(html: string): string {
  return convert(html, READABLE);
}

interface PageFacts {
  lang?: string;
  canonicalUrl?: string;
  publishedAt?: string;
  /** The first top-level heading, which Readability drops from the content when it repeats the title. */
  headline?: string;
  /** A subtitle right under the headline, outside the element Readability takes the article from. */
  subtitle?: string;
}

const DATE_META = ['date', 'dc.date', 'dc.date.issued', 'dcterms.date', 'dcterms.issued', 'citation_publication_date', 'publish-date', 'pubdate'];

/** A subtitle's markup: a heading, or a paragraph whose class says so. */
const SUBTITLE_CLASS = /sub-?title|dek|standfirst|lede|lead|summary|deck|strap|teaser|intro/i;

/** What Readability does not report: the canonical address, a date outside its meta tags, the headline and subtitle. */
function pageFacts(document: DomDocument, pageUrl: string | undefined): PageFacts {
  const base = absoluteUrl(document.querySelector('base[href]')?.getAttribute('href'), pageUrl) ?? pageUrl;
  const canonical = document.querySelector('link[rel~="canonical"][href]')?.getAttribute('href') ?? document.querySelector('meta[property="og:url"][content]')?.getAttribute('content');
  const dateMeta = [...document.querySelectorAll('meta[name][content]')].find((m) => DATE_META.includes(m.getAttribute('name')!.toLowerCase()));
  const dated = document.querySelector('[itemprop="datePublished"]') ?? document.querySelector('article time[datetime], main time[datetime]') ?? document.querySelector('time[datetime]');
  const date = dateMeta?.getAttribute('content') ?? dated?.getAttribute('content') ?? dated?.getAttribute('datetime');
  const h1 = document.querySelector('h1');
  return {
    lang: clean(document.documentElement?.getAttribute('lang')) ?? clean(document.querySelector('meta[http-equiv="content-language" i]')?.getAttribute('content')),
    canonicalUrl: absoluteUrl(canonical, base),
    publishedAt: isoDate(date),
    headline: clean(h1?.textContent),
    subtitle: subtitleAfter(h1),
  };
}

/** The label an ad slot keeps when its ad is not loaded: the whole text of a block. */
const AD_LABEL = /^(advertisement|advertising|ad|sponsored|anzeige|werbung|publicité|publicidad|pubblicità)$/i;

/**
 * Takes out of the article what is not its text: ad-slot labels, the byline and the author's note (short paragraphs
 * at its start or end naming the author, which Readability keeps when the author is also in the page's meta tags)
 * and pull quotes (a quote whose words are already in one of the article's paragraphs).
 */
function dropNonText(content: DomDocument, author: string | undefined): void {
  // html-to-text's table layout has no place for a caption; as a line of its own above the table it stays.
  for (const caption of content.querySelectorAll('table > caption')) {
    const line = content.createElement('p');
    line.textContent = caption.textContent;
    caption.parentElement?.before(line);
    caption.remove();
  }
  for (const block of content.querySelectorAll('p, div, span')) {
    if (block.childElementCount === 0 && AD_LABEL.test(clean(block.textContent) ?? '')) block.remove();
  }
  const paragraphs = [...content.querySelectorAll('p')];
  if (author) {
    const name = author.toLowerCase();
    const edges = new Set([...paragraphs.slice(0, 3), ...paragraphs.slice(-2)]);
    for (const p of edges) {
      const text = clean(p.textContent) ?? '';
      if (text.length <= 200 && text.toLowerCase().includes(name)) p.remove();
    }
  }
  const paragraphTexts = [...content.querySelectorAll('p')].filter((p) => !p.closest('blockquote')).map((p) => clean(p.textContent) ?? '');
  for (const quote of content.querySelectorAll('blockquote, aside')) {
    const text = clean(quote.textContent);
    if (text && text.length >= 20 && paragraphTexts.some((p) => p !== text && p.includes(text))) quote.remove();
  }
}

/**
 * The posts of a thread (questions and answers, forum posts) when Readability picked one of them: the element it
 * took the article from (it keeps its classes) has others of its kind (same tag and classes) in the page, holding
 * text of their own. Undefined for a page with one article body, which is most pages, without parsing it again.
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

function countClass(html: string, kind: string): number {
  const escaped = kind.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return html.match(new RegExp(`class\\s*=\\s*["']?\\s*${escaped}\\s*["'\\s>]`, 'g'))?.length ?? 0;
}

/** The page's own headline when the title is that headline plus the site's or author's name after a separator. */
function headlineOf(title: string | undefined, headline: string | undefined): string | undefined {
  if (!title || !headline || title === headline || !title.startsWith(headline)) return title;
  return /^\s*[|\-–—:·»/]/.test(title.slice(headline.length)) ? headline : title;
}

function subtitleAfter(h1: DomElement | null): string | undefined {
  const next = h1?.nextElementSibling;
  if (!next || !(/^H[2-3]$/.test(next.tagName) || (next.tagName === 'P' && SUBTITLE_CLASS.test(next.getAttribute('class') ?? '')))) return undefined;
  const text = clean(next.textContent);
  return text && text.length >= 30 && text.length <= 400 ? text : undefined;
}

/** Puts the page's headline and subtitle back on top of the article when Readability left them out. */
function withHeadline(text: string, { headline, subtitle }: PageFacts): string {
  const top = [headline, subtitle].filter((line): line is string => line !== undefined && !text.includes(line));
  return top.length > 0 ? `${top.join('\n\n')}\n\n${text}` : text;
}

function absoluteUrl(href: string | null | undefined, base: string | undefined): string | undefined {
  if (!href) return undefined;
  try {
    const url = new URL(href.trim(), base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

function isoDate(value: string | null | undefined): string | undefined {
  const text = clean(value);
  if (!text) return undefined;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** A byline without its leading "By". */
function author(byline: string | null | undefined): string | undefined {
  return clean(byline?.replace(/^\s*(by|von|par|por|di|door)\s+/i, ''));
}

function clean(value: string | null | undefined): string | undefined {
  const text = value?.replace(/\s+/g, ' ').trim();
  return text || undefined;
}

function defined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** The first `<title>` outside embedded SVG/MathML (whose `<title>` elements label icons, not the page). */
export function documentTitle(html: string): string | undefined {
  let foreignDepth = 0;
  let inTitle = false;
  let title: string | undefined;
  const parser = new Parser(
    {
      onopentag(name) {
        if (name === 'svg' || name === 'math') foreignDepth++;
        else if (name === 'title' && foreignDepth === 0 && title === undefined) inTitle = true;
      },
      ontext(text) {
        if (inTitle) title = (title ?? '') + text;
      },
      onclosetag(name) {
        if (name === 'svg' || name === 'math') foreignDepth = Math.max(0, foreignDepth - 1);
        else if (name === 'title' && inTitle) {
          inTitle = false;
          title ??= '';
        }
      },
    },
    { decodeEntities: true },
  );
  parser.end(html);
  return clean(title);
}
