import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import { sniff, SNIFF_BYTES, withDeclaredCharset, type ContentType } from '@quire/extract';
import { FetchError, fetchToFile } from '@quire/fetch';
import { attachOriginal } from '@quire/lifecycle';
import type { Material, MaterialSource } from '@quire/material';
import type { ProcessDeps } from './process-deps.ts';

export type FetchOutcome =
  | { ok: true; contentType: ContentType; mimeType: string }
  | {
      ok: false;
      code: 'FETCH_FAILED' | 'TOO_LARGE' | 'UNSUPPORTED';
      message: string;
      claimedType?: string;
      detectedType?: string;
    };

/** Downloads a URL material's bytes, decides their type, and keeps them as the material's original. */
export async function fetchOriginal(
  material: Material,
  source: Extract<MaterialSource, { kind: 'url' }>,
  inputPath: string,
  deps: ProcessDeps,
): Promise<FetchOutcome> {
  const { url } = source;
  let fetched;
  try {
    fetched = await fetchToFile(url, inputPath, {
      maxBytes: deps.config.extraction.urlFetch.maxBytes,
      timeoutMs: deps.config.extraction.urlFetch.timeoutMs,
      allowHosts: deps.config.extraction.urlFetch.allowHosts,
    });
  } catch (err) {
    if (err instanceof FetchError) return { ok: false, code: err.code, message: err.message };
    throw err;
  }

  const head = await readHead(inputPath);
  const sniffed = await sniff(head);
  if (!sniffed.supported)
    return { ok: false, code: 'UNSUPPORTED', message: `${url} returned ${sniffed.reason.toLowerCase()}` };
  const claimed = material.metadata.requestedType;
  if (
    claimed &&
    claimed !== 'url' &&
    claimed !== sniffed.contentType &&
    !(isMedia(claimed) && isMedia(sniffed.contentType))
  ) {
    return {
      ok: false,
      code: 'UNSUPPORTED',
      message: `content.type is "${claimed}" but ${url} returned ${sniffed.mimeType} (${sniffed.contentType})`,
      claimedType: claimed,
      detectedType: sniffed.contentType,
    };
  }

  const filename = decodeURIComponent(new URL(fetched.finalUrl).pathname.split('/').pop() || '') || 'download';
  const mimeType = withDeclaredCharset(sniffed.mimeType, fetched.contentType);
  await attachOriginal(deps, material, source, {
    body: createReadStream(inputPath),
    filename,
    mimeType,
    contentType: sniffed.contentType,
  });
  return { ok: true, contentType: sniffed.contentType, mimeType };
}

const isMedia = (t: string) => t === 'audio' || t === 'video';

async function readHead(file: string): Promise<Buffer> {
  const handle = await fs.open(file, 'r');
  try {
    const buffer = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
