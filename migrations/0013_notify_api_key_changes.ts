import { sql, type Kysely } from 'kysely';

/**
 * api processes cache what a key resolves to. Whatever changes that answer (a key revoked or deleted, a group's
 * plan changed or the group removed, an organization removed) announces it on `quire_auth_changes` from a
 * trigger, so every writer announces it, the admin CLI, a future endpoint or plain SQL alike, and the
 * announcement is sent when the change commits, never before. The payload names what changed:
 * `key:<id>`, `group:<id>` or `organization:<id>`.
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
}
