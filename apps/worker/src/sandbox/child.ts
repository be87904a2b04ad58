import fs from 'node:fs/promises';
import path from 'node:path';
import { ExtractError, type Extractor } from '@quire/extract';
import { createExtractor } from '@quire/extract/extractors';
import { RESULT_FILE, type ChildMessage, type ChildReport, type SandboxOutcome, type SandboxSpec } from './protocol.ts';

/**
 * One extraction in a process of its own; the parent enforces time and memory and reads RESULT_FILE. Reads
 * the spec and loads its extractor first, and returns the extraction itself, so that the entry point can turn
 * the TypeScript loader off in between.
 */
export async function prepareExtraction(specPath: string): Promise<() => Promise<void>> {
  const spec = JSON.parse(await fs.readFile(specPath, 'utf8')) as SandboxSpec;
  const extract = await createExtractor(spec.contentType, spec);
  return () => runExtraction(spec, extract);
}

async function runExtraction(spec: SandboxSpec, extract: Extractor): Promise<void> {
  let outcome: SandboxOutcome;
  try {
    const result = await extract(spec.inputPath, {
      extractImages: spec.extractImages,
      outputDir: spec.outputDir,
      ...(spec.sourceUrl ? { sourceUrl: spec.sourceUrl } : {}),
      onProgress: (percent) => process.send?.({ type: 'progress', percent } satisfies ChildMessage),
      onPageCount: (count) => process.send?.({ type: 'pages', count } satisfies ChildMessage),
    });
    outcome = { ok: true, result };
  } catch (err) {
    outcome =
      err instanceof ExtractError
        ? { ok: false, code: err.code, message: err.message }
        : { ok: false, code: 'CORRUPT', message: `The file could not be processed: ${(err as Error)?.message ?? err}` };
  }
  const report: ChildReport = { ...outcome, peakRssMb: await peakRssMb() };
  await fs.writeFile(path.join(spec.outputDir, RESULT_FILE), JSON.stringify(report));
}

/**
 * This process's own high-water mark. Not getrusage's maxRSS: Linux carries that over exec from the process
 * that forked, so it reports the worker's peak whenever the worker is the larger.
 */
async function peakRssMb(): Promise<number> {
  const status = await fs.readFile('/proc/self/status', 'utf8').catch(() => '');
  const kb = /VmHWM:\s+(\d+)/.exec(status)?.[1];
  return kb ? Number(kb) / 1024 : process.resourceUsage().maxRSS / 1024;
}
