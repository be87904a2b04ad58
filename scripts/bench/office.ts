import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { wordF1 } from '@quire/testkit';
import { SandboxPool } from '../../apps/worker/src/sandbox/pool.ts';
import { flatOdfText } from './flat-odf-text.ts';
import { benchSettings, textOnlySpec } from './sandbox-spec.ts';
import { machine, positiveInt, printTable, reportWritten } from './results.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SOFFICE = '/usr/bin/soffice';

/**
 * Each group's files and how LibreOffice writes their text. The reference is LibreOffice's own document model
 * written as flat OpenDocument (`flat`, read by `flatOdfText`: every text node of the body, notes, headers and
 * footers, alt text, charts). The export (`filter`) is what the speed line times, and its text is kept as a
 * second column: Writer exports text itself; Impress and Calc have no text export, so they print to PDF and
 * pdftotext (untimed) reads that.
 */
const GROUPS = [
  { name: 'word', extensions: ['docx', 'odt'], filter: 'txt:Text (encoded):UTF8', output: 'txt', flat: 'fodt' },
  { name: 'slides', extensions: ['pptx', 'odp'], filter: 'pdf', output: 'pdf', flat: 'fodp' },
  { name: 'sheets', extensions: ['xlsx', 'xlsm', 'ods'], filter: 'pdf', output: 'pdf', flat: 'fods' },
] as const;

interface FileRow {
  file: string;
  group: string;
  /** Every other file of a group in sorted order (the first one included) is for tuning, the rest held out. */
  half: 'tuning' | 'held-out';
  quireMs: number;
  ok: boolean;
  /** Word F1 against LibreOffice's document model (its flat OpenDocument). */
  f1?: number;
  /** The share of LibreOffice's words quire's text has: what LibreOffice reads that quire would miss. */
  recall?: number;
  /** The same against LibreOffice's text export (Writer) or its PDF print read by pdftotext (Impress, Calc). */
  exportF1?: number;
  exportRecall?: number;
  /** LibreOffice did not convert the file within its budget: it is left out of the speed comparison. */
  libreOfficeStalled?: boolean;
}

const bagOf = (text: string) => {
  const counts = new Map<string, number>();
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) counts.set(word, (counts.get(word) ?? 0) + 1);
  return counts;
};

function recallOf(text: string, reference: string): number {
  const ours = bagOf(text);
  let found = 0;
  let total = 0;
  for (const [word, count] of bagOf(reference)) {
    total += count;
    found += Math.min(count, ours.get(word) ?? 0);
  }
  return total === 0 ? 1 : found / total;
}

export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      corpus: { type: 'string', default: path.join(ROOT, 'test', 'fixtures', 'office') },
      'timeout-ms': { type: 'string', default: '60000' },
      // Lists every file's F1 (the tuning half is what rules may be designed on).
      verbose: { type: 'boolean', default: false },
      // Writes each file's two texts (quire's, LibreOffice's flat ODF reading) into this folder, to compare.
      dump: { type: 'string' },
    },
  });
  const timeoutMs = positiveInt(values['timeout-ms'], 'timeout-ms');
  const loadBefore = machine().loadAverage;
  const entries = await fs.readdir(values.corpus, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((entry) => entry.isFile() && !entry.parentPath.includes('robustness'))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
  const work = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-office-bench-'));
  const pool = new SandboxPool({
    slots: 1,
    maxJobs: Number.MAX_SAFE_INTEGER,
    recycleRssMb: 1024,
    spares: 0,
    maxMemoryMb: 2048,
    settings: benchSettings(),
    logger: { info() {}, warn() {}, debug() {} },
  });
  await pool.start();
  const started = performance.now();
  const rows: FileRow[] = [];
  const summary: Record<string, string | number>[] = [];
  try {
    for (const group of GROUPS) {
      const members = files.filter((file) => (group.extensions as readonly string[]).includes(extensionOf(file)));
      if (members.length === 0) continue;
      const quire = new Map<string, { ms: number; ok: boolean; text: string }>();
      for (const file of members) {
        const outputDir = path.join(work, 'out');
        await fs.rm(outputDir, { recursive: true, force: true });
        await fs.mkdir(outputDir, { recursive: true });
        const begun = performance.now();
        const outcome = await pool.run(
          textOnlySpec('text', file, outputDir),
          { timeoutMs, maxMemoryMb: 2048 },
          () => {},
        );
        quire.set(file, {
          ms: performance.now() - begun,
          ok: outcome.ok,
          text: outcome.ok ? outcome.result.text : '',
        });
      }
      const libre = await convertWithLibreOffice(group, members, path.join(work, group.name), timeoutMs);
      for (const [index, file] of members.entries()) {
        const ours = quire.get(file)!;
        const reference = libre.flatTexts.get(file);
        const exported = libre.texts.get(file);
        rows.push({
          file: path.relative(values.corpus, file),
          group: group.name,
          half: index % 2 === 0 ? 'tuning' : 'held-out',
          quireMs: Math.round(ours.ms),
          ok: ours.ok,
          ...(libre.stalled.includes(file) ? { libreOfficeStalled: true } : {}),
          ...(reference !== undefined && reference.trim()
            ? { f1: wordF1(ours.text, reference), recall: recallOf(ours.text, reference) }
            : {}),
          ...(exported !== undefined && exported.trim()
            ? { exportF1: wordF1(ours.text, exported), exportRecall: recallOf(ours.text, exported) }
            : {}),
        });
        if (values.dump) {
          const base = path.join(values.dump, path.basename(file));
          await fs.mkdir(values.dump, { recursive: true });
          await fs.writeFile(`${base}.quire.txt`, ours.text);
          if (reference !== undefined) await fs.writeFile(`${base}.libreoffice.txt`, reference);
        }
      }
      const groupRows = rows.filter((row) => row.group === group.name);
      const scored = groupRows.filter((row) => row.f1 !== undefined);
      const exportScored = groupRows.filter((row) => row.exportF1 !== undefined);
      // Time per file over the files both converted.
      const timed = groupRows.filter((row) => !row.libreOfficeStalled);
      const quireMsPerFile = timed.reduce((sum, row) => sum + row.quireMs, 0) / timed.length;
      const libreMsPerFile = libre.ms / timed.length;
      summary.push({
        group: group.name,
        files: members.length,
        active: groupRows.filter((row) => row.ok).length,
        'LibreOffice stalled': libre.stalled.length,
        'quire ms/file': Math.round(quireMsPerFile),
        'LibreOffice ms/file': Math.round(libreMsPerFile),
        speedup: Math.round((libreMsPerFile / quireMsPerFile) * 10) / 10,
        'word F1 vs LibreOffice (flat ODF)': meanOf(scored.map((row) => row.f1!)),
        'F1 tuning': meanOf(scored.filter((row) => row.half === 'tuning').map((row) => row.f1!)),
        'F1 held out': meanOf(scored.filter((row) => row.half === 'held-out').map((row) => row.f1!)),
        'recall of its words': meanOf(scored.map((row) => row.recall!)),
        scored: scored.length,
        'F1 vs export': meanOf(exportScored.map((row) => row.exportF1!)),
        'export F1 tuning': meanOf(exportScored.filter((row) => row.half === 'tuning').map((row) => row.exportF1!)),
        'export F1 held out': meanOf(exportScored.filter((row) => row.half === 'held-out').map((row) => row.exportF1!)),
        'export scored': exportScored.length,
      });
    }
  } finally {
    await pool.close();
    await fs.rm(work, { recursive: true, force: true });
  }
  console.log('office: quire (one warm sandbox child, text only) next to LibreOffice (one warm soffice per folder)\n');
  printTable(summary);
  const averageOf = (reference: string, f1: (row: FileRow) => number | undefined, column: string) => {
    const scoredRows = rows.filter((row) => f1(row) !== undefined);
    return {
      reference,
      'all files': meanOf(scoredRows.map((row) => f1(row)!)),
      tuning: meanOf(scoredRows.filter((row) => row.half === 'tuning').map((row) => f1(row)!)),
      'held out': meanOf(scoredRows.filter((row) => row.half === 'held-out').map((row) => f1(row)!)),
      'mean of the groups': meanOf(summary.map((row) => row[column]).filter((f) => typeof f === 'number')),
      scored: scoredRows.length,
    };
  };
  const averages = [
    averageOf('flat ODF (document model)', (row) => row.f1, 'word F1 vs LibreOffice (flat ODF)'),
    averageOf('text export / PDF print', (row) => row.exportF1, 'F1 vs export'),
  ];
  const average = averages[0];
  console.log('\nword F1 against LibreOffice, mean over files');
  printTable(averages);
  console.log('\nlowest word F1 against LibreOffice:');
  printTable(
    rows
      .filter((row) => row.f1 !== undefined)
      .sort((a, b) => a.f1! - b.f1!)
      .slice(0, values.verbose ? undefined : 8)
      .map((row) => ({
        file: row.file,
        half: row.half,
        f1: Math.round(row.f1! * 1000) / 1000,
        recall: Math.round(row.recall! * 1000) / 1000,
        'export f1': row.exportF1 === undefined ? '-' : Math.round(row.exportF1 * 1000) / 1000,
        'export recall': row.exportRecall === undefined ? '-' : Math.round(row.exportRecall * 1000) / 1000,
        quireMs: row.quireMs,
      })),
  );
  const totalSeconds = Math.round((performance.now() - started) / 100) / 10;
  const results = { totalSeconds, machine: machine(), summary, average, averages, files: rows };
  await reportWritten('office', results, loadBefore);
}

const meanOf = (values: number[]): number | '-' =>
  values.length ? Math.round((values.reduce((sum, v) => sum + v, 0) / values.length) * 1000) / 1000 : '-';

const extensionOf = (file: string) => path.extname(file).slice(1).toLowerCase();

/**
 * LibreOffice's own reading of the files: one soffice process converts the whole folder, timed from its start to
 * its exit, after a first run has made its profile (a warm process, as a server keeps one). Then, untimed, the
 * same profile writes each file as flat OpenDocument, whose text nodes are the reference (`flatOdfText`).
 *
 * A file LibreOffice does not finish within the budget (POI's shared-strings bomb: Calc prints it for minutes)
 * would stall the whole folder: the run is killed, that file (the one LibreOffice holds a lock on) is set aside
 * as `stalled`, and the folder is converted again without it, so the time compares the files both converted.
 */
async function convertWithLibreOffice(
  group: (typeof GROUPS)[number],
  members: string[],
  dir: string,
  timeoutMs: number,
): Promise<{ ms: number; stalled: string[]; texts: Map<string, string>; flatTexts: Map<string, string> }> {
  const profile = `-env:UserInstallation=file://${dir}/profile`;
  const out = path.join(dir, 'out');
  const outputOf = (file: string, outdir: string, ext: string) =>
    path.join(outdir, `${path.basename(file, path.extname(file))}.${ext}`);
  /** Converts `inputs` in one soffice; false when it ran past its budget (`--timeout-ms`, plus 5 s a file). */
  const convert = async (inputs: string[], outdir: string, filter: string = group.filter) => {
    await fs.rm(outdir, { recursive: true, force: true });
    const run = spawnSync(
      SOFFICE,
      [profile, '--headless', '--norestore', '--convert-to', filter, '--outdir', outdir, ...inputs],
      { stdio: 'ignore', timeout: timeoutMs + inputs.length * 5_000, killSignal: 'SIGKILL' },
    );
    // (Killing the launcher leaves soffice.bin running on the profile: every process of this profile goes.)
    if (run.error) spawnSync('pkill', ['-KILL', '-f', `${dir}/profile`]);
    return !run.error;
  };
  await convert([members[0]!], path.join(dir, 'warm-up'));
  let pending = [...members];
  const stalled: string[] = [];
  let ms: number;
  for (;;) {
    const begun = performance.now();
    const finished = await convert(pending, out);
    ms = performance.now() - begun;
    // (The file LibreOffice was writing when killed has its lock file beside its output; a file it could not
    // read has no output either, so the lock decides.)
    const writing = (file: string) => {
      const output = outputOf(file, out, group.output);
      return existsSync(path.join(out, `.~lock.${path.basename(output)}#`));
    };
    const missing = (file: string) => !existsSync(outputOf(file, out, group.output));
    const first = finished ? undefined : (pending.find(writing) ?? pending.find(missing));
    if (!first) break;
    stalled.push(first);
    pending = pending.filter((file) => file !== first);
  }
  const texts = new Map<string, string>();
  for (const file of pending) {
    const converted = outputOf(file, out, group.output);
    if (group.output === 'txt') {
      const text = await fs.readFile(converted, 'utf8').catch(() => undefined);
      if (text !== undefined) texts.set(file, text);
    } else {
      const text = spawnSync('pdftotext', ['-q', '-enc', 'UTF-8', converted, '-'], {
        encoding: 'utf8',
        maxBuffer: 1 << 28,
      });
      if (text.status === 0) texts.set(file, text.stdout);
    }
  }
  const flat = path.join(dir, 'flat');
  await convert(pending, flat, group.flat);
  const flatTexts = new Map<string, string>();
  for (const file of pending) {
    const xml = await fs.readFile(outputOf(file, flat, group.flat), 'utf8').catch(() => undefined);
    if (xml !== undefined) flatTexts.set(file, flatOdfText(xml));
  }
  return { ms, stalled, texts, flatTexts };
}
