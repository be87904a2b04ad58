import type { Config } from '@quire/config';
import type { ExtractorSettings } from '@quire/extract';
import type { Material } from '@quire/material';
import type { SandboxLimits } from '../sandbox/run-sandboxed.ts';

/**
 * The OCR part of a job's own settings: the material's own languages when it asked for some, else every
 * configured one, and its share of the job's time budget (the rest of the OCR settings are the deployment's).
 */
export function ocrSettingsFor(
  material: Material,
  config: Config,
  budget: SandboxLimits,
): Pick<ExtractorSettings, 'ocrLanguages' | 'ocrTimeBudget'> {
  const { ocr } = config.extraction;
  return {
    ocrLanguages: material.metadata.ocrLanguages ?? ocr.languages,
    ocrTimeBudget: {
      baseMs: budget.timeoutMs,
      perPageMs: budget.perPageMs ?? 0,
      maxMs: budget.maxTimeoutMs ?? budget.timeoutMs,
    },
  };
}
