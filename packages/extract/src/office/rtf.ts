import iconv from 'iconv-lite';
import type { ExtractResult, TextSegment } from '../types.ts';
import { resultOf, tidy } from './elements.ts';

/** Groups whose text is not the document's: tables of fonts, colours and styles, pictures, fields' codes, properties. */
const SKIPPED_DESTINATIONS = new Set([
  'fonttbl',
  'colortbl',
  'stylesheet',
  'info',
  'pict',
  'object',
  'objdata',
  'themedata',
  'colorschememapping',
  'datastore',
  'latentstyles',
  'listtable',
  'listoverridetable',
  'rsidtbl',
  'generator',
  'xmlnstbl',
  'mmathPr',
  'fldinst',
  'bkmkstart',
  'bkmkend',
  'revtbl',
  'filetbl',
  'pgdsctbl',
  'header',
  'headerl',
  'headerr',
  'headerf',
  'footer',
  'footerl',
  'footerr',
  'footerf',
  'annotation',
  'atnid',
  'atnauthor',
  'xe',
  'tc',
  'template',
  'userprops',
  'docvar',
  'wgrffmtfilter',
  'nonshppict',
  'blipuid',
  'passwordhash',
  'protusertbl',
  'ftnsep',
  'ftnsepc',
  'aftnsep',
]);
/** The text of a list's number or bullet, which says whether the list is numbered. */
const LIST_MARKERS = new Set(['listtext', 'pntext']);

interface GroupState {
  skip: boolean;
  marker: boolean;
  /** How many characters follow a \uN as its fallback, to be skipped. */
  uc: number;
}

/** A Rich Text Format document to paragraphs, headings (outline levels) and list items, fonts and pictures left out. */
export function readRtf(bytes: Buffer): ExtractResult {
  const source = bytes.toString('latin1');
  let codepage = 'windows-1252';
  const elements: TextSegment[] = [];
  let paragraph = '';
  let marker = '';
  let outline: number | undefined;
  let listLevel: number | undefined;
  let pendingBytes: number[] = [];
  let skipFallback = 0;
  const stack: GroupState[] = [];
  let state: GroupState = { skip: false, marker: false, uc: 1 };

  const flushBytes = () => {
    if (pendingBytes.length === 0) return;
    const decoded = iconv.encodingExists(codepage)
      ? iconv.decode(Buffer.from(pendingBytes), codepage)
      : Buffer.from(pendingBytes).toString('latin1');
    pendingBytes = [];
    emit(decoded);
  };
  const emit = (text: string) => {
    if (state.skip) return;
    if (state.marker) marker += text;
    else paragraph += text;
  };
  const endParagraph = () => {
    flushBytes();
    const text = tidy(paragraph);
    if (text) {
      if (outline !== undefined && outline < 9)
        elements.push({ kind: 'heading', level: Math.min(6, outline + 1), text });
      else if (marker.trim() || listLevel !== undefined)
        elements.push({
          kind: 'list-item',
          level: (listLevel ?? 0) + 1,
          ordered: /[0-9ivxIVX]/.test(marker) && !/^[\s\u2022·o§\-–]*$/.test(marker),
          text,
        });
      else elements.push({ kind: 'paragraph', text });
    }
    paragraph = '';
    marker = '';
  };

  for (let i = 0; i < source.length; i++) {
    const char = source[i]!;
    if (char === '{') {
      flushBytes();
      stack.push(state);
      state = { ...state };
      continue;
    }
    if (char === '}') {
      flushBytes();
      state = stack.pop() ?? state;
      continue;
    }
    if (char === '\r' || char === '\n') continue;
    if (char !== '\\') {
      if (skipFallback > 0) skipFallback--;
      else {
        flushBytes();
        emit(char);
      }
      continue;
    }
    const next = source[i + 1] ?? '';
    if (next === "'") {
      const hex = source.slice(i + 2, i + 4);
      i += 3;
      if (skipFallback > 0) skipFallback--;
      else if (/^[0-9a-f]{2}$/i.test(hex)) pendingBytes.push(parseInt(hex, 16));
      continue;
    }
    if (!/[a-z]/i.test(next)) {
      i++;
      flushBytes();
      if (next === '*') state.skip = true;
      else if (next === '~') emit('\u00a0');
      else if (next === '_') emit('-');
      else if (next === '\\' || next === '{' || next === '}') emit(next);
      continue;
    }
    const match = /^([a-z]{1,32})(-?\d{1,10})? ?/i.exec(source.slice(i + 1, i + 48))!;
    i += match[0].length;
    const word = match[1]!;
    const parameter = match[2] !== undefined ? Number(match[2]) : undefined;
    if (word !== 'u') flushBytes();
    if (SKIPPED_DESTINATIONS.has(word)) {
      state.skip = true;
      continue;
    }
    if (LIST_MARKERS.has(word)) {
      state.marker = true;
      continue;
    }
    switch (word) {
      case 'ansicpg':
        if (parameter) codepage = `windows-${parameter}`;
        if (parameter === 932) codepage = 'shift_jis';
        if (parameter === 936) codepage = 'gbk';
        break;
      case 'u':
        flushBytes();
        if (parameter !== undefined) emit(String.fromCharCode(parameter < 0 ? parameter + 65536 : parameter));
        skipFallback = state.uc;
        break;
      case 'uc':
        state.uc = parameter ?? 1;
        break;
      case 'par':
      case 'sect':
      case 'page':
      case 'row':
        endParagraph();
        break;
      case 'pard':
        outline = undefined;
        listLevel = undefined;
        break;
      case 'outlinelevel':
        outline = parameter;
        break;
      case 'ilvl':
        listLevel = parameter;
        break;
      case 'ls':
        listLevel ??= 0;
        break;
      case 'line':
        emit('\n');
        break;
      case 'tab':
      case 'cell':
        emit('\t');
        break;
      case 'emdash':
        emit('—');
        break;
      case 'endash':
        emit('–');
        break;
      case 'bullet':
        emit('•');
        break;
      case 'lquote':
        emit('‘');
        break;
      case 'rquote':
        emit('’');
        break;
      case 'ldblquote':
        emit('“');
        break;
      case 'rdblquote':
        emit('”');
        break;
      case 'bin':
        i += Math.max(0, parameter ?? 0);
        break;
      default:
    }
  }
  endParagraph();
  return resultOf(elements, { format: 'rtf' });
}
