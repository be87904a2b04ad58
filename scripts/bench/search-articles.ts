import { parseArgs } from 'node:util';
import { startBenchStack } from './bench-stack.ts';
import { machine, positiveInt, printTable, reportWritten } from './results.ts';
import { mapLimit, plainBm25, score, TOP, type Scores } from './search.ts';
import {
  buildArticleQueries,
  readArticleHtml,
  readArticlePages,
  type ArticleQuery,
  type ArticleQueryKind,
  type Half,
} from './search-articles-set.ts';

interface Options {
  halves: Half[];
  concurrency: number;
  verbose: boolean;
}

function parseOptions(args: string[]): Options {
  const { values } = parseArgs({
    args,
    options: {
      half: { type: 'string', default: 'both' },
      concurrency: { type: 'string', default: '4' },
      /** Prints the tuning queries quire ranks below BM25. */
      verbose: { type: 'boolean', default: false },
    },
  });
  const halves: Record<string, Half[]> = { tuning: ['tuning'], 'held-out': ['held-out'], both: ['tuning', 'held-out'] };
  if (!halves[values.half]) throw new Error('--half must be tuning, held-out or both');
  return {
    halves: halves[values.half]!,
    concurrency: positiveInt(values.concurrency, 'concurrency'),
    verbose: values.verbose,
  };
}

type SearchBody = { results: { material: { id: string } }[] };

const KINDS: (ArticleQueryKind | 'all')[] = ['all', 'natural', 'phrase'];

function scoresOf(queries: ArticleQuery[], ranked: string[][], half: Half, kind: ArticleQueryKind | 'all'): Scores {
  const picked = queries.flatMap((q, i) => (q.half === half && (kind === 'all' || q.kind === kind) ? [i] : []));
  return score(
    picked.map((i) => queries[i]!),
    picked.map((i) => ranked[i]!),
  );
}

/**
 * `npm run bench -- search-articles`: search relevance on real web pages (see `search-articles-set.ts`). Each page
 * goes in as a file through `upload/file-and-process` (api and worker as processes: the worker sniffs, extracts
 * and cuts passages as for any upload), each query through `POST /api/v1/materials/search` (`topK` 10, a material
 * counted once at its best passage), next to plain BM25 over the text quire extracted (`GET .../text`).
 * `--half tuning` reports the tuning half only: the held-out half is for the last run.
 */
export async function run(args: string[]): Promise<void> {
  const o = parseOptions(args);
  const began = performance.now();
  const loadBefore = machine().loadAverage;
  const pages = await readArticlePages();
  const allQueries = buildArticleQueries(pages);
  const queries = allQueries.filter((q) => o.halves.includes(q.half));
  console.log(
    `search-articles benchmark: ${pages.length} web pages (trafilatura's evaluation set), ${queries.length} of ` +
      `${allQueries.length} known-item queries (${o.halves.join(' and ')}), ranked over all pages`,
  );
  const stack = await startBenchStack();
  try {
    const { url } = await stack.startApi();
    await stack.startWorker();
    const tenant = await stack.newTenant();
    const headers = { 'x-api-key': tenant.apiKey };

    const uploadStarted = performance.now();
    const materialOf = new Map<string, string>();
    const notActive: { file: string; status: number; message: string }[] = [];
    await mapLimit(pages, o.concurrency, async (page) => {
      const form = new FormData();
      form.append('name', page.file);
      form.append('extractImages', 'false');
      form.append('timeoutMs', '600000');
      form.append('file', new Blob([await readArticleHtml(page)], { type: 'text/html' }), page.file);
      const res = await fetch(`${url}/api/v1/materials/upload/file-and-process`, {
        method: 'POST',
        headers,
        body: form,
      });
      const body = (await res.json()) as { _id?: string; status?: string; message?: string };
      if (res.status === 201 && body.status === 'active') materialOf.set(page.file, body._id!);
      else notActive.push({ file: page.file, status: res.status, message: body.message ?? String(body.status) });
    });
    const uploadSeconds = Math.round((performance.now() - uploadStarted) / 100) / 10;
    console.log(`${materialOf.size} pages active, ${notActive.length} not, in ${uploadSeconds} s`);

    const fileOf = new Map([...materialOf].map(([file, id]) => [id, file]));
    const documents = await mapLimit(pages, o.concurrency, async (page) => {
      const id = materialOf.get(page.file);
      const res = id ? await fetch(`${url}/api/v1/materials/${id}/text`, { headers }) : undefined;
      if (res && !res.ok) throw new Error(`text of ${page.file} answered ${res.status}`);
      return { id: page.file, name: page.file, text: res ? await res.text() : '' };
    });

    const quire: string[][] = [];
    for (const q of queries) {
      const res = await fetch(`${url}/api/v1/materials/search`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ query: q.query, topK: TOP }),
      });
      if (!res.ok) throw new Error(`search "${q.query}" answered ${res.status}: ${await res.text()}`);
      const body = (await res.json()) as SearchBody;
      quire.push([...new Set(body.results.map((r) => fileOf.get(r.material.id)!))]);
    }
    const bm25 = plainBm25(documents);
    const baseline = queries.map((q) => bm25(q.query));

    const relevance = Object.fromEntries(
      o.halves.map((half) => [
        half,
        Object.fromEntries(
          KINDS.map((kind) => [
            kind,
            { quire: scoresOf(queries, quire, half, kind), bm25: scoresOf(queries, baseline, half, kind) },
          ]),
        ),
      ]),
    ) as Record<Half, Record<ArticleQueryKind | 'all', { quire: Scores; bm25: Scores }>>;
    printTable(
      o.halves.flatMap((half) =>
        KINDS.flatMap((kind) =>
          (['quire', 'bm25'] as const).map((system) => ({ half, kind, system, ...relevance[half][kind][system] })),
        ),
      ),
    );

    const rankOf = (ranked: string[], answer: string) => {
      const at = ranked.indexOf(answer);
      return at === -1 ? null : at + 1;
    };
    const perQuery = queries.map((q, i) => ({
      ...q,
      quire: rankOf(quire[i]!, q.answer),
      bm25: rankOf(baseline[i]!, q.answer),
      quireTop: quire[i]![0] ?? null,
    }));
    if (o.verbose) {
      // The tuning half only: the held-out half's queries are not for looking at.
      console.log('\ntuning queries quire ranks below BM25 (rank, or - when not in the top 10):');
      for (const q of perQuery)
        if (q.half === 'tuning' && (q.quire ?? 99) > (q.bm25 ?? 99))
          console.log(`${q.half} ${q.kind} quire ${q.quire ?? '-'} bm25 ${q.bm25 ?? '-'}  ${q.query}  [${q.answer}]`);
    }

    const summary = {
      benchmark: 'search-articles',
      date: new Date().toISOString(),
      machine: { ...machine(), loadAverageBefore: loadBefore },
      set: {
        pages: pages.length,
        active: materialOf.size,
        notActive,
        queries: queries.length,
        rule: 'scripts/bench/search-articles-set.ts',
      },
      halves: o.halves,
      uploadSeconds,
      relevance,
      perQuery,
      totalSeconds: Math.round((performance.now() - began) / 1000),
    };
    await reportWritten('search-articles', summary, loadBefore);
  } finally {
    await stack.stop();
  }
}
