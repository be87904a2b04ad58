import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual, parseArgs } from 'node:util';
import { sql } from 'kysely';
import { buildGroupReport, type ReportName, type ReportSource } from '@quire/api';
import { createDb, createGroup, createOrganization, insertUsageEventsFrom, migrateToLatest, type Db } from '@quire/db';
import { startEmbeddedPostgres } from '@quire/stack';
import { machine, positiveInt, printTable, reportWritten, summarize } from './results.ts';

const DAY_MS = 86_400_000;
const ORGANIZATIONS = 2;
/** Events are loaded in slices of this many days, each through the product's insert statement. */
const SLICE_DAYS = 10;
/** The seed's three reports and `chat`, the new report that sums the most counters (six chats and their total). */
const ENDPOINTS: ReportName[] = ['live-lecture', 'tests', 'engagement', 'chat'];

// Only this throwaway database runs without durability, to load in minutes; queries are unaffected.
const POSTGRES_FLAGS = [
  ['shared_buffers', '1GB'],
  ['work_mem', '64MB'],
  ['maintenance_work_mem', '1GB'],
  ['max_wal_size', '16GB'],
  ['checkpoint_timeout', '30min'],
  ['fsync', 'off'],
  ['synchronous_commit', 'off'],
  ['full_page_writes', 'off'],
  // Vacuumed once, explicitly, after the load.
  ['autovacuum', 'off'],
].flatMap(([name, value]) => ['-c', `${name}=${value}`]);

interface Options {
  events: number;
  students: number;
  groups: number;
  days: number;
  samples: number;
  rawSamples: number;
  loaders: number;
  dataDir?: string;
}

function parseOptions(args: string[]): Options {
  const { values } = parseArgs({
    args,
    options: {
      events: { type: 'string', default: '10000000' },
      students: { type: 'string', default: '1000' },
      groups: { type: 'string', default: '20' },
      days: { type: 'string', default: '730' },
      samples: { type: 'string', default: '40' },
      'raw-samples': { type: 'string', default: '12' },
      loaders: { type: 'string', default: '2' },
      // Reuse (or create and keep) a loaded database between runs instead of a fresh temporary one.
      'data-dir': { type: 'string' },
    },
  });
  const int = (name: keyof typeof values) => positiveInt(values[name], name);
  const options = {
    events: int('events'),
    students: int('students'),
    groups: int('groups'),
    days: int('days'),
    samples: int('samples'),
    rawSamples: int('raw-samples'),
    loaders: int('loaders'),
    dataDir: values['data-dir'],
  };
  if (options.students % options.groups !== 0) throw new Error('--students must be a multiple of --groups');
  if (options.groups % ORGANIZATIONS !== 0) throw new Error(`--groups must be a multiple of ${ORGANIZATIONS}`);
  return options;
}

interface Dataset {
  organizations: string[];
  /** Per group: its id and its organization. */
  groups: { id: string; organizationId: string }[];
  /** Midnight UTC after the last loaded day. */
  end: number;
}

/** Days `[from, from + days)`, holding events numbered `first..last`. */
interface Slice {
  from: number;
  days: number;
  first: number;
  last: number;
}

const seconds = (since: number) => Math.round((performance.now() - since) / 100) / 10;

async function loadDataset(db: Db, o: Options, log: (line: string) => void): Promise<Dataset> {
  const end = Math.floor(Date.now() / DAY_MS) * DAY_MS;
  const start = end - o.days * DAY_MS;
  const organizations = [];
  for (let i = 0; i < ORGANIZATIONS; i++)
    organizations.push((await createOrganization(db, `Bench organization ${i + 1}`)).id);
  const plan = { planValidFrom: new Date(start), planValidUntil: new Date(end + 365 * DAY_MS) };
  const groups: Dataset['groups'] = [];
  for (let g = 0; g < o.groups; g++) {
    const organizationId = organizations[Math.floor((g * ORGANIZATIONS) / o.groups)]!;
    groups.push({
      id: (await createGroup(db, { organizationId, name: `Class ${g + 1}`, ...plan })).id,
      organizationId,
    });
  }
  const perGroup = o.students / o.groups;
  // Student s belongs to group floor(s / perGroup).
  const orgOf = Array.from({ length: o.students }, (_, s) => groups[Math.floor(s / perGroup)]!.organizationId);
  const groupOf = Array.from({ length: o.students }, (_, s) => groups[Math.floor(s / perGroup)]!.id);
  const { rows } = await sql<{ id: number }>`
    insert into students (organization_id, user_id, name)
    select t.org, 'student-' || lpad(t.s::text, 5, '0'), 'Student ' || lpad(t.s::text, 5, '0')
    from unnest(${orgOf}::text[]) with ordinality as t(org, s)
    order by t.s
    returning id`.execute(db);
  const studentIds = rows.map((r) => r.id).sort((a, b) => a - b);
  await sql`
    insert into group_members (organization_id, group_id, student_id)
    select * from unnest(${orgOf}::text[], ${groupOf}::text[], ${studentIds}::bigint[])`.execute(db);

  const slices: Slice[] = [];
  for (let day = 0; day < o.days; day += SLICE_DAYS) {
    const days = Math.min(SLICE_DAYS, o.days - day);
    const first = Math.round((o.events * day) / o.days);
    const last = Math.round((o.events * (day + days)) / o.days) - 1;
    slices.push({ from: start + day * DAY_MS, days, first, last });
  }
  const population = { groups, perGroup, studentIds };

  // The product's statement, minus what only slows a bulk load: foreign key triggers (every id here comes
  // from the rows just made) and the secondary indexes, rebuilt from their own definitions afterwards.
  const { rows: indexes } = await sql<{ indexname: string; indexdef: string }>`
    select indexname, indexdef from pg_indexes
    where tablename = 'usage_events' and indexname not in (select conname from pg_constraint)`.execute(db);
  for (const index of indexes) await sql`drop index ${sql.ref(index.indexname)}`.execute(db);
  const began = performance.now();
  let loaded = 0;
  const loader = async () => {
    await db.connection().execute(async (connection) => {
      await sql`set session_replication_role = replica`.execute(connection);
      for (let slice = slices.shift(); slice; slice = slices.shift()) {
        const accepted = await insertUsageEventsFrom(connection, eventsOfSlice(slice, population));
        loaded += accepted;
        if (slices.length % 10 === 0) log(`  ${loaded.toLocaleString('en')} events loaded (${seconds(began)} s)`);
      }
      await sql`set session_replication_role = origin`.execute(connection);
    });
  };
  await Promise.all(Array.from({ length: o.loaders }, loader));
  log(`  ${loaded.toLocaleString('en')} events in ${seconds(began)} s; rebuilding indexes...`);
  await Promise.all(indexes.map((index) => sql.raw(index.indexdef).execute(db)));
  return { organizations, groups, end };
}

/**
 * Random but plausible activity of every event type: students of every group, daytime hours (07:00-23:00 UTC),
 * chat and answers most frequent, 70% of answers correct, engagement sessions of 30 s to 60 min.
 */
function eventsOfSlice(slice: Slice, p: { groups: Dataset['groups']; perGroup: number; studentIds: number[] }) {
  return sql`(
    select r.org as organization_id, 'ev' || lpad(r.n::text, 10, '0') as event_id, r.grp as group_id, r.student as student_id,
      (case
        when r.t < 0.15 then 'engagement'
        when r.t < 0.35 then 'live_chat_message_sent'
        when r.t < 0.38 then 'live_session_created'
        when r.t < 0.40 then 'test_created'
        when r.t < 0.47 then 'test_question_created'
        when r.t < 0.67 then 'test_question_answered'
        when r.t < 0.72 then 'test_chat_question'
        when r.t < 0.80 then 'tutor_me_message_sent'
        when r.t < 0.85 then 'material_chat_message_sent'
        when r.t < 0.90 then 'main_chat_message_sent'
        when r.t < 0.92 then 'flashcard_set_created'
        when r.t < 0.97 then 'flashcard_created'
        when r.t < 0.99 then 'flashcard_chat_question'
        else 'explainer_video_created'
      end)::usage_event_type as type,
      case when r.t >= 0.47 and r.t < 0.67 then r.v < 0.7 end as correct,
      date_trunc('milliseconds', ${new Date(slice.from).toISOString()}::timestamptz + r.day * interval '1 day' + (7 + r.hour * 16) * interval '1 hour') as occurred_at,
      case when r.t < 0.15 then (30000 + r.v * 3570000)::bigint end as value,
      null::jsonb as properties
    from (
      select n,
        (${p.groups.map((g) => g.organizationId)}::text[])[x.s / ${p.perGroup} + 1] as org,
        (${p.groups.map((g) => g.id)}::text[])[x.s / ${p.perGroup} + 1] as grp,
        (${p.studentIds}::bigint[])[x.s + 1] as student,
        x.t, x.v, x.day, x.hour
      from (
        select n, floor(random() * ${p.studentIds.length})::int as s, random() as t, random() as v,
          floor(random() * ${slice.days})::int as day, random() as hour
        from generate_series(${slice.first}::bigint, ${slice.last}::bigint) as n
      ) as x
    ) as r)`;
}

interface Case {
  name: ReportName;
  students: boolean;
  source: ReportSource;
  alignedStart: boolean;
}

export async function run(args: string[]): Promise<void> {
  const o = parseOptions(args);
  const log = (line: string) => console.log(line);
  const dataDir = o.dataDir ?? (await fs.mkdtemp(path.join(os.tmpdir(), 'quire-bench-')));
  // Postgres runs as its own user when we are root; it must be able to create its directory here.
  await fs.mkdir(dataDir, { recursive: true });
  await fs.chmod(dataDir, 0o777);
  const began = performance.now();
  const loadBefore = machine().loadAverage;
  log(
    `analytics benchmark: ${o.events.toLocaleString('en')} events, ${o.students} students in ${o.groups} groups over ${o.days} days`,
  );
  const postgres = await startEmbeddedPostgres({ dataDir: path.join(dataDir, 'postgres'), flags: POSTGRES_FLAGS });
  const db = createDb(postgres.url, { poolSize: Math.max(4, o.loaders) });
  try {
    await migrateToLatest(db);
    const stateFile = path.join(dataDir, 'dataset.json');
    const shape = { events: o.events, students: o.students, groups: o.groups, days: o.days };
    const saved = await fs.readFile(stateFile, 'utf8').then(
      (raw) => JSON.parse(raw) as Dataset & { shape: typeof shape },
      () => undefined,
    );
    let dataset: Dataset;
    const load: Record<string, number> = {};
    if (saved) {
      if (!isDeepStrictEqual(saved.shape, shape))
        throw new Error(`${dataDir} holds a dataset of another shape; use another --data-dir`);
      dataset = saved;
      log(`reusing the dataset in ${dataDir}`);
    } else {
      let t = performance.now();
      dataset = await loadDataset(db, o, log);
      load.eventsSeconds = seconds(t);
      t = performance.now();
      log('vacuum and analyze...');
      await sql`vacuum (analyze) usage_events, usage_daily`.execute(db);
      load.vacuumSeconds = seconds(t);
      if (o.dataDir) await fs.writeFile(stateFile, JSON.stringify({ ...dataset, shape }));
    }
    const sizes = await sql<Record<string, string>>`
      select pg_size_pretty(pg_total_relation_size('usage_events')) as usage_events,
             pg_size_pretty(pg_total_relation_size('usage_daily')) as usage_daily,
             (select count(*) from usage_daily)::text as daily_rows`.execute(db);
    log(`sizes: ${JSON.stringify(sizes.rows[0])}`);

    // A year ending at a moment of the day, as the default endDate (now) does; starting at midnight or at
    // the same odd moment of the day a year before.
    const endDate = dataset.end - (5 * 3_600_000 + 17 * 60_000 + 3_456);
    const yearBefore = endDate - 365 * DAY_MS;
    const range = (aligned: boolean) => ({
      start: new Date(aligned ? Math.floor(yearBefore / DAY_MS) * DAY_MS : yearBefore),
      end: new Date(endDate),
    });
    const ctx = { db };
    const reportOf = (c: Case, group: Dataset['groups'][number]) =>
      buildGroupReport(
        ctx,
        { organizationId: group.organizationId, groupId: group.id },
        c.name,
        { ...range(c.alignedStart), students: c.students },
        c.source,
      );

    const cases: Case[] = ENDPOINTS.flatMap((name) =>
      [false, true].flatMap((students) => [
        { name, students, source: 'counters' as const, alignedStart: true },
        { name, students, source: 'counters' as const, alignedStart: false },
        { name, students, source: 'raw' as const, alignedStart: false },
      ]),
    );

    log('checking that counters and raw events give identical reports...');
    const mismatches: string[] = [];
    for (const c of cases.filter((c) => c.source === 'counters')) {
      const group = dataset.groups[0]!;
      const fromCounters = await reportOf(c, group);
      const fromRaw = await reportOf({ ...c, source: 'raw' }, group);
      if (!isDeepStrictEqual(fromCounters, fromRaw))
        mismatches.push(`${c.name} students=${c.students} alignedStart=${c.alignedStart}`);
    }
    log(mismatches.length === 0 ? '  identical' : `  MISMATCH: ${mismatches.join('; ')}`);

    log('measuring...');
    // Cases take turns, round by round, so a burst of load from elsewhere on the machine spreads over all
    // of them instead of spoiling one. Two warm-up rounds are not counted.
    const timings = cases.map(() => [] as number[]);
    const reportCounts = cases.map(() => 0);
    for (let round = -2; round < o.samples; round++) {
      const group = dataset.groups[(round + 2) % dataset.groups.length]!;
      for (const [i, c] of cases.entries()) {
        if (round >= (c.source === 'raw' ? o.rawSamples : o.samples)) continue;
        const t = performance.now();
        const body = await reportOf(c, group);
        JSON.stringify(body);
        if (round >= 0) timings[i]!.push(performance.now() - t);
        reportCounts[i] = body.reports.length;
      }
    }
    const results = cases.map((c, i) => ({
      endpoint: c.name,
      level: c.students ? 'student' : 'group',
      source: c.source,
      start: c.alignedStart ? 'midnight' : 'mid-day',
      reports: reportCounts[i]!,
      ...summarize(timings[i]!),
    }));

    const summary = {
      benchmark: 'analytics',
      date: new Date().toISOString(),
      machine: { ...machine(), loadAverageBefore: loadBefore },
      dataset: {
        events: o.events,
        students: o.students,
        groups: o.groups,
        studentsPerGroup: o.students / o.groups,
        days: o.days,
        sizes: sizes.rows[0],
      },
      load,
      range: {
        from: range(true).start.toISOString(),
        fromMidDay: range(false).start.toISOString(),
        to: new Date(endDate).toISOString(),
      },
      measuredThrough:
        'buildGroupReport (the service behind the endpoints) in process, plus JSON.stringify of its answer; ' +
        'not HTTP, not authentication. One request at a time; each round asks every case for the next group.',
      identicalToRaw: mismatches.length === 0,
      mismatches,
      results,
      totalSeconds: seconds(began),
    };
    console.log('');
    printTable(
      results.map((r) => ({
        endpoint: r.endpoint,
        level: r.level,
        source: r.source,
        start: r.start,
        reports: r.reports,
        'p50 ms': r.p50,
        'p95 ms': r.p95,
        'max ms': r.max,
        n: r.samples,
      })),
    );
    await reportWritten('analytics', summary, loadBefore);
  } finally {
    await db.destroy();
    await postgres.stop();
    if (!o.dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  }
}
