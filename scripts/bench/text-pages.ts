import path from 'node:path';
import fs from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { startBenchStack, stopProcess } from './bench-stack.ts';
import { machine, positiveInt, printTable, reportWritten, summarize } from './results.ts';
import { RssSampler } from './upload.ts';

const MB = 1024 ** 2;

/** Prose in paragraphs of about 600 characters, some outside ASCII, up to `bytes`. */
function paragraphs(bytes: number, wrap: (paragraph: string) => string): Buffer {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const paragraph = wrap(
      `Paragraph ${i}: the water cycle moves water between the oceans, the air and the land — évaporation, ` +
        `condensation, précipitation. ${'Rivers carry it back to the sea over months and years. '.repeat(9)}`,
    );
    parts.push(paragraph);
    size += Buffer.byteLength(paragraph);
  }
  return Buffer.from(parts.join(''));
}

const plainText = (bytes: number) => paragraphs(bytes, (p) => `${p}\n\n`);
const webPage = (bytes: number) =>
  Buffer.concat([
    Buffer.from(
      '<!doctype html><html><head><title>The water cycle</title></head><body><article><h1>The water cycle</h1>\n',
    ),
    paragraphs(bytes, (p) => `<p>${p}</p>\n`),
    Buffer.from('</article></body></html>\n'),
  ]);

/**
 * `npm run bench -- text-pages [--mb 28] [--parallel 8] [--rounds 3]`: the api's resident memory and each
 * answer's time while `parallel` requests read `/text?format=json&limit=1` of a long plain text and a long web
 * page at once, and how long `/healthz` takes meanwhile. Each material is read as processed now (segments of at
 * most 16,384 characters) and as stored before (its whole text one segment, written back into storage), which is
 * what materials processed before the change still have.
 */
export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      mb: { type: 'string', default: '28' },
      parallel: { type: 'string', default: '8' },
      rounds: { type: 'string', default: '3' },
    },
  });
  const mb = positiveInt(values.mb, 'mb');
  const parallel = positiveInt(values.parallel, 'parallel');
  const rounds = positiveInt(values.rounds, 'rounds');
  const loadBefore = machine().loadAverage;
  const started = performance.now();
  const stack = await startBenchStack();
  try {
    const api = await stack.startApi();
    // The page's extraction is not what is measured: give it room.
    const worker = await stack.startWorker({
      WORKER_CONCURRENCY: '1',
      EXTRACT_TIMEOUT_MS: '1800000',
      EXTRACT_MAX_MEMORY_MB: '8192',
    });
    const { apiKey } = await stack.newTenant();
    const headers = { 'x-api-key': apiKey };

    const upload = async (name: string, body: Buffer, filename: string) => {
      const form = new FormData();
      form.append('name', name);
      form.append('timeoutMs', '600000');
      form.append('file', new Blob([body]), filename);
      const t0 = performance.now();
      const res = await fetch(`${api.url}/api/v1/materials/upload/file-and-process`, {
        method: 'POST',
        headers,
        body: form,
      });
      const material = (await res.json()) as { _id: string; status: string; metadata: Record<string, unknown> };
      if (res.status !== 201) throw new Error(`${name}: ${res.status} ${JSON.stringify(material).slice(0, 500)}`);
      console.log(
        `${name}: ${(body.length / MB).toFixed(1)} MB processed in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
      );
      return material;
    };

    /** Rewrites the stored segments as a worker did before segments were cut: the whole text, one line. */
    const storeAsOneSegment = async (material: { _id: string; metadata: Record<string, unknown> }) => {
      const text = await (await fetch(`${api.url}/api/v1/materials/${material._id}/text`, { headers })).text();
      const file = path.join(stack.env.STORAGE_DIR!, material.metadata.segmentsKey as string);
      const segment = { text, offset: 0, source: 'text-layer' };
      await fs.writeFile(file, `${JSON.stringify(segment)}\n`);
    };

    const measure = async (id: string) => {
      const sampler = new RssSampler(api.process.child.pid!);
      const rows: { rssBeforeMb: number; maxRssMb: number; answersMs: number[]; healthzMs: number[] }[] = [];
      for (let round = 0; round < rounds; round++) {
        const rssBeforeMb = await sampler.start();
        let reading = true;
        const healthzMs: number[] = [];
        const healthz = (async () => {
          while (reading) {
            const t0 = performance.now();
            await fetch(`${api.url}/healthz`).then((r) => r.arrayBuffer());
            healthzMs.push(performance.now() - t0);
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
        })();
        const answersMs = await Promise.all(
          Array.from({ length: parallel }, async () => {
            const t0 = performance.now();
            const res = await fetch(`${api.url}/api/v1/materials/${id}/text?format=json&limit=1`, { headers });
            const page = (await res.json()) as { segments: { text: string }[]; hasMore: boolean };
            if (res.status !== 200 || page.segments.length !== 1 || !page.hasMore) {
              throw new Error(`unexpected page: ${res.status} ${JSON.stringify(page).slice(0, 300)}`);
            }
            return performance.now() - t0;
          }),
        );
        reading = false;
        await healthz;
        const { maxRssMb } = await sampler.stop();
        rows.push({ rssBeforeMb, maxRssMb, answersMs, healthzMs });
      }
      return rows;
    };

    const materials = [
      { kind: 'plain text', material: await upload('Long plain text', plainText(mb * MB), 'long.txt') },
      { kind: 'web page', material: await upload('Long web page', webPage(mb * MB), 'long.html') },
    ];
    await stopProcess(worker);
    const results: Record<string, unknown>[] = [];
    for (const stored of ['as processed now', 'one segment, as before'] as const) {
      for (const { kind, material } of materials) {
        if (stored === 'one segment, as before') await storeAsOneSegment(material);
        for (const row of await measure(material._id)) {
          const answers = summarize(row.answersMs);
          results.push({
            material: kind,
            stored,
            rssBeforeMb: Math.round(row.rssBeforeMb),
            rssGrowthMb: Math.round(row.maxRssMb - row.rssBeforeMb),
            answerP50Ms: answers.p50,
            answerMaxMs: answers.max,
            healthzMaxMs: Math.round(Math.max(0, ...row.healthzMs) * 10) / 10,
          });
        }
      }
    }
    console.log(
      `\n${parallel} parallel GET /text?format=json&limit=1 per round, ${rounds} rounds per row; ` +
        "rssGrowthMb is the api's largest VmRSS (read every 20 ms) minus its VmRSS before the round",
    );
    printTable(results as Record<string, string | number>[]);
    const totalSeconds = Math.round((performance.now() - started) / 100) / 10;
    const summary = { totalSeconds, mb, parallel, rounds, machine: machine(), results };
    await reportWritten('text-pages', summary, loadBefore);
  } finally {
    await stack.stop();
  }
}
