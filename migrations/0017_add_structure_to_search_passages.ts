import { sql, type Kysely } from 'kysely';

/**
 * What a search passage knows of where it stands in the document: the headings above it (outermost first),
 * the slide of a deck and, for a PDF, the box around it on its page (`[x0, y0, x1, y1]` in points from the
 * top left). Empty for passages written before structure was kept, until their material is reprocessed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table search_passages
      add column heading text[],
      add column slide integer,
      add column box double precision[]
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table search_passages drop column heading, drop column slide, drop column box`.execute(db);
}
