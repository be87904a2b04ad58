import type { Config } from '@quire/config';
import type { ExtractorSettings } from '@quire/extract';

/** The deployment's extractor settings, from its configuration: what every sandbox child starts with. */
export function sandboxSettingsOf(config: Config): ExtractorSettings {
  const { extraction } = config;
  return {
    ffmpegPath: extraction.ffmpegPath,
    ffprobePath: extraction.ffprobePath,
    pdfEngine: extraction.pdfEngine,
    speechEngine: extraction.speechEngine,
    pocketsphinxPath: extraction.pocketsphinxPath,
    pocketsphinxModelDir: extraction.pocketsphinxModelDir,
    ocrLanguages: extraction.ocr.languages,
    ...(extraction.ocr.dataDir ? { ocrDataDir: extraction.ocr.dataDir } : {}),
    ocrMaxPages: extraction.ocr.maxPages,
    ocrPageTimeoutMs: extraction.ocr.pageTimeoutMs,
    ocrDpi: extraction.ocr.dpi,
  };
}
