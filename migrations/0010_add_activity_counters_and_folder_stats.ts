import { sql, type Kysely } from 'kysely';

// Snapshots, not imports of the app's lists: a landed migration must not change when the app does.
const NEW_EVENT_TYPES = [
  'tutor_me_message_sent',
  'material_chat_message_sent',
  'main_chat_message_sent',
  'flashcard_set_created',
  'flashcard_created',
  'flashcard_chat_question',
  'explainer_video_created',
];

const NEW_COUNT_COLUMNS = [
  'tutor_me_messages',
  'material_messages',
  'main_chat_messages',
  'flashcard_sets_made',
  'flashcards_made',
  'flashcard_chat_questions',
  'explainer_videos_made',
];

/**
 * The chat, flashcards and explainers reports get their event types and daily counters, and folders keep
 * their live material count, total size and last activity the way `material_counts` (0009) keeps an
 * organization's: statement triggers in the rows' own transaction, so the numbers are exact whenever the rows
 * are and no request counts rows to show them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // Postgres 12+ adds enum values inside a transaction; they are only unusable until it commits, and nothing
  // below uses them.
  for (const type of NEW_EVENT_TYPES)
    await sql`alter type usage_event_type add value if not exists ${sql.lit(type)}`.execute(db);
  // A constant default is stored in the catalog: no rewrite of a table meant for millions of rows.
  for (const column of NEW_COUNT_COLUMNS) {
    await db.schema
      .alterTable('usage_daily')
      .addColumn(column, 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  }

  await db.schema
    .alterTable('folders')
    .addColumn('color', 'text')
    .addColumn('icon', 'text')
    .addColumn('material_count', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('total_size', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('last_activity', 'timestamptz')
    .execute();

  // A live material counts in its folder with its original's bytes. Folders are locked in key order before
  // the update, so two bulk moves across the same folders in opposite directions cannot deadlock.
  const folderChange = (came: string, went: string) => {
    const changes = `
      select organization_id, folder_id, sum(materials) as materials, sum(bytes) as bytes from (
        select organization_id, folder_id, 1 as materials, storage_bytes as bytes from ${came} where status <> 'deleted' and folder_id is not null
        union all
        select organization_id, folder_id, -1, -storage_bytes from ${went} where status <> 'deleted' and folder_id is not null
      ) as moves
      group by organization_id, folder_id
      having sum(materials) <> 0 or sum(bytes) <> 0`;
    return sql.raw(`
      perform 1 from folders f join (${changes}) c on f.organization_id = c.organization_id and f.id = c.folder_id
      order by f.organization_id, f.id for no key update of f;
      update folders f set material_count = f.material_count + c.materials, total_size = f.total_size + c.bytes, last_activity = now()
      from (${changes}) c
      where f.organization_id = c.organization_id and f.id = c.folder_id;`);
  };
  const events = [
    {
      event: 'insert',
      referencing: 'new table as came',
      came: 'came',
      went: '(select * from came where false) as none',
    },
    { event: 'update', referencing: 'old table as went new table as came', came: 'came', went: 'went' },
    {
      event: 'delete',
      referencing: 'old table as went',
      came: '(select * from went where false) as none',
      went: 'went',
    },
  ];
  for (const e of events) {
    await sql`
      create function ${sql.raw(`folder_stats_on_${e.event}`)}() returns trigger language plpgsql as $$
      begin
        ${folderChange(e.came, e.went)}
        return null;
      end $$`.execute(db);
    await sql
      .raw(
        `
      create trigger folder_stats_${e.event} after ${e.event} on materials
      referencing ${e.referencing}
      for each statement execute function folder_stats_on_${e.event}()`,
      )
      .execute(db);
  }

  await sql`
    update folders f set material_count = s.materials, total_size = s.bytes, last_activity = s.last_activity
    from (
      select organization_id, folder_id, count(*) as materials, sum(storage_bytes) as bytes, max(updated_at) as last_activity
      from materials where status <> 'deleted' and folder_id is not null
      group by organization_id, folder_id
    ) s
    where f.organization_id = s.organization_id and f.id = s.folder_id`.execute(db);
}
