import path from 'node:path';

/** The longest file name most file systems store (ext4, APFS, NTFS in UTF-16 aside): 255 bytes of UTF-8. */
export const MAX_FILE_NAME_BYTES = 255;
/** An extension longer than this is part of the name, not a type (`report.final-version-for-review`). */
const MAX_EXTENSION_BYTES = 32;

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * A file name of at most `maxBytes` bytes of UTF-8: a longer one loses the end of its stem, cut between two
 * characters as a reader sees them (never inside a UTF-8 sequence, a surrogate pair or an emoji sequence), and
 * keeps its extension, so that a download still opens with the right program.
 */
export function capFileName(name: string, maxBytes = MAX_FILE_NAME_BYTES): string {
  if (bytes(name) <= maxBytes) return name;
  const extension = path.extname(name);
  const keep = extension && bytes(extension) <= MAX_EXTENSION_BYTES ? extension : '';
  const stem = name.slice(0, name.length - keep.length);
  let budget = maxBytes - bytes(keep);
  let cut = '';
  for (const { segment } of graphemes.segment(stem)) {
    budget -= bytes(segment);
    if (budget < 0) break;
    cut += segment;
  }
  return cut + keep;
}

/** Keeps a client's file name as metadata only: no directories, no control characters, bounded length. */
export function sanitizeFilename(raw: string | undefined): string {
  const base = path.posix.basename((raw ?? '').replace(/\\/g, '/')).replace(/[\u0000-\u001f\u007f]/g, '');
  const trimmed = capFileName(base.trim());
  return trimmed === '' || trimmed === '.' || trimmed === '..' ? 'upload' : trimmed;
}
