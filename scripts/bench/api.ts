import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import { v7 as uuidv7 } from 'uuid';
import type { Request, Response } from 'express';
import pino from 'pino';
import { ApiCallRecorder, recordApiCalls } from '@quire/api';
import { insertApiCallEvents, type Db } from '@quire/db';
import { seedMaterials } from '@quire/testkit/seed-materials';
import { startBenchStack } from './bench-stack.ts';
import { machine, positiveInt, printTable, reportWritten } from './results.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const TOPICS = [
  'Photosynthesis',
  'Algebra',
  'Geometry',
  'Poetry',
  'Chemistry',
  'Genetics',
  'Astronomy',
  'Economics',
  'History',
  'Geography',
  'Statistics',
  'Calculus',
  'Grammar',
  'Physics',
  'Ecology',
  'Philosophy',
  'Music theory',
  'Anatomy',
  'Programming',
  'Art history',
];
/** Matches one topic in TOPICS.length: a twentieth of the organization's materials. */
const SEARCH = 'photosynth';

interface Options {
  rows: number;
  otherRows: number;
  seconds: number;
  connections: number;
  /** `compare`: the cases against an api recording every `api_call` and one recording none, in turns. */
  apiCalls: 'all' | 'off' | 'compare';
  rounds: number;
}

function parseOptions(args: string[]): Options {
  const { values } = parseArgs({
    args,
    options: {
      rows: { type: 'string', default: '100000' },
      'other-rows': { type: 'string', default: '20000' },
      seconds: { type: 'string', default: '10' },
      connections: { type: 'string', default: '50' },
      'api-calls': { type: 'string', default: 'all' },
      rounds: { type: 'string', default: '3' },
    },
  });
  const int = (name: Exclude<keyof typeof values, 'api-calls'>) => positiveInt(values[name], name);
  const apiCalls = values['api-calls'];
  if (apiCalls !== 'all' && apiCalls !== 'off' && apiCalls !== 'compare')
    throw new Error('--api-calls must be all, off or compare');
  return {
    rows: int('rows'),
    otherRows: int('other-rows'),
    seconds: int('seconds'),
    connections: int('connections'),
    apiCalls,
    rounds: int('rounds'),
  };
}

/**
 * `count` materials for one organization, shaped as the worker leaves them: three in four PDFs of four pages (original,
 * two page images, preview and thumbnail in storage; page table and inline text in metadata), one in four
 * text notes, one in fifty `error`, one in a hundred deleted; created a minute apart, newest last.
 */
export async function loadMaterials(db: Db, organizationId: string, count: number): Promise<void> {
  const end = Date.now() - 60_000;
  const created = Array.from({ length: count }, (_, i) => end - (count - i) * 60_000);
  const ids = created.map((msecs) => uuidv7({ msecs }));
  const sentence =
    'Light energy is converted into chemical energy stored in glucose, releasing oxygen as a by-product. ';
  const columns = [
    'id',
    'organization_id',
    'folder_id',
    'name',
    'content_type',
    'status',
    'content',
    'metadata',
    'references',
    'extract_images',
    'storage_bytes',
    'derived_bytes',
    'processing_started_at',
    'created_at',
    'updated_at',
  ] as const;
  await seedMaterials(
    db,
    columns,
    sql`
    select t.id, ${organizationId}::text, null,
      (${TOPICS}::text[])[1 + (t.n / 4) % ${TOPICS.length}] || case when t.n % 4 = 0 then ' notes ' else ' lecture ' end || t.n,
      case when t.n % 4 = 0 then 'text' else 'pdf' end,
      case when t.n % 100 = 3 then 'deleted' when t.n % 50 = 1 then 'error' else 'active' end,
      case when t.n % 4 = 0 then jsonb_build_object('text', repeat(${sentence}, 6))
        else jsonb_build_object('s3Key', t.key || '/original', 'filename', 'lecture-' || t.n || '.pdf',
          'fileSize', 180000 + t.n % 90000, 'mimeType', 'application/pdf') end,
      case
        when t.n % 50 = 1 then jsonb_build_object('error', jsonb_build_object('code', 'CORRUPT',
          'message', 'The PDF could not be parsed: Invalid XRef stream header'), 'processingMs', 412)
        when t.n % 4 = 0 then jsonb_build_object('format', 'plain', 'wordCount', 96, 'textLength', 606,
          'extractedText', repeat(${sentence}, 6), 'images', '[]'::jsonb, 'processingMs', 9,
          'extractor', jsonb_build_object('name', 'text', 'version', 2))
        else jsonb_build_object('pageCount', 4, 'pages', p.pages, 'title', 'Lecture ' || t.n, 'producer', 'LibreOffice 7.6',
          'wordCount', 650, 'textLength', 4040, 'extractedText', repeat(${sentence}, 40),
          'images', jsonb_build_array(
            jsonb_build_object('id', t.id || '-1', 's3Key', t.key || '/derived/r1/page-2.webp', 'page', 2, 'width', 1240, 'height', 1754, 'format', 'webp', 'kind', 'page'),
            jsonb_build_object('id', t.id || '-2', 's3Key', t.key || '/derived/r1/page-5.webp', 'page', 3, 'width', 1240, 'height', 1754, 'format', 'webp', 'kind', 'page')),
          'preview', jsonb_build_object('id', t.id || '-3', 's3Key', t.key || '/derived/r1/preview.webp', 'page', 1, 'width', 1240, 'height', 1754, 'format', 'webp'),
          'thumbnail', jsonb_build_object('id', t.id || '-4', 's3Key', t.key || '/derived/r1/thumbnail.webp', 'page', 1, 'width', 256, 'height', 362, 'format', 'webp'),
          'processingMs', 1840, 'peakMemoryMb', 96, 'extractor', jsonb_build_object('name', 'pdf-parse', 'version', 2))
      end,
      case when t.n % 10 = 0 then jsonb_build_array(jsonb_build_object('title', 'Course page', 'url', 'https://example.org/course/' || t.n))
        else '[]'::jsonb end,
      true,
      case when t.n % 4 = 0 then 0 else 180000 + t.n % 90000 end,
      case when t.n % 4 = 0 or t.n % 50 = 1 then 0 else 412000 end,
      t.created_at, t.created_at, t.created_at + interval '3 seconds'
    from (
      select id, created_at, n, ${organizationId} || '/' || id as key
      from unnest(${ids}::text[], ${created.map((ms) => new Date(ms).toISOString())}::timestamptz[]) with ordinality as u(id, created_at, n)
    ) as t,
    (select jsonb_agg(jsonb_build_object('page', g, 'offset', (g - 1) * 1010, 'length', 1000, 'wordCount', 162)) as pages
     from generate_series(1, 4) as g) as p`,
  );
}

/** Starts memory-server.ts in its own process with the given bodies and returns its base URL. */
async function startMemoryServer(bodiesFile: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(HERE, 'memory-server.ts'), bodiesFile], {
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [line] = await Promise.race([
    createInterface({ input: child.stdout })
      [Symbol.asyncIterator]()
      .next()
      .then((r) => [r.value as string]),
    new Promise<never>((_, reject) =>
      child.once('exit', (code) => reject(new Error(`memory server exited (${code})`))),
    ),
  ]);
  return {
    url: `http://127.0.0.1:${Number(line)}`,
    stop: () =>
      new Promise<void>((resolve) =>
        child.exitCode !== null ? resolve() : (child.once('exit', () => resolve()), child.kill('SIGTERM')),
      ),
  };
}

interface Case {
  name: string;
  path: (i: number) => string;
}

async function load(url: string, c: Case, headers: Record<string, string>, o: Options, seconds: number) {
  let i = 0;
  const result = await autocannon({
    url,
    connections: o.connections,
    duration: seconds,
    headers,
    requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: c.path(i++) }) }],
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${c.name} at ${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    bytesPerResponse: Math.round(result.throughput.total / result.requests.total),
    requests: result.requests.total,
  };
}

export async function run(args: string[]): Promise<void> {
  const o = parseOptions(args);
  const began = performance.now();
  const loadBefore = machine().loadAverage;
  console.log(
    `api benchmark: ${o.rows.toLocaleString('en')} materials, ${o.connections} connections, ${o.seconds} s per case`,
  );
  const stack = await startBenchStack();
  let memory: Awaited<ReturnType<typeof startMemoryServer>> | undefined;
  try {
    const tenant = await stack.newTenant();
    const other = await stack.newTenant();
    const t = performance.now();
    await loadMaterials(stack.db, tenant.organizationId, o.rows);
    await loadMaterials(stack.db, other.organizationId, o.otherRows);
    await sql`vacuum (analyze) materials`.execute(stack.db);
    const loadSeconds = Math.round((performance.now() - t) / 100) / 10;
    console.log(`  loaded and vacuumed in ${loadSeconds} s`);

    const api = await stack.startApi({ API_CALL_EVENTS: o.apiCalls === 'off' ? 'off' : 'all' });
    const headers = { 'x-api-key': tenant.apiKey };
    const { rows } = await sql<{ id: string }>`
      select id from materials where organization_id = ${tenant.organizationId} and status <> 'deleted' order by random() limit 200`.execute(
      stack.db,
    );
    const ids = rows.map((r) => r.id);
    const cases: Case[] = [
      { name: 'list limit=20', path: () => '/api/v1/materials?limit=20' },
      { name: `list limit=20 search=${SEARCH}`, path: () => `/api/v1/materials?limit=20&search=${SEARCH}` },
      { name: 'get by id', path: (i) => `/api/v1/materials/${ids[i % ids.length]}` },
    ];
    const fetchJson = async (p: string) => {
      const res = await fetch(`${api.url}${p}`, { headers });
      if (!res.ok) throw new Error(`${p}: ${res.status} ${await res.text()}`);
      return res.json() as Promise<{ totalCount?: number }>;
    };
    if (o.apiCalls === 'compare') {
      const withoutCalls = await stack.startApi({ API_CALL_EVENTS: 'off' });
      const apis = {
        on: { url: api.url, pid: api.process.child.pid! },
        off: { url: withoutCalls.url, pid: withoutCalls.process.child.pid! },
      };
      await compareApiCalls(stack.db, tenant.organizationId, apis, cases, headers, o, began, loadBefore);
      return;
    }
    const materials: Record<string, unknown> = {};
    for (const id of ids) materials[id] = await fetchJson(`/api/v1/materials/${id}`);
    const bodies = { list: await fetchJson(cases[0]!.path(0)), search: await fetchJson(cases[1]!.path(0)), materials };
    console.log(`  totalCount ${bodies.list.totalCount}, with search ${bodies.search.totalCount}`);
    const bodiesFile = path.join(stack.dataDir, 'bodies.json');
    await fs.writeFile(bodiesFile, JSON.stringify(bodies));
    memory = await startMemoryServer(bodiesFile);

    // In rounds, api and memory server in turns (the order flipping each round), so that a change in the shared
    // machine's load falls on both; each case's ratio is the median of its rounds' ratios.
    const results: ({ case: string; server: string; round: number } & Awaited<ReturnType<typeof load>>)[] = [];
    const servers = [
      ['api', api.url],
      ['from memory', memory.url],
    ] as const;
    for (let round = 1; round <= o.rounds; round++) {
      for (const c of cases) {
        for (const [server, url] of round % 2 ? servers : [...servers].reverse()) {
          await load(url, c, headers, o, 2);
          results.push({ case: c.name, server, round, ...(await load(url, c, headers, o, o.seconds)) });
        }
      }
      console.log(`  round ${round} of ${o.rounds} done (load ${machine().loadAverage[0]})`);
    }
    const of = (c: Case, server: string) => results.filter((r) => r.case === c.name && r.server === server);
    const rowsOut = cases.flatMap((c) => {
      const [fromApi, fromMemory] = [of(c, 'api'), of(c, 'from memory')];
      const ratios = fromApi.map((r, i) => fromMemory[i]!.requestsPerSecond / r.requestsPerSecond);
      const row = (server: string, runs: typeof results, ratio: string) => ({
        case: c.name,
        server,
        'req/s': Math.round(median(runs.map((r) => r.requestsPerSecond))),
        'p50 ms': median(runs.map((r) => r.p50)),
        'p99 ms': median(runs.map((r) => r.p99)),
        'KB/resp': Math.round(median(runs.map((r) => r.bytesPerResponse)) / 102.4) / 10,
        'api/memory': ratio,
        rounds: ratios.map((x) => x.toFixed(2)).join(' '),
      });
      return [
        row('api', fromApi, `${median(ratios).toFixed(2)}x slower`),
        { ...row('from memory', fromMemory, ''), rounds: '' },
      ];
    });
    const summary = {
      benchmark: 'api',
      date: new Date().toISOString(),
      machine: { ...machine(), loadAverageBefore: loadBefore },
      dataset: {
        materials: o.rows,
        otherOrganizationMaterials: o.otherRows,
        search: SEARCH,
        totalCount: bodies.list.totalCount,
        searchTotalCount: bodies.search.totalCount,
      },
      loadSeconds,
      measuredThrough:
        `autocannon in this process, ${o.connections} connections, ${o.seconds} s per case after a 2 s warm-up, ${o.rounds} rounds ` +
        "with api and memory server in turns (medians of the rounds; the ratio is the median of the rounds' ratios), against the api " +
        'process (embedded Postgres, redis-server, local storage; rate limiter on with limits out of reach) and against ' +
        'memory-server.ts, a minimal Express app in its own process answering the same bodies from memory with res.json. ' +
        'get by id cycles through 200 random live materials (the memory server holds the same 200 bodies).',
      results,
      totalSeconds: Math.round((performance.now() - began) / 100) / 10,
    };
    console.log('');
    printTable(rowsOut);
    await reportWritten('api', summary, loadBefore);
  } finally {
    await memory?.stop();
    await stack.stop();
  }
}

/** A process's user + system CPU seconds so far (Linux `/proc/<pid>/stat`, in clock ticks of 1/100 s). */
async function cpuSeconds(pid: number): Promise<number> {
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/**
 * The cost of recording `api_call` events: each case against two api processes of the same database, one with
 * API_CALL_EVENTS=all and one with off, in turns (off, on, off, on, ...) so that a change in the machine's load
 * falls on both; medians of the rounds, and on/off per round.
 */
async function compareApiCalls(
  db: Db,
  organizationId: string,
  apis: Record<'on' | 'off', { url: string; pid: number }>,
  cases: Case[],
  headers: Record<string, string>,
  o: Options,
  began: number,
  loadBefore: number[],
): Promise<void> {
  type Measured = Awaited<ReturnType<typeof load>> & { apiCpuMsPerRequest: number };
  const results: { case: string; round: number; recording: 'on' | 'off'; result: Measured }[] = [];
  for (const c of cases) {
    for (let round = 1; round <= o.rounds; round++) {
      for (const recording of ['off', 'on'] as const) {
        const { url, pid } = apis[recording];
        await load(url, c, headers, o, 2);
        const cpuBefore = await cpuSeconds(pid);
        const measured = await load(url, c, headers, o, o.seconds);
        // The api's own CPU per request: what the recording adds to the process, less moved by other load than req/s.
        const apiCpuMsPerRequest = (((await cpuSeconds(pid)) - cpuBefore) * 1000) / measured.requests;
        results.push({ case: c.name, round, recording, result: { ...measured, apiCpuMsPerRequest } });
        console.log(`  ${c.name} round ${round} (recording ${recording}) done`);
      }
    }
  }
  const { rows } = await sql<{ calls: number }>`
    select count(*)::int as calls from usage_events where type = 'api_call'`.execute(db);
  // What Postgres spends on the events: batches of 500 written as the recorder writes them, on one connection
  // whose server process's CPU is read before and after (wall time on a shared machine says more about the others).
  const batches = 40;
  const events = batches * 500;
  const { writeUsPerEvent, writeCpuUsPerEvent } = await db.connection().execute(async (conn) => {
    const { rows: backend } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(conn);
    const cpuBefore = await cpuSeconds(backend[0]!.pid);
    const written = performance.now();
    for (let b = 0; b < batches; b++) {
      await insertApiCallEvents(
        conn,
        Array.from({ length: 500 }, (_, i) => ({
          eventId: `api_call:bench-${b}-${i}`,
          organizationId,
          groupId: null,
          occurredAt: new Date(),
          durationMs: 12.5,
          properties: {
            endpoint: 'GET /api/v1/materials/{id}',
            method: 'GET',
            status: 200,
            durationMs: 12.5,
            keyId: 'k',
          },
        })),
      );
    }
    return {
      writeUsPerEvent: Math.round(((performance.now() - written) * 1000) / events),
      writeCpuUsPerEvent: Math.round((((await cpuSeconds(backend[0]!.pid)) - cpuBefore) * 1e6) / events),
    };
  });
  const recordUsPerRequest = recorderCostPerRequest();
  const rowsOut = cases.flatMap((c) => {
    const of = (recording: 'on' | 'off') =>
      results.filter((r) => r.case === c.name && r.recording === recording).map((r) => r.result);
    const on = of('on');
    const off = of('off');
    const ratios = on.map((r, i) => r.requestsPerSecond / off[i]!.requestsPerSecond);
    return [
      {
        case: c.name,
        'off req/s': median(off.map((r) => r.requestsPerSecond)),
        'on req/s': median(on.map((r) => r.requestsPerSecond)),
        'off p50/p99 ms': `${median(off.map((r) => r.p50))} / ${median(off.map((r) => r.p99))}`,
        'on p50/p99 ms': `${median(on.map((r) => r.p50))} / ${median(on.map((r) => r.p99))}`,
        'on/off req/s per round': ratios.map((r) => r.toFixed(2)).join(' '),
        'median on/off': median(ratios).toFixed(3),
        'api CPU ms/req off': median(off.map((r) => r.apiCpuMsPerRequest)).toFixed(3),
        'api CPU ms/req on': median(on.map((r) => r.apiCpuMsPerRequest)).toFixed(3),
      },
    ];
  });
  console.log('');
  printTable(rowsOut);
  console.log(`\n${rows[0]!.calls.toLocaleString('en')} api_call events written by the recording api`);
  console.log(
    `writing them in batches of 500, per event: ${writeCpuUsPerEvent} µs of Postgres CPU, ${writeUsPerEvent} µs of wall time`,
  );
  console.log(
    `the api's side of recording one request (middleware, buffer), in-process: ${recordUsPerRequest.cpu} µs of CPU, ${recordUsPerRequest.wall} µs of wall time`,
  );
  const summary = {
    benchmark: 'api --api-calls compare',
    date: new Date().toISOString(),
    machine: { ...machine(), loadAverageBefore: loadBefore },
    measuredThrough:
      `autocannon in this process, ${o.connections} connections, ${o.seconds} s per case and round after a 2 s warm-up, ` +
      'against two api processes of one database: API_CALL_EVENTS=off and =all, in turns.',
    apiCallEvents: rows[0]!.calls,
    results,
    summary: rowsOut,
    totalSeconds: Math.round((performance.now() - began) / 100) / 10,
  };
  await reportWritten('api-calls', summary, loadBefore);
}

/**
 * What recording costs the api per request, in this process and without Postgres: the middleware (the route
 * template is the metrics' own, matched anyway) and a recorder whose writes go nowhere, over 200,000 made-up
 * requests answered at once.
 */
function recorderCostPerRequest(): { cpu: number; wall: number } {
  const table = { insert: async () => {}, deleteBefore: async () => 0 };
  const settings = { mode: 'all', sampleRate: 1, retentionDays: 0, flushIntervalMs: 1000, batchMax: 500 } as const;
  const recorder = new ApiCallRecorder(table, settings, pino({ level: 'silent' }));
  const middleware = recordApiCalls(recorder);
  const principal = { keyId: 'k', organizationId: 'o', groupId: null, planValidFrom: null, planValidUntil: null };
  const requests = 200_000;
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  for (let i = 0; i < requests; i++) {
    const req = { method: 'GET', path: `/api/v1/materials/0193a1b2-${i}`, principal } as unknown as Request;
    const listeners: (() => void)[] = [];
    const res = {
      statusCode: 200,
      locals: { routeTemplate: '/api/v1/materials/{id}' },
      once: (_: string, f: () => void) => listeners.push(f),
    } as unknown as Response;
    middleware(req, res, () => {});
    for (const f of listeners) f();
  }
  const wall = ((performance.now() - started) * 1000) / requests;
  const { user, system } = process.cpuUsage(cpuBefore);
  void recorder.close();
  const round = (us: number) => Math.round(us * 100) / 100;
  return { cpu: round((user + system) / requests), wall: round(wall) };
}
