import { clean, type DomDocument, type DomElement } from './html-dom.ts';

/*
 * Rules for what Readability keeps around an article's text, after trafilatura's `link_density_test` in
 * main_extractor.py (github.com/adbar/trafilatura, Apache-2.0, by Adrien Barbaresi): a short block that is mostly
 * link text is a list of links to other pages ("Read more: ...", tag lists, related articles), not the article.
 */

const textOf = (element: DomElement) => clean(element.textContent) ?? '';

/** Blocks made mostly of links: removed when short enough that they cannot be the article's own text. */
export function dropLinkLists(content: DomDocument): void {
  for (const block of [...content.querySelectorAll('p, li, ul, ol, dl, div, table, section')]) {
    if (!block.isConnected) continue;
    const links = [...block.querySelectorAll('a')].map(textOf).filter((t) => t.length > 0);
    if (links.length === 0) continue;
    const text = textOf(block);
    const linked = links.reduce((sum, t) => sum + t.length, 0);
    const last = block.nextElementSibling === null;
    if (block.tagName === 'P') {
      const limit = last ? 60 : 30;
      if (text.length < limit && linked > 0.8 * text.length) block.remove();
      // "Read more: <a>Another article</a>": a short line that is mostly a link and not a sentence.
      else if (text.length < 120 && linked > 0.6 * text.length && !SENTENCE.test(text)) block.remove();
      continue;
    }
    const limit = last ? 300 : 100;
    if (text.length >= limit) {
      // A long block of links: a list of other articles, whatever its length.
      if (links.length >= 3 && linked > 0.8 * text.length) block.remove();
      continue;
    }
    const short = links.filter((t) => t.length < 10).length;
    if (linked > 0.8 * text.length || (links.length > 1 && short / links.length > 0.8)) block.remove();
  }
}

/** A block that is only a date or a time, in the numeric and spelled forms pages use. */
const MONTHS =
  'jan(uary|uar)?|feb(ruary|ruar)?|m(ar(ch)?|ärz|aerz)|apr(il)?|ma[iy]|june?|juni|july?|juli|aug(ust)?|sep(t(ember)?)?|o[ck]t(ober)?|nov(ember)?|de[cz](ember)?|janvier|février|mars|avril|mai|juin|juillet|août|septembre|octobre|novembre|décembre|enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|octubre|noviembre|diciembre' +
  '|gennaio|febbraio|aprile|maggio|giugno|luglio|settembre|ottobre|dicembre|janeiro|fevereiro|março|maio|junho|julho|setembro|outubro|dezembro' +
  '|stycznia|lutego|marca|kwietnia|maja|czerwca|lipca|sierpnia|września|października|listopada|grudnia';
const DATE = new RegExp(
  `\\b\\d{1,2}\\.\\s?\\d{1,2}\\.\\s?\\d{2,4}\\b|\\b\\d{4}-\\d{2}-\\d{2}\\b|\\b\\d{1,2}/\\d{1,2}/\\d{2,4}\\b|\\b\\d{1,2}\\.?\\s+(${MONTHS})\\.?\\s+\\d{4}\\b|\\b(${MONTHS})\\.?\\s+\\d{1,2},?\\s+\\d{4}\\b|\\b\\d{1,2}\\s+de\\s+(${MONTHS})\\s+de\\s+\\d{4}\\b|\\b\\d{1,2}:\\d{2}\\b`,
  'i',
);
/** A byline or the reading time above an article. */
const BYLINE =
  /^(by|von|par|por|di|door|av|af|autor(in)?|author|text|written by)\b|\bmin(ute)?s?\.? (read|lesezeit|de lecture)\b|\blesezeit\b|\breading time\b/i;
/** A photo credit or a source line: a name after "Photo:", "Bild:", "©"... */
const CREDIT =
  /^(\(?(foto|fotos|bild|bilder|photo|photos|photograph|image|credit|crédits? photos?|quelle|source|źródło|fuente|fonte|grafik|illustration)\s*:)|©|\(c\)\s|\b(foto|bild|photo)\s*:\s*\S/i;
/** A prompt to do something with the article, not part of it: share, comment, rate, subscribe, print, go back. */
const PROMPT =
  /\b(share|teilen|partager|compartir|condividi|udostępnij|tweet|newsletter|abonnieren|subscribe|sign up|anmelden|kommentar(e|en)?|comments?|bewerten|rate this|drucken|print|imprimir|drukuj|zurück|back to top|nach oben|weiterlesen|read more|mehr zum thema|auch interessant|related|empfohlen|recommended|lesen sie (auch|hier)|czytaj (też|także)|dowiedz się więcej|tags?|schlagwörter|stichwörter|kategorien|categories|filed under|posted in|veröffentlicht|published|aktualisiert|updated)\b/i;

/**
 * A picture's caption that carries its credit: "Striking members of the union last year. Photograph: Guy Smallman/Getty
 * Images", "… (REUTERS/Denis Balibouse)", "… (crédito: Minervino Júnior)". Captions sit above, inside and below the
 * text, and the credit is at their end or after a label, so they are found by it wherever they are.
 */
const CAPTION_CREDIT =
  /\b(foto|fotos|bild|bilder|photo|photos|photograph|imagen|crédito|credit)\s*:\s*\S|(^|\()(quelle|source|źródło|fuente|fonte)\s*:\s*\S|\b(getty ?images|istock(photo)?(\.com)?|shutterstock|fotolia(\.com)?|adobe ?stock|imago|picture.alliance|reuters|afp|dpa|ap photo|keystone|wenn\.com)\b(\s*\/\s*[^()/]{1,40})?\)?\s*$/i;
/** Captions are short; a longer block with such words in it is text. */
const CAPTION_CHARS = 250;

/**
 * A line inside the text that points to another article: "Read more: ...", "Lesen Sie auch: ...", "Czytaj też: ...".
 * The label and its colon, so that a sentence that starts with the same words is not taken for one.
 */
const READ_ALSO =
  /^\W{0,3}(read more|read also|also read|see also|lesen sie (auch|hier|mehr)|mehr zum thema|auch interessant|czytaj (też|także|również)|zobacz (też|także|również)|puedes ver|lee también|leer también|leia também|veja também|à lire aussi|lire aussi|leggi anche)\s*[:>»]/i;
/** Such a line names one article: a title, not a paragraph. */
const READ_ALSO_CHARS = 200;

/** Takes out the lines inside the text that point to other articles (see READ_ALSO), wherever they are. */
export function dropReadAlso(content: DomDocument): void {
  for (const block of leafBlocks(content)) {
    const text = textOf(block);
    if (text.length <= READ_ALSO_CHARS && READ_ALSO.test(text)) block.remove();
  }
}

/** Takes out captions that carry a picture credit (see CAPTION_CREDIT), wherever they are in the article. */
export function dropCreditedCaptions(content: DomDocument): void {
  for (const block of leafBlocks(content)) {
    const text = textOf(block);
    if (text.length > 0 && text.length <= CAPTION_CHARS && CAPTION_CREDIT.test(text)) block.remove();
  }
}

/** A line that ends as a sentence does: the article's own last words, not a prompt or a label. */
const SENTENCE = /[.!?…]["“”»«')]?$/;

/** Text blocks, innermost: the units a reader sees as lines or paragraphs. */
const BLOCKS =
  'p, div, li, h1, h2, h3, h4, h5, h6, blockquote, figcaption, address, dt, dd, td, span, time, section, header';

/** A long paragraph that is mostly not links: the article's own text, which the edges are trimmed towards. */
const PROSE_CHARS = 100;
/** Blocks at the edges longer than this are kept whatever they say. */
const EDGE_CHARS = 120;

/**
 * Trims the article's edges: before its first paragraph of prose, dates, bylines and reading times; after its last,
 * short lines that are dates, prompts to share, comment, subscribe or read more, and credits; anywhere, short credit
 * lines under pictures. Headings are kept at the top (they are the title and subtitle).
 */
export function trimEdges(content: DomDocument): void {
  const blocks = leafBlocks(content);
  const prose = blocks.map((b) => {
    const text = textOf(b);
    if (text.length < PROSE_CHARS) return false;
    const linked = [...b.querySelectorAll('a')].reduce((sum, a) => sum + textOf(a).length, 0);
    return linked * 2 < text.length;
  });
  const first = prose.indexOf(true);
  const last = prose.lastIndexOf(true);
  if (first < 0) return;
  blocks.forEach((block, i) => {
    const text = textOf(block);
    if (text.length === 0 || text.length > EDGE_CHARS || prose[i]) return;
    const heading = /^H[1-6]$/.test(block.tagName);
    if (i < first && !heading && (DATE.test(text) || BYLINE.test(text))) block.remove();
    else if (
      i > last &&
      !SENTENCE.test(text) &&
      (DATE.test(text) ||
        PROMPT.test(text) ||
        CREDIT.test(text) ||
        /:$/.test(text) ||
        (text.length < 60 && !['LI', 'TD', 'DD', 'DT'].includes(block.tagName)))
    )
      block.remove();
    else if (CREDIT.test(text) && text.length <= 80) block.remove();
  });
}

function leafBlocks(content: DomDocument): DomElement[] {
  const all = [...content.body.querySelectorAll(BLOCKS)];
  return all.filter((block) => block.querySelector(BLOCKS) === null);
}

/**
 * A line that opens what follows an article, not a part of it: suggestions of other articles ("You may also like",
 * "Mehr zum Thema") and the comment section ("24 comments", "Leave a reply"). The whole line, so that "Related: <a
 * link>" inside the text, which the link rules judge, is not taken for one. Inline "read also" prompts are left out:
 * the article goes on after them.
 */
const TAIL_HEADING = new RegExp(
  '^(?:' +
    [
      'das (?:könnte|dürfte) (?:sie|dich) auch interessieren',
      'auch interessant',
      'mehr zu(?:m thema)?',
      'weitere (?:artikel|beiträge|themen|nachrichten)',
      'ähnliche (?:artikel|beiträge)',
      'in den schlagzeilen',
      'related(?: articles| posts| stories| content)?',
      'you (?:may|might) also (?:like|enjoy)',
      'more (?:from|stories|articles)',
      'veja também',
      'leia também',
      'te puede interesar',
      '\\d* ?(?:kommentare|comments?|responses|replies)',
      'leave a (?:reply|comment)',
      'verwandte (?:beiträge|artikel|themen(?:bereiche)?)',
      'zum weiterlesen',
      'schon gelesen\\??',
      'à lire aussi',
      'sur le même sujet',
      'dans la même rubrique',
      'noticias relacionadas',
      'leggi anche',
      'potrebbe interessarti',
      '(?:czytaj|zobacz) (?:też|także|również)',
      'read next',
      'recommended(?: for you)?',
      'most (?:read|popular)',
      'popular posts',
      'recent posts',
      'more on this (?:topic|story)',
      '(?:schreibe|hinterlasse) einen kommentar',
    ].join('|') +
    ')\\s*[:!.…]*$',
  'i',
);
/** A tail heading is only trusted in the second half of the article: a "Related" box or "Comments" link higher up sits inside it. */
const TAIL_AFTER_SHARE = 0.5;

/** Ends the article at a line that opens the page's tail (see TAIL_HEADING): that line and everything after it go. */
export function cutAtTail(content: DomDocument): void {
  const blocks = leafBlocks(content);
  const total = blocks.reduce((sum, b) => sum + textOf(b).length, 0);
  let above = 0;
  for (const block of blocks) {
    const text = textOf(block);
    const line = wholeLine(block, content.body);
    if (
      above >= total * TAIL_AFTER_SHARE &&
      text.length <= 50 &&
      TAIL_HEADING.test(text) &&
      // A link or a button's label ("Comments" on a counter) is not the start of a section.
      !block.closest('a') &&
      !line.closest('a') &&
      !['SPAN', 'LI', 'TD', 'DD', 'TIME'].includes(line.tagName)
    ) {
      removeFrom(line, content.body);
      return;
    }
    above += text.length;
  }
}

/** The outermost element holding nothing but `block`'s text: the heading around the `<span>` that holds its words. */
function wholeLine(block: DomElement, root: DomElement): DomElement {
  const text = textOf(block);
  let line = block;
  while (line.parentElement && line.parentElement !== root && textOf(line.parentElement) === text) {
    line = line.parentElement;
  }
  return line;
}

/** `element`, and everything after it in the document, up to the end of `root`. */
function removeFrom(element: DomElement, root: DomElement): void {
  for (let node: DomElement | null = element; node && node !== root; node = node.parentElement) {
    while (node.nextSibling) node.nextSibling.remove();
  }
  element.remove();
}
