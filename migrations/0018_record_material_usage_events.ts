import { sql, type Kysely } from 'kysely';

// Snapshots, not imports of the app's lists: a landed migration must not change when the app does.
// The public SDK's `eventType` values (`studyfetch-sdk` 0.1.0a32, `usage_list_events_params.py`) that the
// analytics types do not already hold.
const SDK_EVENT_TYPES = [
  'material_created',
  'material_uploaded',
  'material_processed',
  'material_deleted',
  'component_created',
  'component_accessed',
  'component_deleted',
  'component_usage',
  'chat_message_sent',
  'chat_session_started',
  'chat_session_ended',
  'chat_feedback',
  'test_started',
  'test_completed',
  'test_retaken',
  'audio_recap_create',
  'assignment_grader_create',
  'api_call',
  'cache_hit',
  'sso_login',
  'sso_logout',
  'student_performance',
];

/** A material's own events, from the rows a statement changed (`came`, and `went` for their previous state). */
const materialEvents = {
  insert: `
    select c.organization_id, e.event_id, e.type, c.id, e.value, e.properties
    from came as c
    cross join lateral (values
      ('material_created:' || c.id, 'material_created', null::bigint,
        jsonb_build_object('contentType', c.content_type, 'status', c.status), true),
      -- A streamed upload's bytes are in storage before its row is written.
      ('material_uploaded:' || c.id || ':' || md5(c.content::text), 'material_uploaded', c.storage_bytes,
        jsonb_build_object('source', 'file', 'bytes', c.storage_bytes, 'mimeType', c.content->>'mimeType'),
        c.status <> 'pending_upload' and c.content->>'kind' = 'file')
    ) as e(event_id, type, value, properties, happened)
    where e.happened`,
  update: `
    select c.organization_id, e.event_id, e.type, c.id, e.value, e.properties
    from came as c
    join went as w on w.id = c.id
    cross join lateral (values
      -- An upload URL's bytes arrived, or a URL material's were fetched (the same bytes again change nothing).
      ('material_uploaded:' || c.id || ':' || md5(c.content::text), 'material_uploaded', c.storage_bytes,
        jsonb_build_object('source', c.content->>'kind', 'bytes', c.storage_bytes, 'mimeType', c.content->>'mimeType'),
        (w.status = 'pending_upload' and c.status = 'processing')
          or (c.content->>'kind' = 'url' and c.content ? 's3Key' and c.content is distinct from w.content)),
      -- One per run: the status guard lets only one job of a run settle it, and a reprocessed material's new run
      -- starts at a new processing_started_at.
      ('material_processed:' || c.id || ':' || coalesce((extract(epoch from w.processing_started_at) * 1000)::bigint::text, 'run'),
        'material_processed', round((c.metadata->>'processingMs')::numeric)::bigint,
        jsonb_strip_nulls(jsonb_build_object(
          'outcome', c.status,
          'durationMs', round((c.metadata->>'processingMs')::numeric)::bigint,
          'contentType', c.content_type,
          'errorCode', case when c.status = 'error' then c.metadata->'error'->>'code' end)),
        w.status = 'processing' and c.status in ('active', 'error')),
      ('material_deleted:' || c.id, 'material_deleted', null::bigint, jsonb_build_object('previousStatus', w.status),
        w.status <> 'deleted' and c.status = 'deleted')
    ) as e(event_id, type, value, properties, happened)
    where e.happened`,
};

/**
 * The usage events take the public SDK's types besides the analytics ones, and quire records its own: a
 * material created, uploaded, processed or deleted, with the material as `resource_id`. They are written by
 * statement triggers on `materials`, in the transaction of the change they describe, so a change that rolls
 * back records nothing and a job that runs twice (its status guard lets one settle the material) records once;
 * their event ids are derived from the change as well, so a replay of the same change conflicts and is dropped.
 * quire's own events belong to no student or group (both columns become nullable) and count in no report.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const type of SDK_EVENT_TYPES)
    await sql`alter type usage_event_type add value if not exists ${sql.lit(type)}`.execute(db);
  await db.schema
    .alterTable('usage_events')
    .alterColumn('group_id', (c) => c.dropNotNull())
    .alterColumn('student_id', (c) => c.dropNotNull())
    .addColumn('resource_id', 'text')
    .execute();
  await db.schema
    .createIndex('usage_events_resource_idx')
    .on('usage_events')
    .columns(['organization_id', 'resource_id', 'occurred_at'])
    .where(sql.ref('resource_id'), 'is not', null)
    .execute();
  // What the retention of `api_call` events deletes by. Not partial on the type: a value added to an enum
  // cannot be used in the transaction that added it, and the migrations run in one.
  await db.schema
    .createIndex('usage_events_type_time_idx')
    .on('usage_events')
    .columns(['type', 'occurred_at'])
    .execute();

  const triggers = [
    { event: 'insert', referencing: 'new table as came', select: materialEvents.insert },
    { event: 'update', referencing: 'old table as went new table as came', select: materialEvents.update },
  ];
  for (const t of triggers) {
    await sql`
      create function ${sql.raw(`material_usage_events_on_${t.event}`)}() returns trigger language plpgsql as $$
      begin
        insert into usage_events (organization_id, event_id, type, resource_id, value, properties, occurred_at)
        select organization_id, event_id, type::usage_event_type, id, value, properties, now()
        from (${sql.raw(t.select)}) as events
        order by organization_id, event_id
        on conflict (organization_id, event_id) do nothing;
        return null;
      end $$`.execute(db);
    await sql
      .raw(
        `
      create trigger material_usage_events_${t.event} after ${t.event} on materials
      referencing ${t.referencing}
      for each statement execute function material_usage_events_on_${t.event}()`,
      )
      .execute(db);
  }
}
