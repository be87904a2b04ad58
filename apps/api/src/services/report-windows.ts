import type { ReportSegments } from '@quire/db';

export const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;

export interface ReportWindow {
  index: number;
  /** First millisecond of the window. */
  start: number;
  /** Last millisecond of the window (inclusive). */
  end: number;
}

/** Consecutive 7-day windows from `start`, both ends inclusive; the last one ends at `end`. */
export function reportWindows(start: number, end: number): ReportWindow[] {
  const windows: ReportWindow[] = [];
  for (let index = 0, from = start; from <= end; index++, from += WEEK_MS) {
    windows.push({ index, start: from, end: Math.min(from + WEEK_MS - 1, end) });
  }
  return windows;
}

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * Splits each window into the whole UTC days it covers (answered by the daily counters) and the partial
 * days at its edges (answered by the raw events), so a window may start and end at any millisecond.
 */
export function splitByUtcDay(windows: ReportWindow[]): ReportSegments {
  const firstDay = Math.ceil(windows[0]!.start / DAY_MS) * DAY_MS;
  const segments: ReportSegments = { days: { first: isoDay(firstDay), windows: [] }, raw: [] };
  const raw = (window: number, from: number, to: number) =>
    segments.raw.push({ window, from: new Date(from), to: new Date(to) });
  for (const w of windows) {
    const from = w.start;
    const to = w.end + 1;
    const firstWholeDay = Math.ceil(from / DAY_MS) * DAY_MS;
    const wholeDaysEnd = Math.floor(to / DAY_MS) * DAY_MS;
    if (firstWholeDay >= wholeDaysEnd) {
      raw(w.index, from, to);
      continue;
    }
    if (from < firstWholeDay) raw(w.index, from, firstWholeDay);
    for (let day = firstWholeDay; day < wholeDaysEnd; day += DAY_MS)
      segments.days.windows[(day - firstDay) / DAY_MS] = w.index;
    if (wholeDaysEnd < to) raw(w.index, wholeDaysEnd, to);
  }
  // Days split between two windows are -1: the raw events answer for them.
  segments.days.windows = Array.from(segments.days.windows, (w) => w ?? -1);
  return segments;
}

/** The same windows read entirely from raw events: the reference the daily counters must agree with. */
export function rawOnly(windows: ReportWindow[]): ReportSegments {
  return {
    days: { first: isoDay(windows[0]!.start), windows: [] },
    raw: windows.map((w) => ({ window: w.index, from: new Date(w.start), to: new Date(w.end + 1) })),
  };
}
