import { clean, type DomDocument, type DomElement } from './html-dom.ts';

export interface PageFacts {
  lang?: string;
  canonicalUrl?: string;
  publishedAt?: string;
  /** The first top-level heading, which Readability drops from the content when it repeats the title. */
  headline?: string;
  /** A subtitle right under the headline, outside the element Readability takes the article from. */
  subtitle?: string;
  /** What the page's meta tags say it is about (its description, Open Graph's, Twitter's; each once); most pages take it from the article's first lines. */
  descriptions: string[];
}

const DATE_META = [
  'date',
  'dc.date',
  'dc.date.issued',
  'dcterms.date',
  'dcterms.issued',
  'citation_publication_date',
  'publish-date',
  'pubdate',
];

/** A subtitle's markup: a heading, or a paragraph whose class says so. */
const SUBTITLE_CLASS = /sub-?title|dek|standfirst|lede|lead|summary|deck|strap|teaser|intro/i;

/** What Readability does not report: the canonical address, a date outside its meta tags, the headline and subtitle. */
export function pageFacts(document: DomDocument, pageUrl: string | undefined): PageFacts {
  const base = absoluteUrl(document.querySelector('base[href]')?.getAttribute('href'), pageUrl) ?? pageUrl;
  const canonical =
    document.querySelector('link[rel~="canonical"][href]')?.getAttribute('href') ??
    document.querySelector('meta[property="og:url"][content]')?.getAttribute('content');
  const dateMeta = [...document.querySelectorAll('meta[name][content]')].find((m) =>
    DATE_META.includes(m.getAttribute('name')!.toLowerCase()),
  );
  const dated =
    document.querySelector('[itemprop="datePublished"]') ??
    document.querySelector('article time[datetime], main time[datetime]') ??
    document.querySelector('time[datetime]');
  const date = dateMeta?.getAttribute('content') ?? dated?.getAttribute('content') ?? dated?.getAttribute('datetime');
  const h1 = document.querySelector('h1');
  return {
    lang:
      clean(document.documentElement?.getAttribute('lang')) ??
      clean(document.querySelector('meta[http-equiv="content-language" i]')?.getAttribute('content')),
    canonicalUrl: absoluteUrl(canonical, base),
    publishedAt: isoDate(date),
    headline: clean(h1?.textContent),
    subtitle: subtitleAfter(h1),
    descriptions: [
      ...new Set(
        ['meta[name="description" i]', 'meta[property="og:description"]', 'meta[name="twitter:description"]']
          .map((selector) => clean(document.querySelector(selector)?.getAttribute('content')))
          .filter((text) => text !== undefined),
      ),
    ],
  };
}

function subtitleAfter(h1: DomElement | null): string | undefined {
  const next = h1?.nextElementSibling;
  if (
    !next ||
    !(/^H[2-3]$/.test(next.tagName) || (next.tagName === 'P' && SUBTITLE_CLASS.test(next.getAttribute('class') ?? '')))
  )
    return undefined;
  const text = clean(next.textContent);
  return text && text.length >= 30 && text.length <= 400 ? text : undefined;
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

export function isoDate(value: string | null | undefined): string | undefined {
  const text = clean(value);
  if (!text) return undefined;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}
