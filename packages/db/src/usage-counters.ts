import { sql, type RawBuilder } from 'kysely';
import type { ReportedEventType, UsageDailyTable } from './schema.ts';

export type UsageCounter = Exclude<keyof UsageDailyTable, 'organization_id' | 'group_id' | 'student_id' | 'day'>;

interface CounterDefinition {
  type: ReportedEventType;
  correct?: boolean;
  /** Counters count events unless they sum the events' `value`. */
  sumsValue?: boolean;
}

/**
 * What each daily counter holds, as a function of one raw event. The daily upsert, the raw reads at window
 * edges and the benchmark's bulk load all derive their SQL from this one table, so they cannot disagree.
 */
export const USAGE_COUNTERS: Record<UsageCounter, CounterDefinition> = {
  sessions_made: { type: 'live_session_created' },
  chat_messages: { type: 'live_chat_message_sent' },
  tests_made: { type: 'test_created' },
  questions_made: { type: 'test_question_created' },
  answered_correctly: { type: 'test_question_answered', correct: true },
  answered_incorrectly: { type: 'test_question_answered', correct: false },
  chat_questions: { type: 'test_chat_question' },
  engagement_events: { type: 'engagement' },
  engaged_ms: { type: 'engagement', sumsValue: true },
  tutor_me_messages: { type: 'tutor_me_message_sent' },
  material_messages: { type: 'material_chat_message_sent' },
  main_chat_messages: { type: 'main_chat_message_sent' },
  flashcard_sets_made: { type: 'flashcard_set_created' },
  flashcards_made: { type: 'flashcard_created' },
  flashcard_chat_questions: { type: 'flashcard_chat_question' },
  explainer_videos_made: { type: 'explainer_video_created' },
};

const COUNTERS = Object.keys(USAGE_COUNTERS) as UsageCounter[];
const COUNTED_TYPES = [...new Set(Object.values(USAGE_COUNTERS).map((c) => c.type))];

/** The counter's contribution of one raw event row aliased `alias` (0 when the event is not its kind). */
export function counterOfEvent(counter: UsageCounter, alias: string): RawBuilder<number> {
  const { type, correct, sumsValue } = USAGE_COUNTERS[counter];
  const e = (column: string) => sql.ref(`${alias}.${column}`);
  const matches =
    correct === undefined
      ? sql`${e('type')} = ${type}::usage_event_type`
      : sql`${e('type')} = ${type}::usage_event_type and ${e('correct')} = ${correct}`;
  return sumsValue ? sql<number>`case when ${matches} then ${e('value')} else 0 end` : sql<number>`(${matches})::int`;
}

/**
 * Adds the events of `source` (a relation with organization_id, group_id, student_id, type, correct,
 * occurred_at, value) to their daily counters. Rows are locked in key order so concurrent batches that
 * touch the same days cannot deadlock. Events no counter counts (the SDK's types) leave no daily row behind.
 */
export function addToDailyCounters(source: RawBuilder<unknown>): RawBuilder<unknown> {
  const columns = sql.join(COUNTERS.map((c) => sql.ref(c)));
  const sums = sql.join(COUNTERS.map((c) => sql`sum(${counterOfEvent(c, 'e')})`));
  const increments = sql.join(
    COUNTERS.map((c) => sql`${sql.ref(c)} = usage_daily.${sql.ref(c)} + excluded.${sql.ref(c)}`),
  );
  return sql`
    insert into usage_daily (organization_id, group_id, student_id, day, ${columns})
    select e.organization_id, e.group_id, e.student_id, (e.occurred_at at time zone 'UTC')::date, ${sums}
    from ${source} as e
    where e.type = any(${COUNTED_TYPES}::usage_event_type[])
    group by 1, 2, 3, 4
    order by 1, 2, 4, 3
    on conflict (organization_id, group_id, day, student_id) do update set ${increments}`;
}
