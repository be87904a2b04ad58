import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { escapeMarkdown, sniff, SNIFF_BYTES, toMarkdown } from '@quire/extract';
import { createExtractor } from '../../packages/extract/src/registry.ts';
import { machine, printTable, reportWritten } from './results.ts';
import { benchSettings } from './sandbox-spec.ts';
import { meanScores, scoreMarkdown, SCORE_NAMES, type StructureScores } from './structure-score.ts';

/** Docling's test documents with its reference Markdown (MIT), copied in with their README and licence. */
const EVAL_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../test/fixtures/docs-eval');

/**
 * The PDFs with references, split once by name (every other one in sorted order) into a part rules may be
 * tuned on and a part that only measures them. Fixed here so that the held-out part stays held out.
 */
export const PDF_TUNING = [
  '2305.03393v1-pg9',
  'code_and_formula',
  'normal_4pages',
  'redp5110_sampled',
  'right_to_left_02',
  'table_mislabeled_as_picture',
];
export const PDF_HELD_OUT = [
  'amt_handbook_sample',
  'multi_page',
  'picture_classification',
  'right_to_left_01',
  'right_to_left_03',
];

/**
 * The Word documents with references, split the same way (every other one in sorted order, the first one tuning).
 * Rules for the office readers were designed on the tuning part only.
 */
export const DOCX_TUNING = [
  'Strict.docx',
  'content_control_with_picture.docx',
  'docx_code_blocks.docx',
  'docx_external_image.docx',
  'docx_list_blank_spacer.docx',
  'docx_lists.docx',
  'docx_rich_cells.docx',
  'docx_vml_images.docx',
  'equations.docx',
  'lorem_ipsum.docx',
  'omml_func_log.docx',
  'omml_text_escapes_in_math.docx',
  'tablecell.docx',
  'textbox.docx',
  'unit_test_headers.docx',
  'word_image_anchors.docx',
  'word_tables.docx',
];
export const DOCX_HELD_OUT = [
  'Transitional.docx',
  'docx_checkboxes.docx',
  'docx_comments.docx',
  'docx_grouped_images.docx',
  'docx_list_resumed_numbering.docx',
  'docx_page_header_footer_first_page.docx',
  'docx_rich_tables_01.docx',
  'drawingml.docx',
  'list_after_num_headers.docx',
  'omml_frac_superscript.docx',
  'omml_multi_equation_paragraph.docx',
  'table_with_equations.docx',
  'test_emf_docx.docx',
  'unit_test_formatting.docx',
  'unit_test_headers_numbered.docx',
  'word_sample.docx',
];

/** Each split folder's parts, by file name as `referencesOf` gives it. */
const SPLITS: Record<string, { tuning: string[]; heldOut: string[] }> = {
  pdf: { tuning: PDF_TUNING, heldOut: PDF_HELD_OUT },
  docx: { tuning: DOCX_TUNING, heldOut: DOCX_HELD_OUT },
};

/** The folders scored, and what pandoc reads in each (by extension); quire reads what its sniffing accepts. */
const FOLDERS = ['html', 'epub', 'pdf', 'pdf-from-office', 'pdf-tagged', 'docx', 'odf', 'pptx', 'xlsx'] as const;

/**
 * A third set of PDFs, for tuning the PDF rules on more than six files: the Word, OpenDocument text and HTML
 * documents of docs-eval printed to PDF by LibreOffice, scored against those documents' own references (a
 * real typesetter's pages with known headings, levels and lists). Made at bench time into a cache under the
 * system's temporary folder, keyed by the source's bytes; left out when LibreOffice is missing.
 */
const OFFICE_PDF_FOLDER = 'pdf-from-office';
/**
 * The same documents printed as tagged PDFs (LibreOffice's `UseTaggedPDF`: a structure tree of H1-H6, P, L/LI,
 * Table/TR/TD), for the tagged-PDF reader: tuning data too.
 */
const TAGGED_PDF_FOLDER = 'pdf-tagged';
const TAGGED_OPTIONS = '{"UseTaggedPDF":{"type":"boolean","value":"true"}}';
const isOfficePdfFolder = (folder: string) => folder === OFFICE_PDF_FOLDER || folder === TAGGED_PDF_FOLDER;
// HTML is read as a Writer document (Writer/Web's own PDF export drops a page's first heading and floats lists
// to the foot of the page).
const OFFICE_PDF_SOURCES: { folder: string; ext: string; convert: string[] }[] = [
  { folder: 'docx', ext: '.docx', convert: ['--convert-to', 'pdf'] },
  { folder: 'odf', ext: '.odt', convert: ['--convert-to', 'pdf'] },
  { folder: 'html', ext: '.html', convert: ['--infilter=HTML (StarWriter)', '--convert-to', 'pdf:writer_pdf_Export'] },
  // Slides printed to PDF, as teachers hand them out: a slide's title, its text boxes and their bullets.
  { folder: 'pptx', ext: '.pptx', convert: ['--convert-to', 'pdf:impress_pdf_Export'] },
  { folder: 'odf', ext: '.odp', convert: ['--convert-to', 'pdf:impress_pdf_Export'] },
];
const OFFICE_PDF_CACHE = path.join(os.tmpdir(), 'quire-bench-structure-office-pdf');
const PANDOC_FORMATS: Record<string, string> = { '.html': 'html', '.epub': 'epub', '.docx': 'docx', '.odt': 'odt' };

interface DocumentRun {
  tool: string;
  file: string;
  scores?: StructureScores;
  error?: string;
  ms: number;
  pages?: number;
}

function runCommand(
  command: string,
  args: string[],
  timeoutMs = 60_000,
): Promise<{ ok: boolean; stdout: string; ms: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'ignore'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', () => resolve({ ok: false, stdout: '', ms: performance.now() - started }));
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ ok: code === 0, stdout: Buffer.concat(chunks).toString('utf8'), ms: performance.now() - started });
    });
  });
}

async function hasCommand(command: string, versionFlag: string): Promise<boolean> {
  return (await runCommand(command, [versionFlag], 10_000)).ok;
}

/** quire's Markdown of a file: sniffed and extracted as the worker does (text only, no OCR), then `toMarkdown`. */
async function quireMarkdown(file: string, workDir: string): Promise<{ markdown: string; ms: number; pages?: number }> {
  const handle = await fs.open(file);
  const head = Buffer.alloc(SNIFF_BYTES);
  const { bytesRead } = await handle.read(head, 0, SNIFF_BYTES, 0);
  await handle.close();
  const sniffed = await sniff(head.subarray(0, bytesRead));
  if (!sniffed.supported) throw new Error(`not supported: ${sniffed.reason}`);
  const outputDir = path.join(workDir, 'out');
  await fs.rm(outputDir, { recursive: true, force: true });
  await fs.mkdir(outputDir, { recursive: true });
  const started = performance.now();
  const extract = await createExtractor(sniffed.contentType, benchSettings('pdfium'));
  const result = await extract(file, { extractImages: false, outputDir });
  const markdown = toMarkdown(result.segments);
  const ms = performance.now() - started;
  const pages = Number(result.metadata.pageCount ?? 0) || undefined;
  return { markdown, ms, ...(pages ? { pages } : {}) };
}

/**
 * pdftotext's plain reading (not `-layout`, which pads columns with spaces and keeps a two-column page's lines
 * side by side): its paragraphs, escaped, since it claims no structure and a line starting with "-" is no list.
 */
async function pdftotextMarkdown(file: string): Promise<{ markdown: string; ms: number }> {
  const out = await runCommand('pdftotext', ['-q', '-enc', 'UTF-8', file, '-']);
  if (!out.ok) throw new Error('pdftotext failed');
  const paragraphs = out.stdout.split(/\n\s*\n|\f/).map((p) => escapeMarkdown(p.trim()));
  return { markdown: paragraphs.filter(Boolean).join('\n\n'), ms: out.ms };
}

async function pandocMarkdown(file: string, format: string): Promise<{ markdown: string; ms: number }> {
  const out = await runCommand('pandoc', ['-f', format, '-t', 'gfm', '--wrap=none', file]);
  if (!out.ok) throw new Error('pandoc failed');
  return { markdown: out.stdout, ms: out.ms };
}

/** LibreOffice's PDF of each office and HTML source with a reference, made once per source's content. */
async function officePdfReferences(
  setName: string,
  tagged: boolean,
): Promise<{ name: string; source: string; reference: string }[]> {
  const soffice = (await hasCommand('soffice', '--version')) ? 'soffice' : undefined;
  if (!soffice) {
    console.log(`LibreOffice is missing, so ${setName} is left out (Debian: apt-get install libreoffice)`);
    return [];
  }
  await fs.mkdir(OFFICE_PDF_CACHE, { recursive: true });
  const found = [];
  for (const source of OFFICE_PDF_SOURCES) {
    const { folder, ext } = source;
    const convert = tagged
      ? source.convert.map((arg) =>
          arg.replace(
            /^pdf(?::(\w+_pdf_Export))?$/,
            (_, filter = 'writer_pdf_Export') => `pdf:${filter}:${TAGGED_OPTIONS}`,
          ),
        )
      : source.convert;
    const docs = (await referencesOf(folder)).filter((doc) => doc.source.endsWith(ext));
    const missing: { doc: (typeof docs)[number]; pdf: string; named: string }[] = [];
    for (const doc of docs) {
      const hash = createHash('sha256')
        .update(await fs.readFile(doc.source))
        .update(convert.join(' '))
        .digest('hex')
        .slice(0, 16);
      const pdf = path.join(OFFICE_PDF_CACHE, `${hash}.pdf`);
      if (!(await fs.stat(pdf).catch(() => null)))
        missing.push({ doc, pdf, named: path.basename(doc.source).replace(/\.[^.]+$/, '.pdf') });
      found.push({ name: `${folder}/${doc.name}`, source: pdf, reference: doc.reference });
    }
    if (missing.length) {
      const outDir = await fs.mkdtemp(path.join(OFFICE_PDF_CACHE, 'out-'));
      const profile = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-bench-lo-profile-'));
      await runCommand(
        soffice,
        [
          '--headless',
          `-env:UserInstallation=file://${profile}`,
          ...convert,
          '--outdir',
          outDir,
          ...missing.map((m) => m.doc.source),
        ],
        600_000,
      );
      for (const m of missing) await fs.rename(path.join(outDir, m.named), m.pdf).catch(() => undefined);
      await fs.rm(outDir, { recursive: true, force: true });
      await fs.rm(profile, { recursive: true, force: true });
    }
  }
  const made = [];
  for (const doc of found) if (await fs.stat(doc.source).catch(() => null)) made.push(doc);
  if (made.length < found.length) console.log(`LibreOffice made no PDF of ${found.length - made.length} file(s)`);
  return made;
}

async function referencesOf(folder: string): Promise<{ name: string; source: string; reference: string }[]> {
  if (isOfficePdfFolder(folder)) return officePdfReferences(folder, folder === TAGGED_PDF_FOLDER);
  const sources = (await fs.readdir(path.join(EVAL_DIR, folder, 'sources'))).sort();
  const found = [];
  for (const source of sources) {
    const name = folder === 'pdf' ? source.replace(/\.pdf$/, '') : source;
    const reference = path.join(EVAL_DIR, folder, 'groundtruth', `${name}.md`);
    if (await fs.stat(reference).catch(() => null))
      found.push({ name, source: path.join(EVAL_DIR, folder, 'sources', source), reference });
  }
  return found;
}

const format = (value: number | null) => (value === null ? '-' : value.toFixed(2));

function summaryRows(label: string, runs: DocumentRun[]) {
  const byTool = new Map<string, DocumentRun[]>();
  for (const r of runs) byTool.set(r.tool, [...(byTool.get(r.tool) ?? []), r]);
  return [...byTool].map(([tool, docs]) => {
    const scored = docs.filter((d) => d.scores);
    const mean = meanScores(scored.map((d) => d.scores!));
    const pages = docs.reduce((sum, d) => sum + (d.pages ?? 0), 0);
    const ms = docs.reduce((sum, d) => sum + (d.pages ? d.ms : 0), 0);
    const row: Record<string, string | number> = { set: label, tool, docs: `${scored.length}/${docs.length}` };
    for (const name of SCORE_NAMES) row[name] = `${format(mean[name].mean)} (${mean[name].n})`;
    row['s/page'] = pages ? (ms / 1000 / pages).toFixed(3) : '-';
    return { row, mean, pages, seconds: ms / 1000 };
  });
}

export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      folder: { type: 'string', multiple: true },
      // Prints each document's scores, to see where a rule wins or loses.
      verbose: { type: 'boolean', default: false },
    },
  });
  const folders = values.folder?.length ? values.folder : [...FOLDERS];
  const pandoc = await hasCommand('pandoc', '--version');
  const pdftotext = await hasCommand('pdftotext', '-v');
  if (!pandoc) console.log('pandoc is missing, so its column is left out (Debian: apt-get install pandoc)');
  if (!pdftotext)
    console.log('pdftotext is missing, so its column is left out (Debian: apt-get install poppler-utils)');
  const loadBefore = machine().loadAverage;
  const started = performance.now();
  const workDir = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-bench-structure-'));
  const runs: Record<string, DocumentRun[]> = {};
  try {
    for (const folder of folders) {
      const list: DocumentRun[] = (runs[folder] = []);
      for (const doc of await referencesOf(folder)) {
        const reference = await fs.readFile(doc.reference, 'utf8');
        const ext = path.extname(doc.source).toLowerCase();
        const tools: [string, () => Promise<{ markdown: string; ms: number; pages?: number }>][] = [
          ['quire', () => quireMarkdown(doc.source, workDir)],
        ];
        const isPdf = folder === 'pdf' || isOfficePdfFolder(folder);
        if (isPdf && pdftotext) tools.push(['pdftotext', () => pdftotextMarkdown(doc.source)]);
        if (pandoc && PANDOC_FORMATS[ext])
          tools.push(['pandoc', () => pandocMarkdown(doc.source, PANDOC_FORMATS[ext]!)]);
        let quirePages: number | undefined;
        for (const [tool, extract] of tools) {
          try {
            const out = await extract();
            if (tool === 'quire') quirePages = out.pages;
            const pages = isPdf ? quirePages : undefined;
            list.push({
              tool,
              file: doc.name,
              scores: scoreMarkdown(out.markdown, reference),
              ms: out.ms,
              ...(pages ? { pages } : {}),
            });
          } catch (err) {
            list.push({ tool, file: doc.name, error: (err as Error).message, ms: 0 });
          }
        }
      }
    }
  } finally {
    await fs.rm(workDir, { recursive: true, force: true });
  }

  const summary: Record<string, unknown> = {};
  for (const [folder, list] of Object.entries(runs)) {
    console.log(`\n${folder}: mean over documents (in brackets: documents where the score is defined)`);
    const split = SPLITS[folder];
    const sets: [string, DocumentRun[]][] = split
      ? [
          ['all', list],
          ['tuning', list.filter((r) => split.tuning.includes(r.file))],
          ['held-out', list.filter((r) => split.heldOut.includes(r.file))],
        ]
      : isOfficePdfFolder(folder)
        ? [
            ['all', list],
            ...OFFICE_PDF_SOURCES.map(({ folder: from, ext }): [string, DocumentRun[]] => [
              ext.slice(1),
              list.filter((r) => r.file.startsWith(`${from}/`) && r.file.endsWith(ext)),
            ]),
          ]
        : [['all', list]];
    const rows = sets.flatMap(([label, docs]) => summaryRows(label, docs));
    printTable(rows.map((r) => r.row));
    summary[folder] = rows.map((r) => ({ ...r.row, means: r.mean, pages: r.pages, seconds: r.seconds }));
    for (const tool of new Set(list.map((r) => r.tool))) {
      const failed = list.filter((r) => r.tool === tool && r.error);
      if (failed.length)
        console.log(`  ${tool} could not read ${failed.length} file(s): ${failed[0]!.file}: ${failed[0]!.error}...`);
    }
    if (values.verbose)
      printTable(
        list
          .filter((r) => r.scores)
          .map((r) => ({
            tool: r.tool,
            file: r.file,
            ...Object.fromEntries(SCORE_NAMES.map((name) => [name, format(r.scores![name])])),
          })),
      );
  }
  const totalSeconds = Math.round((performance.now() - started) / 100) / 10;
  const report = {
    totalSeconds,
    machine: machine(),
    pdfTuning: PDF_TUNING,
    pdfHeldOut: PDF_HELD_OUT,
    docxTuning: DOCX_TUNING,
    docxHeldOut: DOCX_HELD_OUT,
    summary,
    runs,
  };
  await reportWritten('structure', report, loadBefore);
}
