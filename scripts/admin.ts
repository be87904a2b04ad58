import { parseArgs } from 'node:util';
import { generateApiKey } from '@quire/api';
import {
  addGroupMembers,
  changeAuthAndWait,
  createGroup,
  createOrganization,
  findGroup,
  findGroupForAdmin,
  findOrganization,
  insertApiKey,
  listGroupMembers,
  revokeApiKey,
  upsertStudents,
  type Db,
} from '@quire/db';
import { WEBHOOK_USAGE, webhookCommands } from './admin-webhooks.ts';
import { openDatabase } from './database.ts';

const USAGE = `usage:
  admin org create --name NAME
  admin group create --org ORG_ID --name NAME [--plan-from ISO] [--plan-until ISO]
  admin key create --org ORG_ID [--group GROUP_ID]
  admin key revoke --id KEY_ID
  admin student add --group GROUP_ID --user-id USER_ID --name NAME
  admin student list --group GROUP_ID
${WEBHOOK_USAGE}`;

class UsageError extends Error {}

type Flags = Record<string, string | undefined>;

const required = (flags: Flags, name: string): string => {
  const value = flags[name];
  if (!value) throw new UsageError(`--${name} is required`);
  return value;
};

const optionalDate = (flags: Flags, name: string): Date | undefined => {
  const value = flags[name];
  if (value === undefined) return undefined;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new UsageError(`--${name} must be an ISO 8601 timestamp`);
  return date;
};

const existingGroup = async (db: Db, flags: Flags) => {
  const id = required(flags, 'group');
  const group = await findGroupForAdmin(db, id);
  if (!group) throw new UsageError(`group ${id} not found`);
  return group;
};

const commands: Record<string, (db: Db, flags: Flags, url: string) => Promise<unknown>> = {
  'org create': (db, flags) => createOrganization(db, required(flags, 'name')),
  'group create': async (db, flags) => {
    const organizationId = required(flags, 'org');
    if (!(await findOrganization(db, organizationId))) throw new UsageError(`organization ${organizationId} not found`);
    return createGroup(db, {
      organizationId,
      name: required(flags, 'name'),
      planValidFrom: optionalDate(flags, 'plan-from'),
      planValidUntil: optionalDate(flags, 'plan-until'),
    });
  },
  'key create': async (db, flags) => {
    const organizationId = required(flags, 'org');
    if (!(await findOrganization(db, organizationId))) throw new UsageError(`organization ${organizationId} not found`);
    const groupId = flags.group;
    if (groupId && !(await findGroup(db, organizationId, groupId))) {
      throw new UsageError(`group ${groupId} not found in organization ${organizationId}`);
    }
    const key = generateApiKey();
    const { id } = await insertApiKey(db, { organizationId, groupId, prefix: key.prefix, keyHash: key.hash });
    return { id, apiKey: key.apiKey };
  },
  // Returns once every api process has dropped the key from its cache: from then on none accepts it.
  'key revoke': async (db, flags, url) => {
    const id = required(flags, 'id');
    const { result, unheard } = await changeAuthAndWait(url, { kind: 'key', id }, () => revokeApiKey(db, id));
    if (!result) throw new UsageError(`key ${id} not found or already revoked`);
    if (unheard.length > 0)
      console.error(
        JSON.stringify({
          warning: `${unheard.length} api process(es) listening for revocations did not confirm this one within 5 s`,
          unheard,
        }),
      );
    return { id, revoked: true };
  },
  // The same student the usage events create: `--user-id` is the platform's id, the report's studentId.
  'student add': async (db, flags) => {
    const group = await existingGroup(db, flags);
    const userId = required(flags, 'user-id');
    const name = required(flags, 'name');
    await db.transaction().execute(async (trx) => {
      const ids = await upsertStudents(trx, group.organization_id, [{ userId, name, nameAsOf: new Date() }]);
      await addGroupMembers(trx, group.organization_id, [{ groupId: group.id, studentId: ids.get(userId)! }]);
    });
    return { groupId: group.id, studentId: userId, name };
  },
  'student list': async (db, flags) => {
    const group = await existingGroup(db, flags);
    const members = await listGroupMembers(db, group.organization_id, group.id);
    return { groupId: group.id, students: members.map((m) => ({ studentId: m.userId, name: m.name })) };
  },
  ...webhookCommands(required, (message) => {
    throw new UsageError(message);
  }),
};

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      org: { type: 'string' },
      group: { type: 'string' },
      id: { type: 'string' },
      'user-id': { type: 'string' },
      'plan-from': { type: 'string' },
      'plan-until': { type: 'string' },
      url: { type: 'string' },
      events: { type: 'string' },
    },
  });
  const command = commands[positionals.slice(0, 2).join(' ')];
  if (!command || positionals.length !== 2) throw new UsageError(`unknown command "${positionals.join(' ')}"`);
  const { db, url, close } = await openDatabase();
  try {
    console.log(JSON.stringify(await command(db, values, url)));
    return 0;
  } finally {
    await close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    if (err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      console.error(JSON.stringify({ error: (err as Error).message }));
      console.error(USAGE);
      process.exit(2);
    }
    console.error(JSON.stringify({ error: (err as Error).message }));
    process.exit(1);
  },
);
