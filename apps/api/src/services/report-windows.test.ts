import { describe, expect, it } from 'vitest';
import { DAY_MS, rawOnly, reportWindows, splitByUtcDay } from './report-windows.ts';

const ms = (iso: string) => Date.parse(iso);
const iso = (t: number) => new Date(t).toISOString();

describe('report windows', () => {
  it('are 7 days from startDate, both ends inclusive, the last one ending at endDate', () => {
    const windows = reportWindows(ms('2025-01-01T00:00:00.000Z'), ms('2025-01-20T12:00:00.000Z'));
    expect(windows.map((w) => [w.index, iso(w.start), iso(w.end)])).toEqual([
      [0, '2025-01-01T00:00:00.000Z', '2025-01-07T23:59:59.999Z'],
      [1, '2025-01-08T00:00:00.000Z', '2025-01-14T23:59:59.999Z'],
      [2, '2025-01-15T00:00:00.000Z', '2025-01-20T12:00:00.000Z'],
    ]);
  });

  it('give a one-millisecond window when startDate equals endDate, and a full last window when the range is whole weeks', () => {
    const t = ms('2025-03-03T10:00:00.000Z');
    expect(reportWindows(t, t)).toEqual([{ index: 0, start: t, end: t }]);
    const weeks = reportWindows(ms('2025-01-01T00:00:00.000Z'), ms('2025-01-14T23:59:59.999Z'));
    expect(weeks.map((w) => iso(w.end))).toEqual(['2025-01-07T23:59:59.999Z', '2025-01-14T23:59:59.999Z']);
    // One millisecond more opens a third window of one millisecond.
    expect(reportWindows(ms('2025-01-01T00:00:00.000Z'), ms('2025-01-15T00:00:00.000Z'))).toHaveLength(3);
  });
});

describe('splitting windows by UTC day', () => {
  const segmentsOf = (start: string, end: string) => {
    const s = splitByUtcDay(reportWindows(ms(start), ms(end)));
    return { days: s.days, raw: s.raw.map((r) => [r.window, iso(r.from.getTime()), iso(r.to.getTime())]) };
  };

  it('reads only whole days when the windows start at midnight', () => {
    expect(segmentsOf('2025-01-01T00:00:00.000Z', '2025-01-14T23:59:59.999Z')).toEqual({
      days: { first: '2025-01-01', windows: [0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1] },
      raw: [],
    });
  });

  it('reads the partial days at the edges of windows that start and end within a day from raw events', () => {
    expect(segmentsOf('2025-01-01T10:30:00.123Z', '2025-01-10T05:00:00.000Z')).toEqual({
      // 01-02..01-07 whole in window 0, 01-08 split between windows 0 and 1, 01-09 whole in window 1.
      days: { first: '2025-01-02', windows: [0, 0, 0, 0, 0, 0, -1, 1] },
      raw: [
        [0, '2025-01-01T10:30:00.123Z', '2025-01-02T00:00:00.000Z'],
        [0, '2025-01-08T00:00:00.000Z', '2025-01-08T10:30:00.123Z'],
        [1, '2025-01-08T10:30:00.123Z', '2025-01-09T00:00:00.000Z'],
        [1, '2025-01-10T00:00:00.000Z', '2025-01-10T05:00:00.001Z'],
      ],
    });
  });

  it('reads a window shorter than a day, even across midnight, from raw events alone', () => {
    expect(segmentsOf('2025-01-01T20:00:00.000Z', '2025-01-02T03:00:00.000Z')).toEqual({
      days: { first: '2025-01-02', windows: [] },
      raw: [[0, '2025-01-01T20:00:00.000Z', '2025-01-02T03:00:00.001Z']],
    });
  });

  it('covers every millisecond of every window exactly once', () => {
    const windows = reportWindows(ms('2024-12-30T17:45:12.345Z'), ms('2025-03-01T08:00:00.000Z'));
    const segments = splitByUtcDay(windows);
    const first = ms(`${segments.days.first}T00:00:00.000Z`);
    const pieces = [
      ...segments.days.windows.flatMap((window, i) =>
        window < 0 ? [] : [{ window, from: first + i * DAY_MS, to: first + (i + 1) * DAY_MS }],
      ),
      ...segments.raw.map((r) => ({ window: r.window, from: r.from.getTime(), to: r.to.getTime() })),
    ].sort((a, b) => a.from - b.from);
    let cursor = windows[0]!.start;
    for (const piece of pieces) {
      expect(piece.from).toBe(cursor);
      const w = windows[piece.window]!;
      expect(piece.from >= w.start && piece.to <= w.end + 1).toBe(true);
      cursor = piece.to;
    }
    expect(cursor).toBe(windows.at(-1)!.end + 1);
    expect(
      rawOnly(windows)
        .raw.map((r) => r.to.getTime() - r.from.getTime())
        .reduce((a, b) => a + b),
    ).toBe(cursor - windows[0]!.start);
  });
});
