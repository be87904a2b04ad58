import type { Selectable } from 'kysely';
import type { Db } from './connection.ts';
import type { SpeechChunksTable, SpeechSegment } from './schema.ts';

export type SpeechChunk = Selectable<SpeechChunksTable>;

export interface PlannedChunk {
  index: number;
  startMs: number;
  endMs: number;
  audioKey: string;
}

/**
 * Records a plan's chunks, keeping those already transcribed (a re-planned run reuses them),
 * and forgets the chunks of any other plan of the material: a new file or chunk length starts over.
 */
export async function recordChunkPlan(db: Db, materialId: string, plan: string, chunks: PlannedChunk[]): Promise<void> {
  await db.deleteFrom('speech_chunks').where('material_id', '=', materialId).where('plan', '<>', plan).execute();
  if (chunks.length === 0) return;
  await db
    .insertInto('speech_chunks')
    .values(
      chunks.map((c) => ({
        material_id: materialId,
        plan,
        chunk_index: c.index,
        start_ms: c.startMs,
        end_ms: c.endMs,
        audio_key: c.audioKey,
      })),
    )
    .onConflict((oc) =>
      oc
        .columns(['material_id', 'plan', 'chunk_index'])
        // A transcribed chunk keeps its words; any other takes the new audio (the old object may be gone) and,
        // if it had been given up on, another chance.
        .doUpdateSet((eb) => ({ audio_key: eb.ref('excluded.audio_key'), error: null, finished_at: null }))
        .where('speech_chunks.segments', 'is', null),
    )
    .execute();
}

export async function findSpeechChunk(
  db: Db,
  materialId: string,
  plan: string,
  index: number,
): Promise<SpeechChunk | undefined> {
  return db
    .selectFrom('speech_chunks')
    .selectAll()
    .where('material_id', '=', materialId)
    .where('plan', '=', plan)
    .where('chunk_index', '=', index)
    .executeTakeFirst();
}

export async function listSpeechChunks(db: Db, materialId: string, plan: string): Promise<SpeechChunk[]> {
  return db
    .selectFrom('speech_chunks')
    .selectAll()
    .where('material_id', '=', materialId)
    .where('plan', '=', plan)
    .orderBy('chunk_index')
    .execute();
}

/** Keeps a chunk's words (times relative to the chunk); the first finish wins, so a duplicate run changes nothing. */
export async function finishSpeechChunk(
  db: Db,
  key: { materialId: string; plan: string; index: number },
  outcome: { segments: SpeechSegment[] } | { error: string },
): Promise<void> {
  await db
    .updateTable('speech_chunks')
    .set({
      segments: 'segments' in outcome ? JSON.stringify(outcome.segments) : null,
      error: 'error' in outcome ? outcome.error : null,
      finished_at: new Date(),
    })
    .where('material_id', '=', key.materialId)
    .where('plan', '=', key.plan)
    .where('chunk_index', '=', key.index)
    .where('finished_at', 'is', null)
    .execute();
}

/** How many of a plan's chunks are finished (transcribed or given up on), for progress. */
export async function countFinishedSpeechChunks(
  db: Db,
  materialId: string,
  plan: string,
): Promise<{ finished: number; total: number }> {
  const row = await db
    .selectFrom('speech_chunks')
    .select((eb) => [eb.fn.countAll<string>().as('total'), eb.fn.count<string>('finished_at').as('finished')])
    .where('material_id', '=', materialId)
    .where('plan', '=', plan)
    .executeTakeFirstOrThrow();
  return { finished: Number(row.finished), total: Number(row.total) };
}

/** Every chunk the material has, of whatever plan, in order: what job status, debugging and cancelling look at. */
export async function listAllSpeechChunks(db: Db, materialId: string): Promise<SpeechChunk[]> {
  return db
    .selectFrom('speech_chunks')
    .selectAll()
    .where('material_id', '=', materialId)
    .orderBy('plan')
    .orderBy('chunk_index')
    .execute();
}
