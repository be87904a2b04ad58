import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { scannedPdf, scanOf, wordF1 } from '@quire/testkit';
import { oneOffSandbox } from '../../apps/worker/src/sandbox/run-sandboxed.ts';
import { benchSettings, textOnlySpec } from './sandbox-spec.ts';
import { machine, positiveInt, printTable, reportWritten } from './results.ts';

const WORDS =
  'the water cycle moves between oceans air and land plants take light energy cells divide during growth rivers carry salt to the sea students measure temperature pressure and volume in every lesson'.split(
    ' ',
  );

/** A page of `lines` lines of plain words, different on every page. */
function pageLines(page: number, lines: number): string[] {
  return Array.from({ length: lines }, (_, line) =>
    Array.from({ length: 7 }, (_, word) => WORDS[(page * 31 + line * 7 + word * 13) % WORDS.length]).join(' '),
  );
}

interface Config {
  name: string;
  languages: string[];
  dpi: number;
}

/**
 * `npm run bench -- ocr`: the cost of reading scanned PDF pages, per page, through the worker's sandbox:
 * the text layer, PDFium rendering and tesseract, one engine per document, as the worker runs them.
 */
export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { pages: { type: 'string', default: '6' }, lines: { type: 'string', default: '25' } },
  });
  const pages = positiveInt(values.pages, 'pages');
  const lines = positiveInt(values.lines, 'lines');
  const loadBefore = machine().loadAverage;
  const started = performance.now();
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-bench-ocr-'));
  try {
    const drawn = Array.from({ length: pages }, (_, i) => pageLines(i + 1, lines));
    const file = path.join(dir, 'scan.pdf');
    await fs.writeFile(file, await scannedPdf(await Promise.all(drawn.map((page) => scanOf(page)))));
    const configs: Config[] = [
      { name: 'eng, 300 dpi (default)', languages: ['eng'], dpi: 300 },
      { name: 'eng, 200 dpi', languages: ['eng'], dpi: 200 },
      { name: 'eng+fra, 300 dpi', languages: ['eng', 'fra'], dpi: 300 },
    ];
    const rows = [];
    // Forward, then backward: a machine that gets busier or quieter during the run favours no configuration.
    for (const config of [...configs, ...[...configs].reverse()]) {
      const outputDir = path.join(dir, `out-${rows.length}`);
      await fs.mkdir(outputDir);
      const spec = textOnlySpec('pdf', file, outputDir);
      const settings = { ...benchSettings(), ocrLanguages: config.languages, ocrMaxPages: pages, ocrDpi: config.dpi };
      const t0 = performance.now();
      const outcome = await oneOffSandbox(settings)(spec, { timeoutMs: 30 * 60_000, maxMemoryMb: 2048 }, () => {});
      const ms = performance.now() - t0;
      if (!outcome.ok) throw new Error(`${config.name}: ${outcome.code} ${outcome.message}`);
      const segments = outcome.result.segments;
      const f1 =
        drawn.reduce(
          (sum, page, i) => sum + wordF1(segments.find((s) => s.page === i + 1)?.text ?? '', page.join(' ')),
          0,
        ) / pages;
      rows.push({
        config: config.name,
        pages,
        'ms/page': Math.round(ms / pages),
        'total s': Math.round(ms / 100) / 10,
        'child peak MB': Math.round(outcome.peakRssMb),
        'word F1': Math.round(f1 * 1000) / 1000,
        'load (1 min)': machine().loadAverage[0]!,
      });
    }
    console.log(`\nocr benchmark: ${pages} scanned pages (200 dpi scans, ${lines} lines each) through runSandboxed\n`);
    printTable(rows);
    const summary = { machine: machine(), rows, totalSeconds: Math.round((performance.now() - started) / 1000) };
    await reportWritten('ocr', summary, loadBefore);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
