import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // One stretch of a long recording, transcribed by whichever worker took its job. A finished chunk's
  // transcript is kept here, so a retried, re-enqueued or re-planned run never transcribes it again, and a
  // chunk that failed on its last attempt is recorded as such, so the joined transcript can say what is missing.
  // `plan` names the cut (a hash of the bytes and the chunk length): a new file or setting never reuses old rows.
  await db.schema
    .createTable('speech_chunks')
    .addColumn('material_id', 'text', (c) => c.notNull().references('materials.id').onDelete('cascade'))
    .addColumn('plan', 'text', (c) => c.notNull())
    .addColumn('chunk_index', 'integer', (c) => c.notNull())
    .addColumn('start_ms', 'bigint', (c) => c.notNull())
    .addColumn('end_ms', 'bigint', (c) => c.notNull())
    .addColumn('audio_key', 'text', (c) => c.notNull())
    .addColumn('segments', 'jsonb')
    .addColumn('error', 'text')
    .addColumn('finished_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('speech_chunks_pk', ['material_id', 'plan', 'chunk_index'])
    .execute();
}
