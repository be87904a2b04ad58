import { sql, type Kysely } from 'kysely';

/**
 * Two things api processes keep in memory and must never serve stale.
 *
 * API keys: api processes cache what a key resolves to. Whatever changes that answer (a key revoked or deleted, a group's
 * plan changed or the group removed, an organization removed) announces it on `quire_auth_changes` from a
 * trigger, so every writer announces it, the admin CLI, a future endpoint or plain SQL alike, and the
 * announcement is sent when the change commits, never before. The payload names what changed:
 * `key:<id>`, `group:<id>` or `organization:<id>`.
 *
 * Counts of a name search: counting an organization's matches reads every matching row (14 ms for 4,750 of
 * 100,000), so api processes keep each count with the organization's `listing_version`, which statement triggers
 * move in the rows' own transaction whenever a material comes, goes (deleted), is renamed or changes folder, and
 * only then: a count kept with the current version is exact. Processing (status, metadata) never moves it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const notifying = [
    { table: 'api_keys', kind: 'key', events: 'update or delete' },
    { table: 'groups', kind: 'group', events: 'update or delete' },
    { table: 'organizations', kind: 'organization', events: 'update or delete' },
  ];
  for (const t of notifying) {
    await sql
      .raw(
        `
      create function ${t.table}_notify_auth_change() returns trigger language plpgsql as $$
      begin
        perform pg_notify('quire_auth_changes', '${t.kind}:' || old.id);
        return null;
      end $$`,
      )
      .execute(db);
    await sql
      .raw(
        `
      create trigger ${t.table}_notify_auth_change after ${t.events} on ${t.table}
      for each row execute function ${t.table}_notify_auth_change()`,
      )
      .execute(db);
  }

  // A constant default is stored in the catalog: no rewrite.
  await sql`alter table material_counts add column listing_version bigint not null default 0`.execute(db);
  const bump = (changed: string) => `
    insert into material_counts as c (organization_id, live, listing_version)
    select distinct organization_id, 0, 1 from (${changed}) as changed
    on conflict (organization_id) do update set listing_version = c.listing_version + 1;`;
  const events = [
    { event: 'insert', referencing: 'new table as came', changed: 'select organization_id from came' },
    { event: 'delete', referencing: 'old table as went', changed: 'select organization_id from went' },
    {
      event: 'update',
      referencing: 'old table as went new table as came',
      changed: `
        select came.organization_id from came join went using (id)
        where came.name is distinct from went.name
          or came.folder_id is distinct from went.folder_id
          or (came.status = 'deleted') <> (went.status = 'deleted')`,
    },
  ];
  for (const e of events) {
    await sql
      .raw(
        `
      create function material_listing_version_on_${e.event}() returns trigger language plpgsql as $$
      begin
        ${bump(e.changed)}
        return null;
      end $$`,
      )
      .execute(db);
    await sql
      .raw(
        `
      create trigger material_listing_version_${e.event} after ${e.event} on materials
      referencing ${e.referencing}
      for each statement execute function material_listing_version_on_${e.event}()`,
      )
      .execute(db);
  }
}
