import { sql, type Kysely } from 'kysely';

// Snapshots, not imports of the app's lists: a landed migration must not change when the app does.
const EVENT_TYPES = [
  'live_session_created',
  'live_chat_message_sent',
  'test_created',
  'test_question_created',
  'test_question_answered',
  'test_chat_question',
  'engagement',
];

const COUNT_COLUMNS = [
  'sessions_made',
  'chat_messages',
  'tests_made',
  'questions_made',
  'answered_correctly',
  'answered_incorrectly',
  'chat_questions',
  'engagement_events',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  // An enum is as readable as text in SQL and costs 4 bytes in a table meant for tens of millions of rows.
  await db.schema.createType('usage_event_type').asEnum(EVENT_TYPES).execute();

  // The platform's users. `id` is internal and a bigint because usage rows repeat it millions of times;
  // the wire's `studentId` is `user_id`, the platform's own id.
  await db.schema
    .createTable('students')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    // When the name was true: events arrive late and get replayed, and an older name must not win.
    .addColumn('name_as_of', 'timestamptz', (c) => c.notNull().defaultTo(sql`'-infinity'`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('students_organization_user_key', ['organization_id', 'user_id'])
    .execute();

  await db.schema
    .createTable('group_members')
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('group_id', 'text', (c) => c.notNull().references('groups.id'))
    .addColumn('student_id', 'bigint', (c) => c.notNull().references('students.id'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('group_members_pk', ['organization_id', 'group_id', 'student_id'])
    .execute();

  await db.schema
    .createTable('usage_events')
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('group_id', 'text', (c) => c.notNull().references('groups.id'))
    .addColumn('student_id', 'bigint', (c) => c.notNull().references('students.id'))
    .addColumn('type', sql`usage_event_type`, (c) => c.notNull())
    .addColumn('correct', 'boolean')
    .addColumn('occurred_at', 'timestamptz', (c) => c.notNull())
    .addColumn('value', 'bigint')
    .addColumn('properties', 'jsonb')
    .addColumn('received_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    // Idempotency: an eventId is stored once per organization, whatever its batch or group.
    .addPrimaryKeyConstraint('usage_events_pk', ['organization_id', 'event_id'])
    .addCheckConstraint('usage_events_correct_check', sql`(type = 'test_question_answered') = (correct is not null)`)
    .addCheckConstraint('usage_events_value_check', sql`type <> 'engagement' or value >= 0`)
    .execute();
  // Reports read raw events only for the partial days at window edges (the benchmark's baseline reads all
  // of them): the included columns let those reads skip the table. Kysely's builder has no INCLUDE.
  await sql`create index usage_events_group_time_idx on usage_events (organization_id, group_id, occurred_at)
    include (student_id, type, correct, value)`.execute(db);
  // Listing for a key without a group: newest first across the organization.
  await db.schema
    .createIndex('usage_events_organization_time_idx')
    .on('usage_events')
    .columns(['organization_id', 'occurred_at'])
    .execute();

  // What reports read: per group, student and UTC day, one counter per metric, kept in the same statement
  // that inserts the events (see usage-counters.ts).
  let daily = db.schema
    .createTable('usage_daily')
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('group_id', 'text', (c) => c.notNull().references('groups.id'))
    .addColumn('student_id', 'bigint', (c) => c.notNull().references('students.id'))
    .addColumn('day', 'date', (c) => c.notNull());
  for (const column of COUNT_COLUMNS) daily = daily.addColumn(column, 'integer', (c) => c.notNull().defaultTo(0));
  await daily
    .addColumn('engaged_ms', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('usage_daily_pk', ['organization_id', 'group_id', 'day', 'student_id'])
    .execute();
}
