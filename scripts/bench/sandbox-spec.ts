import type { ContentType } from '@quire/extract';
import type { SandboxSpec } from '../../apps/worker/src/sandbox/protocol.ts';

/** One file's extraction as the worker asks the sandbox for it, text only: no images, no speech-to-text, no OCR of PDF pages. */
export function textOnlySpec(contentType: ContentType, inputPath: string, outputDir: string): SandboxSpec {
  return {
    contentType,
    inputPath,
    outputDir,
    extractImages: false,
    ffmpegPath: 'ffmpeg',
    ffprobePath: 'ffprobe',
    speechEngine: 'none',
    pocketsphinxPath: 'pocketsphinx_continuous',
    pocketsphinxModelDir: '/usr/share/pocketsphinx/model/en-us',
    ocrLanguages: ['eng'],
    ocrMaxPages: 0,
    ocrPageTimeoutMs: 60_000,
    ocrDpi: 300,
  };
}
