import type { ContentType, ExtractorSettings } from '@quire/extract';
import type { SandboxSpec } from '../../apps/worker/src/sandbox/protocol.ts';

/** One file's extraction as the worker asks the sandbox for it, text only (no images); `benchSettings` do the rest. */
export function textOnlySpec(contentType: ContentType, inputPath: string, outputDir: string): SandboxSpec {
  return { contentType, inputPath, outputDir, extractImages: false };
}

/** The extractor settings of a benchmark's sandbox: the default PDF engine unless told, no speech-to-text, no OCR of PDF pages. */
export function benchSettings(pdfEngine: ExtractorSettings['pdfEngine'] = 'pdfium'): ExtractorSettings {
  return {
    ffmpegPath: 'ffmpeg',
    ffprobePath: 'ffprobe',
    pdfEngine,
    speechEngine: 'none',
    pocketsphinxPath: 'pocketsphinx_continuous',
    pocketsphinxModelDir: '/usr/share/pocketsphinx/model/en-us',
    ocrLanguages: ['eng'],
    ocrMaxPages: 0,
    ocrPageTimeoutMs: 60_000,
    ocrDpi: 300,
  };
}
