import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { newId, type Db } from '@quire/db';
import { seedMaterials } from '@quire/testkit/seed-materials';
import { startBenchStack } from './bench-stack.ts';
import { machine, positiveInt, printTable, reportWritten, summarize } from './results.ts';
import {
  buildLabelledSet,
  inventWords,
  seededRandom,
  zipfSampler,
  type LabelledDocument,
  type LabelledQuery,
  type QueryKind,
} from './search-data.ts';

interface Options {
  documents: number;
  queriesPerKind: number;
  materials: number;
  samples: number;
}

function parseOptions(args: string[]): Options {
  const { values } = parseArgs({
    args,
    options: {
      documents: { type: 'string', default: '300' },
      'queries-per-kind': { type: 'string', default: '100' },
      materials: { type: 'string', default: '100000' },
      samples: { type: 'string', default: '200' },
    },
  });
  const int = (name: keyof typeof values) => positiveInt(values[name], name);
  return {
    documents: int('documents'),
    queriesPerKind: int('queries-per-kind'),
    materials: int('materials'),
    samples: int('samples'),
  };
}

export const TOP = 10;

// Only this throwaway database runs without durability, to load in minutes; queries are unaffected.
const POSTGRES_FLAGS = [
  ['shared_buffers', '512MB'],
  ['maintenance_work_mem', '512MB'],
  ['max_wal_size', '8GB'],
  ['fsync', 'off'],
  ['synchronous_commit', 'off'],
  ['full_page_writes', 'off'],
].flatMap(([name, value]) => ['-c', `${name}=${value}`]);

/**
 * Okapi BM25 (k1 = 1.2, b = 0.75, Lucene's idf) over whole documents, words lower-cased, no stemming, quotes
 * ignored: the yardstick the issue measured quire against, not the product.
 */
export function plainBm25(documents: LabelledDocument[]): (query: string) => string[] {
  const k1 = 1.2;
  const b = 0.75;
  const tokens = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const docs = documents.map((d) => {
    const tf = new Map<string, number>();
    const words = tokens(d.text);
    for (const w of words) tf.set(w, (tf.get(w) ?? 0) + 1);
    return { id: d.id, tf, length: words.length };
  });
  const df = new Map<string, number>();
  for (const d of docs) for (const w of d.tf.keys()) df.set(w, (df.get(w) ?? 0) + 1);
  const avgdl = docs.reduce((s, d) => s + d.length, 0) / docs.length;
  const n = docs.length;
  return (query) => {
    const terms = [...new Set(tokens(query))];
    return docs
      .map((d) => {
        let score = 0;
        for (const t of terms) {
          const f = d.tf.get(t);
          if (!f) continue;
          const idf = Math.log(1 + (n - df.get(t)! + 0.5) / (df.get(t)! + 0.5));
          score += (idf * f * (k1 + 1)) / (f + k1 * (1 - b + (b * d.length) / avgdl));
        }
        return { id: d.id, score };
      })
      .filter((d) => d.score > 0)
      .sort((x, y) => y.score - x.score || x.id.localeCompare(y.id))
      .slice(0, TOP)
      .map((d) => d.id);
  };
}

export interface Scores {
  queries: number;
  mrrAt10: number;
  hitAt1: number;
  notInTop10: number;
}

export function score(queries: Pick<LabelledQuery, 'answer'>[], ranked: string[][]): Scores {
  const ranks = queries.map((q, i) => ranked[i]!.slice(0, TOP).indexOf(q.answer));
  const round = (x: number) => Math.round(x * 1000) / 1000;
  return {
    queries: queries.length,
    mrrAt10: round(ranks.reduce((s, r) => s + (r === -1 ? 0 : 1 / (r + 1)), 0) / queries.length),
    hitAt1: round(ranks.filter((r) => r === 0).length / queries.length),
    notInTop10: ranks.filter((r) => r === -1).length,
  };
}

function byKind(queries: LabelledQuery[], ranked: string[][]): Record<QueryKind | 'all', Scores> {
  const kinds: QueryKind[] = ['natural', 'phrase', 'misspelled'];
  const of = (kind: QueryKind) => {
    const picked = queries.flatMap((q, i) => (q.kind === kind ? [i] : []));
    return score(
      picked.map((i) => queries[i]!),
      picked.map((i) => ranked[i]!),
    );
  };
  return { all: score(queries, ranked), ...Object.fromEntries(kinds.map((k) => [k, of(k)])) } as Record<
    QueryKind | 'all',
    Scores
  >;
}

export async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!);
      }
    }),
  );
  return out;
}

type SearchBody = { results: { material: { id: string } }[] };

/** Fills an organization with `count` active text materials and their passages in bulk SQL (not through the api). */
async function seedSearchMaterials(db: Db, organizationId: string, count: number): Promise<string[][]> {
  const random = seededRandom(100);
  const taken = new Set<string>();
  const background = inventWords(random, 3000, 1, taken);
  const topics = inventWords(random, 20000, 2, taken);
  const nextBackground = zipfSampler(random, background.length);
  const topicWordsOf: string[][] = [];
  const BATCH = 2000;
  for (let start = 0; start < count; start += BATCH) {
    const ids: string[] = [];
    const names: string[] = [];
    const texts: string[] = [];
    for (let i = start; i < Math.min(count, start + BATCH); i++) {
      const own = Array.from({ length: 6 }, () => topics[Math.floor(random() * topics.length)]!);
      topicWordsOf.push(own);
      const words = Array.from({ length: 130 }, () => background[nextBackground()]!);
      for (const w of own) words.splice(Math.floor(random() * words.length), 0, w);
      ids.push(newId());
      names.push(`Seeded ${i + 1}`);
      texts.push(words.join(' '));
    }
    await seedMaterials(
      db,
      [
        'id',
        'organization_id',
        'folder_id',
        'name',
        'content_type',
        'status',
        'content',
        'metadata',
        'references',
        'created_at',
        'updated_at',
      ],
      sql`
        select id, ${organizationId}::text, null, name, 'text', 'active', '{}'::jsonb, '{}'::jsonb, '[]'::jsonb, now(), now()
        from unnest(${ids}::text[], ${names}::text[]) as t(id, name)`,
    );
    await sql`
      insert into search_passages (material_id, chunk_index, organization_id, text)
      select id, 0, ${organizationId}, text from unnest(${ids}::text[], ${texts}::text[]) as t(id, text)`.execute(db);
  }
  // Query words: three of one material's topic words and two ordinary words (past the 50 most common, which
  // play the part of stop words in this invented language).
  const queries: string[][] = [];
  for (let i = 0; i < 1000; i++) {
    const own = topicWordsOf[Math.floor(random() * topicWordsOf.length)]!.slice(0, 3);
    let common = background[nextBackground()]!;
    while (background.indexOf(common) < 50) common = background[nextBackground()]!;
    let other = background[nextBackground()]!;
    while (background.indexOf(other) < 50 || other === common) other = background[nextBackground()]!;
    queries.push([own[0]!, common, own[1]!, other, own[2]!]);
  }
  return queries;
}

export async function run(args: string[]): Promise<void> {
  const o = parseOptions(args);
  const began = performance.now();
  const loadBefore = machine().loadAverage;
  const set = buildLabelledSet({ documents: o.documents, queriesPerKind: o.queriesPerKind });
  console.log(
    `search benchmark: ${set.documents.length} generated documents, ${set.queries.length} labelled queries ` +
      `(natural, phrase, misspelled), then p95 of 5-word queries at ${o.materials} materials`,
  );
  const stack = await startBenchStack({ postgresFlags: POSTGRES_FLAGS });
  try {
    const { url } = await stack.startApi();
    await stack.startWorker();
    const tenant = await stack.newTenant();
    const call = async (path: string, body: unknown, apiKey = tenant.apiKey) => {
      const res = await fetch(`${url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
        body: JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
      return res.json();
    };

    const docOfMaterial = new Map<string, string>();
    await mapLimit(set.documents, 4, async (doc) => {
      const m = (await call('/api/v1/materials/upload-and-process', {
        name: doc.name,
        content: { text: doc.text },
        timeoutMs: 120_000,
      })) as {
        _id: string;
        status: string;
      };
      if (m.status !== 'active') throw new Error(`${doc.id} is ${m.status}`);
      docOfMaterial.set(m._id, doc.id);
    });

    const quire: string[][] = [];
    for (const q of set.queries) {
      const body = (await call('/api/v1/materials/search', { query: q.query, topK: TOP })) as SearchBody;
      // Passages of one material count once, at the rank of its best passage.
      quire.push([...new Set(body.results.map((r) => docOfMaterial.get(r.material.id)!))]);
    }
    const bm25 = plainBm25(set.documents);
    const baseline = set.queries.map((q) => bm25(q.query));
    const relevance = { quire: byKind(set.queries, quire), bm25: byKind(set.queries, baseline) };
    printTable(
      (['all', 'natural', 'phrase', 'misspelled'] as const).flatMap((kind) =>
        (['quire', 'bm25'] as const).map((system) => ({ kind, system, ...relevance[system][kind] })),
      ),
    );

    const scale = await stack.newTenant();
    const seedStarted = performance.now();
    const queryWords = await seedSearchMaterials(stack.db, scale.organizationId, o.materials);
    await sql`vacuum analyze`.execute(stack.db);
    const seedSeconds = Math.round((performance.now() - seedStarted) / 100) / 10;
    const timed = async (words: string[]) => {
      const started = performance.now();
      await call('/api/v1/materials/search', { query: words.join(' '), topK: TOP }, scale.apiKey);
      return performance.now() - started;
    };
    for (const words of queryWords.slice(0, 20)) await timed(words);
    const samples: number[] = [];
    for (const words of queryWords.slice(20, 20 + o.samples)) samples.push(await timed(words));
    const latency = summarize(samples);
    console.log(`\n${o.materials} materials seeded in ${seedSeconds} s; 5-word queries, one client, topK ${TOP}:`);
    printTable([{ ...latency }]);

    const summary = {
      benchmark: 'search',
      date: new Date().toISOString(),
      machine: { ...machine(), loadAverageBefore: loadBefore },
      labelledSet: {
        documents: set.documents.length,
        queries: set.queries.length,
        generator: 'scripts/bench/search-data.ts',
      },
      relevance,
      latency: { materials: o.materials, seedSeconds, queryWords: 5, topK: TOP, ...latency },
      totalSeconds: Math.round((performance.now() - began) / 1000),
    };
    await reportWritten('search', summary, loadBefore);
  } finally {
    await stack.stop();
  }
}
