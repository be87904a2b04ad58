import fs from 'node:fs/promises';
import path from 'node:path';
import { ExtractError } from '@quire/extract';
import { createExtractor } from '@quire/extract/extractors';
import { RESULT_FILE, type ChildMessage, type ChildReport, type SandboxOutcome, type SandboxSpec } from './protocol.ts';

// Runs one extraction in a process of its own; the parent enforces time and memory and reads RESULT_FILE.
async function main(specPath: string): Promise<void> {
  const spec = JSON.parse(await fs.readFile(specPath, 'utf8')) as SandboxSpec;
  const extract = createExtractor(spec.contentType, spec);
  let outcome: SandboxOutcome;
  try {
    const result = await extract(spec.inputPath, {
      extractImages: spec.extractImages,
      outputDir: spec.outputDir,
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
  const report: ChildReport = { ...outcome, peakRssMb: process.resourceUsage().maxRSS / 1024 };
  await fs.writeFile(path.join(spec.outputDir, RESULT_FILE), JSON.stringify(report));
}

// The worker that started this process died (SIGKILL, OOM): stop too, instead of working for nobody.
process.on('disconnect', () => process.exit(75));

main(process.argv[2]!).then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(70);
  },
);
