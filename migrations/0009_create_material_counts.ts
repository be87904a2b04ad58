import { sql, type Kysely } from 'kysely';

/**
 * How many live (not deleted) materials each organization holds, kept by statement triggers in the same
 * transaction as the rows, so it is exact whenever the rows are. The unfiltered list answers its totalCount
 * from here instead of counting every live row of the organization for every page (5-7 ms at 100,000 rows).
 * Only a change of liveness moves a counter (creating, deleting), never processing, so the worker's commits
 * do not queue on the organization's counter row.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('material_counts')
    .addColumn('organization_id', 'text', (c) => c.primaryKey().references('organizations.id'))
    .addColumn('live', 'bigint', (c) => c.notNull())
    .execute();

  // Transition tables allow one event per trigger: a function each, the same sum over what came and went.
  const liveChange = (came: string, went: string) =>
    sql.raw(`
    insert into material_counts as c (organization_id, live)
    select organization_id, sum(delta) from (
      select organization_id, 1 as delta from ${came} where status <> 'deleted'
      union all
      select organization_id, -1 from ${went} where status <> 'deleted'
    ) as changes
    group by organization_id
    having sum(delta) <> 0
    on conflict (organization_id) do update set live = c.live + excluded.live;`);
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
      create function ${sql.raw(`material_counts_on_${e.event}`)}() returns trigger language plpgsql as $$
      begin
        ${liveChange(e.came, e.went)}
        return null;
      end $$`.execute(db);
    await sql
      .raw(
        `
      create trigger material_counts_${e.event} after ${e.event} on materials
      referencing ${e.referencing}
      for each statement execute function material_counts_on_${e.event}()`,
      )
      .execute(db);
  }

  await sql`
    insert into material_counts (organization_id, live)
    select organization_id, count(*) from materials where status <> 'deleted' group by organization_id`.execute(db);
}
