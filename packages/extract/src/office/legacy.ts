import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { ExtractError, type ExtractOptions, type ExtractResult } from '../types.ts';
import { LEGACY_FORMATS, officeFormatOf, type OfficeFormat } from './formats.ts';

/** The modern format LibreOffice converts each legacy one to, which quire's own readers then read. */
const CONVERTED: Partial<Record<OfficeFormat, { to: string; mime: string }>> = {
  doc: { to: 'docx', mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' },
  ppt: { to: 'pptx', mime: 'application/vnd.openxmlformats-officedocument.presentationml.presentation' },
  xls: { to: 'xlsx', mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
  xlsb: { to: 'xlsx', mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
};

/**
 * A legacy binary document (Word, PowerPoint or Excel 97-2003), converted by LibreOffice to its OOXML
 * successor and read as that. LibreOffice runs in this (sandboxed) process's group, so the job's time and
 * memory budget kill it with the child; each run has a profile folder of its own, removed after. Macros are
 * never run: a headless conversion does not run them, and the OOXML written has none that quire reads.
 * `readConverted` is the office reader that reads the OOXML file it wrote.
 */
export async function readLegacy(
  inputPath: string,
  format: OfficeFormat,
  options: ExtractOptions,
  readConverted: (path: string, mimeType: string, options: ExtractOptions) => Promise<ExtractResult>,
): Promise<ExtractResult> {
  const target = CONVERTED[format];
  if (!target) throw new ExtractError('UNSUPPORTED', `Files of format ${format} are not supported`);
  const soffice = await findSoffice();
  if (!soffice) throw new ExtractError('UNSUPPORTED', LIBREOFFICE_MISSING);
  // Beside the output folder, in the job's own folder: should the child be killed mid-conversion, the worker's
  // sweep of job folders removes the copy and LibreOffice's profile with the rest.
  const work = await fs.mkdtemp(path.join(path.dirname(options.outputDir), 'soffice-'));
  try {
    const input = path.join(work, `document.${format}`);
    await fs.copyFile(inputPath, input);
    const outDir = path.join(work, 'out');
    await run(soffice, [
      `-env:UserInstallation=file://${path.join(work, 'profile')}`,
      '--headless',
      '--norestore',
      '--nolockcheck',
      '--convert-to',
      target.to,
      '--outdir',
      outDir,
      input,
    ]);
    const converted = path.join(outDir, `document.${target.to}`);
    if (!(await fs.stat(converted).catch(() => undefined)))
      throw new ExtractError('CORRUPT', `LibreOffice could not read the ${format.toUpperCase()} file`);
    const result = await readConverted(converted, target.mime, options);
    return { ...result, metadata: { ...result.metadata, format, convertedBy: 'libreoffice' } };
  } finally {
    await fs.rm(work, { recursive: true, force: true });
  }
}

export const LIBREOFFICE_MISSING =
  'Legacy Word, PowerPoint and Excel files need LibreOffice on the worker: install libreoffice-writer-nogui, libreoffice-impress-nogui and libreoffice-calc-nogui (scripts/setup-system.sh does)';

/** Where LibreOffice's packages (Debian, its own .deb, Homebrew's cask) put `soffice`. */
const SOFFICE_PLACES = [
  '/usr/bin/soffice',
  '/usr/local/bin/soffice',
  '/usr/lib/libreoffice/program/soffice',
  '/opt/homebrew/bin/soffice',
  '/Applications/LibreOffice.app/Contents/MacOS/soffice',
];

let found: Promise<string | undefined> | undefined;

/** The installed `soffice`, looked for once per process. */
export function findSoffice(): Promise<string | undefined> {
  found ??= (async () => {
    for (const candidate of SOFFICE_PLACES) {
      if (
        await fs.access(candidate, fs.constants.X_OK).then(
          () => true,
          () => false,
        )
      )
        return candidate;
    }
    return undefined;
  })();
  return found;
}

/** Why a file of this sniffed type cannot be read on this machine (a legacy format without LibreOffice), or undefined. */
export async function officeReaderMissing(mimeType: string): Promise<string | undefined> {
  const format = officeFormatOf(mimeType);
  if (!format || !LEGACY_FORMATS.has(format)) return undefined;
  return (await findSoffice()) ? undefined : LIBREOFFICE_MISSING;
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
    child.on('error', (err) => reject(new ExtractError('INTERNAL', `LibreOffice did not start: ${err.message}`)));
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new ExtractError('CORRUPT', `LibreOffice failed (${code}): ${stderr.trim()}`)),
    );
  });
}
