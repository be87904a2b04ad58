import { fileTypeFromBuffer } from 'file-type';
import { officeFormatOf } from './office/formats.ts';
import { officeReaderMissing } from './office/legacy.ts';
import {
  delimitedTableMime,
  isOle2,
  isXlsbHead,
  officeFormatOfOle2,
  OLE2_MIME,
  ole2DirectoryInHead,
  ole2StreamNames,
  ooxmlFromZipHead,
  preOle2OfficeMime,
  XLSB_MIME,
} from './office/sniff-office.ts';
import type { ContentType } from './types.ts';

/** How many leading bytes `sniff` needs; callers read this much of a file, never all of it. */
export const SNIFF_BYTES = 4100;

export type Sniffed =
  | { supported: true; contentType: ContentType; mimeType: string }
  | { supported: false; mimeType: string; reason: string };

// Formats sharp decodes out of the box; BMP, ICO, HEIC and friends are refused rather than half-handled.
const IMAGE_MIMES = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif', 'image/tiff']);
// What browsers and mail clients send for office files besides the formats' own types.
const OFFICE_CLAIMS = new Set([
  'text/rtf',
  'application/x-rtf',
  'application/vnd.ms-word',
  'application/x-msexcel',
  'application/x-mspowerpoint',
]);
const GENERIC_CLAIMS = new Set(['', 'application/octet-stream', 'binary/octet-stream', 'application/unknown']);

/** Decides what a file is from its bytes alone. */
export async function sniff(head: Buffer): Promise<Sniffed> {
  const detected = await fileTypeFromBuffer(head);
  const preOle2 = detected ? undefined : preOle2OfficeMime(head);
  if (preOle2) return officeSniffed(preOle2);
  // An XHTML page with its XML declaration is a web page, whatever file-type calls it.
  if (!detected || (detected.mime === 'application/xml' && looksLikeXhtml(head))) {
    // A page in a legacy encoding (latin-1, windows-1252...) is not UTF-8 but still a page; its own <meta> names
    // the encoding, which the text extractor reads.
    if (looksLikeHtml(head) && !head.includes(0))
      return { supported: true, contentType: 'text', mimeType: 'text/html' };
    if (looksLikeText(head)) {
      return {
        supported: true,
        contentType: 'text',
        mimeType: delimitedTableMime(head.toString('utf8')) ?? 'text/plain',
      };
    }
    return { supported: false, mimeType: 'application/octet-stream', reason: 'The file type could not be recognised' };
  }
  const { mime } = detected;
  // Documents, slides and sheets are text materials whose mimeType names the original format.
  const office = officeMimeOf(mime, head) ?? (officeFormatOf(mime) ? mime : undefined);
  if (office) return officeSniffed(office);
  if (mime === 'application/pdf') return { supported: true, contentType: 'pdf', mimeType: mime };
  if (mime === 'application/epub+zip') return { supported: true, contentType: 'epub', mimeType: mime };
  if (IMAGE_MIMES.has(mime)) return { supported: true, contentType: 'image', mimeType: mime };
  if (mime.startsWith('audio/')) return { supported: true, contentType: 'audio', mimeType: mime };
  if (mime.startsWith('video/')) return { supported: true, contentType: 'video', mimeType: mime };
  return { supported: false, mimeType: mime, reason: `Files of type ${mime} are not supported` };
}

async function officeSniffed(mimeType: string): Promise<Sniffed> {
  const missing = await officeReaderMissing(mimeType);
  if (missing) return { supported: false, mimeType, reason: missing };
  return { supported: true, contentType: 'text', mimeType };
}

/** What a zip or an OLE2 container holds, when file-type named only the container (or the wrong workbook). */
function officeMimeOf(mime: string, head: Buffer): string | undefined {
  if (mime === 'application/zip') return ooxmlFromZipHead(head);
  if (mime === 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' && isXlsbHead(head))
    return XLSB_MIME;
  // An OLE2 head whose directory goes on past it is decided by the reader, from all of the file's streams.
  if (mime === 'application/x-cfb' && isOle2(head))
    return officeFormatOfOle2(ole2StreamNames(head)) ?? (ole2DirectoryInHead(head) ? undefined : OLE2_MIME);
  return undefined;
}

/** The kind a client's MIME claim names, or undefined when the claim says nothing (octet-stream). */
export function claimedKind(mimeType: string | undefined): ContentType | 'other' | undefined {
  const mime = (mimeType ?? '').split(';')[0]!.trim().toLowerCase();
  if (GENERIC_CLAIMS.has(mime)) return undefined;
  if (mime === 'application/pdf' || mime === 'application/x-pdf') return 'pdf';
  if (mime === 'application/epub+zip') return 'epub';
  if (officeFormatOf(mime) || OFFICE_CLAIMS.has(mime)) return 'text';
  for (const kind of ['image', 'audio', 'video', 'text'] as const) if (mime.startsWith(`${kind}/`)) return kind;
  return 'other';
}

/**
 * True when the client's claim contradicts the sniffed kind. Audio and video share containers
 * (MP4, WebM, Ogg), so one claimed as the other is not a contradiction.
 */
export function claimContradicts(claim: string | undefined, sniffedKind: ContentType): boolean {
  const kind = claimedKind(claim);
  if (kind === undefined || kind === sniffedKind) return false;
  const media = new Set(['audio', 'video']);
  return !(media.has(kind) && media.has(sniffedKind));
}

function looksLikeText(head: Buffer): boolean {
  if (head.length === 0) return false;
  if (head.includes(0)) return false;
  // A multi-byte character may be cut at the end of the sample; drop up to 3 trailing bytes before checking.
  for (let cut = 0; cut < 4 && cut < head.length; cut++) {
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(0, head.length - cut));
      return true;
    } catch {
      // try a shorter prefix
    }
  }
  return false;
}

/**
 * The HTML signatures of the WHATWG MIME Sniffing standard (section 7.1): the first thing after white space is one
 * of these tags, or a comment, followed by a space or `>`. PHP warnings and stray scripts often come first on a real
 * page, so a `<head>` or `<body>` tag anywhere in the first kilobyte counts too.
 */
const HTML_START = /^<(!doctype html|html|head|script|iframe|h1|div|font|table|a|style|title|b|body|br|p|!--)[\s>]/;

function looksLikeHtml(head: Buffer): boolean {
  const start = head.subarray(0, 1024).toString('latin1').trimStart().toLowerCase();
  return HTML_START.test(start) || /<(head|body)[\s>]/.test(start);
}

function looksLikeXhtml(head: Buffer): boolean {
  const start = head.subarray(0, 1024).toString('latin1').toLowerCase();
  return /<!doctype html[\s>]/.test(start) || /<html[\s>]/.test(start);
}
