import type { DomDocument, DomElement } from './html-dom.ts';

/*
 * What is taken out of a page before its article is looked for. The class and id patterns follow trafilatura's
 * `OVERALL_DISCARD_XPATH` and `REMOVE_COMMENTS_XPATH` (github.com/adbar/trafilatura, trafilatura/xpaths.py,
 * Apache-2.0, by Adrien Barbaresi), written as regular expressions over an element's class and id.
 */

/** Elements that hold the page's furniture, never its article. */
const FURNITURE_TAGS = new Set(['NAV', 'FOOTER', 'ASIDE', 'FORM', 'BUTTON', 'SELECT', 'INPUT', 'TEXTAREA', 'DIALOG']);

/** The elements a class or id can remove: blocks and inline wrappers, not headings or paragraphs of text runs. */
const PRUNABLE_TAGS = new Set(['DIV', 'SECTION', 'SPAN', 'P', 'UL', 'OL', 'LI', 'DL', 'HEADER', 'TABLE', 'FIGURE']);

/**
 * Class or id words of boilerplate: footers, related and "read more" lists, sharing, newsletters, cookie and consent
 * notices, tags, sidebars, banners, menus and navigation, breadcrumbs, bylines and author boxes, ratings, widgets,
 * timestamps, recommendation widgets, paywall notices, comment sections and their forms, embedded posts and players,
 * buttons.
 */
const BOILERPLATE_NAME = new RegExp(
  [
    'footer',
    'related',
    'viral',
    '^shar',
    'share',
    'social',
    'sociable',
    'syndication',
    'newsletter',
    'subnav',
    'cookie',
    'consent',
    'gdpr',
    '\\btags?\\b',
    'tag-?list',
    'tag-?cloud',
    'sidebar',
    'banner',
    'navbar',
    'navbox',
    '^nav',
    'navigation',
    'breadcrumb',
    'bread-crumb',
    '\\bmenu',
    'menu\\b',
    'byline',
    '\\bauthor',
    'rating',
    'widget',
    'timestamp',
    'user-info',
    'user-profile',
    '-ad-',
    '\\bads?\\b',
    'article-infos',
    'infoline',
    'outbrain',
    'taboola',
    'criteo',
    'most-?popular',
    'side-stories',
    'paywall',
    'paid-?content',
    'modal',
    'popup',
    'lightbox',
    '^comments?\\b',
    '^comment-',
    'comment-?list',
    'comments-',
    'article-comments',
    'post-comments',
    'disqus',
    '^respond',
    '^reply-',
    'akismet',
    'embed',
    'button',
    'skip-?link',
    'screen-?reader',
    'sr-only',
    'visually-?hidden',
    'print-?only',
    'noprint',
  ].join('|'),
  'i',
);

/** Inline styles and attributes that hide an element from readers. */
const HIDDEN_STYLE = /display\s*:\s*none|visibility\s*:\s*hidden/i;

/**
 * A block holding this share of the page's prose is where the article is, whatever its class says: pages wrap their
 * article in `class="... sticky-sidebar-parent"`, `tag-*` lists of categories or `elementor-widget`.
 */
const MAX_SHARE_OF_PROSE = 0.25;

/** A run of text this long, outside links, is prose: paragraphs, list items, text between `<br>`s. */
const PROSE_CHARS = 40;

/**
 * Removes from a parsed page what is not its article: navigation, footers, asides and forms; hidden elements; blocks
 * whose class, id or role names boilerplate. A block holding a quarter of the page's prose or more is kept.
 * Returns how many elements were removed.
 */
export function pruneBoilerplate(document: DomDocument): number {
  // The whole document, not `body`: a page with two <body> tags has its text in the second.
  const root = document.documentElement ?? document.body;
  // Scripts and styles first, so that the page's text is what a reader sees.
  for (const code of [...root.querySelectorAll('script, style, template')]) code.remove();
  const prose = proseByElement(root);
  const pageProse = prose.get(root) ?? 0;
  const doomed: DomElement[] = [];
  for (const element of root.querySelectorAll('*')) {
    if (isBoilerplate(element)) doomed.push(element);
  }
  let removed = 0;
  for (const element of doomed) {
    // Document order: an ancestor already gone took this one with it.
    if (!element.isConnected) continue;
    if (pageProse > 0 && (prose.get(element) ?? 0) >= pageProse * MAX_SHARE_OF_PROSE) continue;
    element.remove();
    removed++;
  }
  return removed;
}

/** How many characters of prose each element holds, itself and its descendants. */
function proseByElement(root: DomElement): Map<DomElement, number> {
  const prose = new Map<DomElement, number>();
  for (const element of root.querySelectorAll('*')) {
    if (element.tagName === 'A') continue;
    let own = 0;
    const children = element.childNodes;
    for (let i = 0; i < children.length; i++) {
      const child = children[i]!;
      if (child.nodeType === 3) own += (child.textContent ?? '').replace(/\s+/g, ' ').trim().length;
    }
    if (own < PROSE_CHARS || element.closest('a')) continue;
    for (let el: DomElement | null = element; el; el = el.parentElement) prose.set(el, (prose.get(el) ?? 0) + own);
  }
  return prose;
}

function isBoilerplate(element: DomElement): boolean {
  if (isHidden(element)) return true;
  const tag = element.tagName;
  if (FURNITURE_TAGS.has(tag)) return true;
  if (!PRUNABLE_TAGS.has(tag)) return false;
  const role = element.getAttribute('role');
  if (role && /^(navigation|contentinfo|complementary|banner|dialog|alertdialog|search)$/i.test(role)) return true;
  const names = `${element.getAttribute('class') ?? ''} ${element.getAttribute('id') ?? ''}`.trim();
  return names !== '' && names.split(/\s+/).some((name) => BOILERPLATE_NAME.test(name));
}

function isHidden(element: DomElement): boolean {
  return (
    element.getAttribute('hidden') !== null ||
    element.getAttribute('aria-hidden') === 'true' ||
    HIDDEN_STYLE.test(element.getAttribute('style') ?? '')
  );
}
