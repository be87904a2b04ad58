import type { Config } from '@quire/config';
import type { ExtractorSettings } from '@quire/extract';
import type { Material } from '@quire/material';
import type { SandboxLimits } from '../sandbox/run-sandboxed.ts';

type OcrSpec = Pick<
  ExtractorSettings,
  'ocrLanguages' | 'ocrDataDir' | 'ocrMaxPages' | 'ocrPageTimeoutMs' | 'ocrDpi' | 'ocrTimeBudget'
>;

/** The OCR part of a sandbox spec: the material's own languages when it asked for some, else every configured one. */
export function ocrSettingsFor(material: Material, config: Config, budget: SandboxLimits): OcrSpec {
  const { ocr } = config.extraction;
  return {
    ocrLanguages: material.metadata.ocrLanguages ?? ocr.languages,
    ...(ocr.dataDir ? { ocrDataDir: ocr.dataDir } : {}),
    ocrMaxPages: ocr.maxPages,
    ocrPageTimeoutMs: ocr.pageTimeoutMs,
    ocrDpi: ocr.dpi,
    ocrTimeBudget: {
      baseMs: budget.timeoutMs,
      perPageMs: budget.perPageMs ?? 0,
      maxMs: budget.maxTimeoutMs ?? budget.timeoutMs,
    },
  };
}
