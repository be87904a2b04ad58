import fs from 'node:fs/promises';
import path from 'node:path';
import type { ContentType, ExtractorSettings } from '@quire/extract';

/** What sandbox tests give every child: no speech engine, the system's ffmpeg, PDFium. */
export const SANDBOX_SETTINGS: ExtractorSettings = {
  ffmpegPath: 'ffmpeg',
  ffprobePath: 'ffprobe',
  pdfEngine: 'pdfium',
  speechEngine: 'none',
  pocketsphinxPath: 'pocketsphinx_continuous',
  pocketsphinxModelDir: '/usr/share/pocketsphinx/model/en-us',
  ocrLanguages: ['eng'],
  ocrMaxPages: 50,
  ocrPageTimeoutMs: 60_000,
  ocrDpi: 300,
};

/** A job folder under `dir` as the worker lays it out (input file, empty output folder), and the spec naming it. */
export async function sandboxJob(
  dir: string,
  name: string,
  body: Buffer,
  contentType: ContentType,
  extractImages = false,
) {
  const jobDir = path.join(dir, name);
  await fs.mkdir(path.join(jobDir, 'out'), { recursive: true });
  const inputPath = path.join(jobDir, 'input');
  await fs.writeFile(inputPath, body);
  return { contentType, inputPath, outputDir: path.join(jobDir, 'out'), extractImages };
}
