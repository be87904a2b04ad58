import { Tokenizer, type TokenizerCallbacks } from 'htmlparser2';
import { clean } from './html-dom.ts';

/*
 * A page read as a flat stream of tags, with a stack kept by push and pop: no tree, no recursion, time linear in the
 * page's size however deep it nests. (htmlparser2's own Parser keeps its stack with `unshift`, which makes 100,000
 * nested elements take minutes.)
 */

const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);
/** Elements a sibling of the same kind closes without a closing tag: `<p>a<p>b`, `<li>a<li>b`. */
const SELF_ENDING = new Set(['p', 'li', 'dt', 'dd', 'option', 'tr', 'td', 'th']);
/** How far down the stack a closing tag looks for its element: farther, it is a stray tag and is ignored. */
const CLOSE_SEARCH = 16;

/** Elements whose text a reader never sees, or that hold only a site's navigation. */
const SKIPPED = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'math',
  'nav',
  'head',
  'iframe',
  'object',
  // Ruby annotations: the readings set above characters, not the sentence's text.
  'rt',
  'rp',
]);

/** Elements that end a line of text. */
const BLOCK = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'br',
  'dd',
  'div',
  'dl',
  'dt',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'li',
  'main',
  'ol',
  'p',
  'pre',
  'section',
  'table',
  'td',
  'th',
  'title',
  'tr',
  'ul',
]);

interface StreamEvents {
  open(name: string, depth: number): void;
  close(name: string): void;
  text(text: string): void;
  attribute?(element: string, name: string, value: string): void;
}

/** Walks a page's tags in order, telling the depth of each element opened. */
function walk(html: string, events: StreamEvents): void {
  const stack: string[] = [];
  let tag = '';
  let attribute = '';
  let value = '';
  const close = (name: string) => {
    for (let i = stack.length - 1; i >= Math.max(0, stack.length - CLOSE_SEARCH); i--) {
      if (stack[i] !== name) continue;
      while (stack.length > i) events.close(stack.pop()!);
      return;
    }
  };
  const callbacks: TokenizerCallbacks = {
    onopentagname(start, end) {
      tag = html.slice(start, end).toLowerCase();
      if (SELF_ENDING.has(tag) && stack.at(-1) === tag) events.close(stack.pop()!);
      events.open(tag, stack.length + 1);
      if (!VOID.has(tag)) stack.push(tag);
    },
    onopentagend() {},
    onselfclosingtag() {
      if (!VOID.has(tag) && stack.at(-1) === tag) events.close(stack.pop()!);
    },
    onclosetag(start, end) {
      close(html.slice(start, end).toLowerCase());
    },
    ontext(start, end) {
      events.text(html.slice(start, end));
    },
    ontextentity(codepoint) {
      events.text(String.fromCodePoint(codepoint));
    },
    onattribname(start, end) {
      attribute = html.slice(start, end).toLowerCase();
      value = '';
    },
    onattribdata(start, end) {
      value += html.slice(start, end);
    },
    onattribentity(codepoint) {
      value += String.fromCodePoint(codepoint);
    },
    onattribend() {
      events.attribute?.(tag, attribute, value);
    },
    oncdata() {},
    oncomment() {},
    ondeclaration() {},
    onprocessinginstruction() {},
    onend() {},
  };
  const tokenizer = new Tokenizer({ decodeEntities: true }, callbacks);
  tokenizer.write(html);
  tokenizer.end();
}

/** How many elements a page has and how deep they nest: whether the DOM-based reader can be given the page at all. */
export function pageShape(html: string): { elements: number; deepest: number } {
  let elements = 0;
  let deepest = 0;
  walk(html, {
    open(_name, depth) {
      elements++;
      if (depth > deepest) deepest = depth;
    },
    close() {},
    text() {},
  });
  return { elements, deepest };
}

/**
 * A page's whole readable text from the same stream: no scripts, styles or navigation, a blank line at each block.
 * What is read of a page too deep or too large for the DOM.
 */
export function streamedText(html: string): { text: string; lang?: string } {
  const lines: string[] = [];
  let line = '';
  let skipping = 0;
  let lang: string | undefined;
  const endLine = () => {
    // Soft hyphens out, as readableText does.
    const text = clean(line.replace(/\u00ad/g, ''));
    if (text) lines.push(text);
    line = '';
  };
  walk(html, {
    open(name) {
      if (SKIPPED.has(name)) skipping++;
      else if (BLOCK.has(name)) endLine();
    },
    close(name) {
      if (SKIPPED.has(name)) skipping = Math.max(0, skipping - 1);
      else if (BLOCK.has(name)) endLine();
    },
    text(text) {
      if (skipping === 0) line += text;
    },
    attribute(element, name, value) {
      if (element === 'html' && name === 'lang') lang = clean(value);
    },
  });
  endLine();
  return { text: lines.join('\n\n'), ...(lang ? { lang } : {}) };
}

/** The first `<title>` outside embedded SVG/MathML (whose `<title>` elements label icons, not the page). */
export function streamedTitle(html: string): string | undefined {
  let foreign = 0;
  let inTitle = false;
  let title: string | undefined;
  walk(html, {
    open(name) {
      if (name === 'svg' || name === 'math') foreign++;
      else if (name === 'title' && foreign === 0 && title === undefined) inTitle = true;
    },
    close(name) {
      if (name === 'svg' || name === 'math') foreign = Math.max(0, foreign - 1);
      else if (name === 'title' && inTitle) {
        inTitle = false;
        title ??= '';
      }
    },
    text(text) {
      if (inTitle) title = (title ?? '') + text;
    },
  });
  return clean(title);
}
