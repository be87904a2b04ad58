import { listGroupMembers, sumUsageByGroup, sumUsageByStudent, type Db, type UsageCounter } from '@quire/db';
import { unauthorized } from '../errors.ts';
import type { Principal } from '../auth/principal.ts';
import { rawOnly, reportWindows, splitByUtcDay, type ReportWindow } from './report-windows.ts';

export const REPORT_NAMES = ['live-lecture', 'tests', 'engagement', 'chat', 'flashcards', 'explainers'] as const;
export type ReportName = (typeof REPORT_NAMES)[number];

interface MetricDefinition {
  title: string;
  /** The reported value adds these counters up (one, except for totals). */
  counters: UsageCounter[];
  /** From the counters' sum to the reported value; the sum itself when absent. */
  present?: (sum: number) => number;
}

/** Every chat the platform has, each reported on its own and in `Total Messages`. */
const CHAT_MESSAGES: { title: string; counter: UsageCounter }[] = [
  { title: 'Tutor Me Messages', counter: 'tutor_me_messages' },
  { title: 'Test Messages', counter: 'chat_questions' },
  { title: 'Flashcard Messages', counter: 'flashcard_chat_questions' },
  { title: 'Material Messages', counter: 'material_messages' },
  { title: 'Live Lecture Messages', counter: 'chat_messages' },
  { title: 'Main Chat Messages', counter: 'main_chat_messages' },
];
const CHAT_COUNTERS = CHAT_MESSAGES.map((m) => m.counter);

const metric = (title: string, counter: UsageCounter, present?: (sum: number) => number): MetricDefinition => ({
  title,
  counters: [counter],
  present,
});

const toMinutes = (ms: number) => Math.round(ms / 600) / 100;

/**
 * Metric titles in the order of the seed and of the public service's documentation; `activity` decides who
 * counts in `numStudentsUsed`.
 */
const REPORTS: Record<ReportName, { metrics: MetricDefinition[]; activity: UsageCounter[] }> = {
  'live-lecture': {
    metrics: [metric('Sessions Made', 'sessions_made'), metric('Chat Messages', 'chat_messages')],
    activity: ['sessions_made', 'chat_messages'],
  },
  tests: {
    metrics: [
      metric('Tests Made', 'tests_made'),
      metric('Questions Made', 'questions_made'),
      metric('Questions Answered Correctly', 'answered_correctly'),
      metric('Questions Answered Incorrectly', 'answered_incorrectly'),
      metric('Chat Questions Asked', 'chat_questions'),
    ],
    activity: ['tests_made', 'questions_made', 'answered_correctly', 'answered_incorrectly', 'chat_questions'],
  },
  engagement: {
    metrics: [metric('Minutes Engaged', 'engaged_ms', toMinutes)],
    activity: ['engagement_events'],
  },
  chat: {
    metrics: [
      { title: 'Total Messages', counters: CHAT_COUNTERS },
      ...CHAT_MESSAGES.map((m) => metric(m.title, m.counter)),
    ],
    activity: CHAT_COUNTERS,
  },
  flashcards: {
    metrics: [
      metric('Sets Made', 'flashcard_sets_made'),
      metric('Flashcards Made', 'flashcards_made'),
      metric('Chat Questions', 'flashcard_chat_questions'),
    ],
    activity: ['flashcard_sets_made', 'flashcards_made', 'flashcard_chat_questions'],
  },
  explainers: {
    metrics: [metric('Explainers Videos Made', 'explainer_videos_made')],
    activity: ['explainer_videos_made'],
  },
};

/** The group a key reports on, if its plan is active at `now`; anything else is the analytics 403. */
export function groupWithActivePlan(principal: Principal, now: Date): string {
  const { groupId, planValidFrom, planValidUntil } = principal;
  const active = planValidFrom !== null && planValidFrom <= now && (planValidUntil === null || now <= planValidUntil);
  if (!groupId || !active) throw unauthorized();
  return groupId;
}

export interface ReportQuery {
  start: Date;
  end: Date;
  students: boolean;
}

interface Metric {
  title: string;
  value: number;
}

export type Report =
  | { startDate: string; endDate: string; numStudentsUsed: number; data: Metric[] }
  | { startDate: string; endDate: string; studentName: string; studentId: string; data: Metric[] };

/**
 * `counters` reads whole days from the daily counters and only window edges from raw events; `raw` reads
 * everything from raw events, the reference the benchmark and the exactness tests compare against.
 */
export type ReportSource = 'counters' | 'raw';

export async function buildGroupReport(
  ctx: { db: Db },
  scope: { organizationId: string; groupId: string },
  name: ReportName,
  query: ReportQuery,
  source: ReportSource = 'counters',
): Promise<{ success: true; reports: Report[] }> {
  const { metrics, activity } = REPORTS[name];
  const windows = reportWindows(query.start.getTime(), query.end.getTime());
  const usageQuery = {
    ...scope,
    segments: source === 'counters' ? splitByUtcDay(windows) : rawOnly(windows),
    counters: [...new Set(metrics.flatMap((m) => m.counters))],
    activity,
  };
  const data = (sums: Record<UsageCounter, number> | undefined) =>
    metrics.map((m) => {
      const sum = m.counters.reduce((total, c) => total + (sums?.[c] ?? 0), 0);
      return { title: m.title, value: m.present ? m.present(sum) : sum };
    });
  const bounds = (w: ReportWindow) => ({
    startDate: new Date(w.start).toISOString(),
    endDate: new Date(w.end).toISOString(),
  });

  if (!query.students) {
    const usage = new Map((await sumUsageByGroup(ctx.db, usageQuery)).map((u) => [u.window, u]));
    const reports = windows.map((w) => {
      const u = usage.get(w.index);
      return { ...bounds(w), numStudentsUsed: u?.activeStudents ?? 0, data: data(u?.sums) };
    });
    return { success: true, reports };
  }

  const [members, usage] = await Promise.all([
    listGroupMembers(ctx.db, scope.organizationId, scope.groupId),
    sumUsageByStudent(ctx.db, usageQuery),
  ]);
  const byWindowAndStudent = new Map(usage.map((u) => [`${u.window}:${u.studentId}`, u.sums]));
  const collator = new Intl.Collator('en');
  members.sort((a, b) => collator.compare(a.name, b.name) || (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0));
  const reports = windows.flatMap((w) => {
    const { startDate, endDate } = bounds(w);
    return members.map((m) => ({
      startDate,
      endDate,
      studentName: m.name,
      studentId: m.userId,
      data: data(byWindowAndStudent.get(`${w.index}:${m.id}`)),
    }));
  });
  return { success: true, reports };
}
