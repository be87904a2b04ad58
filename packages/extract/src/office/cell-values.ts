/** Built-in number formats that show dates or times (ECMA-376 part 1, 18.8.30, and the East Asian ones). */
const DATE_FORMAT_IDS = new Set([
  14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54, 55, 56,
  57, 58,
]);
const PERCENT_FORMAT_IDS = new Set([9, 10]);

export type NumberStyle = 'date' | 'time' | 'datetime' | 'percent' | 'general';

/** How a number format code shows a number, as far as a reader of the text needs to know. */
export function numberStyleOf(formatId: number, code: string | undefined): NumberStyle {
  if (code === undefined) {
    if (PERCENT_FORMAT_IDS.has(formatId)) return 'percent';
    if ([18, 19, 20, 21, 45, 46, 47].includes(formatId)) return 'time';
    if (formatId === 22) return 'datetime';
    return DATE_FORMAT_IDS.has(formatId) ? 'date' : 'general';
  }
  const bare = code
    .split(';')[0]!
    .replace(/"[^"]*"/g, '')
    .replace(/\\./g, '')
    .replace(/\[(?![hms]+\])[^\]]*\]/gi, '');
  const hasTime = /[hs]/i.test(bare);
  if (/%/.test(bare)) return 'percent';
  if (/[dy]/i.test(bare) && hasTime) return 'datetime';
  if (/[dy]/i.test(bare)) return 'date';
  if (hasTime) return 'time';
  return /m/i.test(bare) && !/[0#?]/.test(bare) && !/general/i.test(bare) ? 'date' : 'general';
}

const DAY_MS = 86_400_000;
const EPOCH_1900 = Date.UTC(1899, 11, 30);
const EPOCH_1904 = Date.UTC(1904, 0, 1);

/** A spreadsheet's serial day number as ISO 8601 text (the date, the time or both, as its format shows). */
export function formatSerialDate(serial: number, style: NumberStyle, date1904: boolean): string {
  if (!Number.isFinite(serial) || serial < 0 || serial > 2_958_465) return numberText(serial);
  const ms = Math.round(((date1904 ? EPOCH_1904 : EPOCH_1900) + serial * DAY_MS) / 1000) * 1000;
  const iso = new Date(ms).toISOString();
  const day = iso.slice(0, 10);
  const time = iso.slice(11, 19);
  if (style === 'time') return time;
  if (style === 'datetime') return `${day} ${time}`;
  return day;
}

/** A number as a spreadsheet shows it in a General cell: at most 15 significant digits, no binary noise. */
export function numberText(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  return String(Number(value.toPrecision(15)));
}

export function formatNumber(value: number, style: NumberStyle, date1904: boolean): string {
  if (style === 'percent') return `${numberText(value * 100)}%`;
  if (style === 'general') return numberText(value);
  return formatSerialDate(value, style, date1904);
}
