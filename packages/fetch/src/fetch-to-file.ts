import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import type { LookupFunction } from 'node:net';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FetchError } from './fetch-error.ts';
import { guardedRequest, reasonOf } from './guarded-request.ts';

export interface FetchOptions {
  maxBytes: number;
  /** Ceiling of the whole fetch: resolving, connecting, every redirect and the body. */
  timeoutMs: number;
  maxRedirects?: number;
  /** `host:port` pairs exempt from the private-address rule, for operators who must fetch from internal hosts. */
  allowHosts?: readonly string[];
  /** Name resolution (dns.lookup by default); every address it returns is checked when connecting. */
  lookup?: LookupFunction;
}

export interface Fetched {
  finalUrl: string;
  bytes: number;
  mimeType?: string;
  /** The Content-Type header as the server sent it, parameters (its `charset`) included. */
  contentType?: string;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * Streams an http(s) URL's body into `dest`. Addresses are checked when the connection is made, on every
 * redirect, so a name that resolves (or re-resolves) to a private address is refused, not just a literal.
 */
export async function fetchToFile(url: string, dest: string, options: FetchOptions): Promise<Fetched> {
  const timedOut = new FetchError('FETCH_FAILED', `Fetching ${url} timed out after ${options.timeoutMs} ms`);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(timedOut), options.timeoutMs);
  try {
    return await fetchFollowingRedirects(parseTarget(url), dest, options, controller.signal);
  } catch (err) {
    await fs.rm(dest, { force: true });
    if (controller.signal.aborted) throw timedOut;
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

async function fetchFollowingRedirects(
  first: URL,
  dest: string,
  options: FetchOptions,
  signal: AbortSignal,
): Promise<Fetched> {
  const maxRedirects = options.maxRedirects ?? 5;
  let target = first;
  for (let redirects = 0; ; redirects++) {
    const res = await guardedRequest(target, {
      allowHosts: options.allowHosts,
      lookup: options.lookup,
      signal,
      headers: { accept: '*/*', 'accept-encoding': 'identity', 'user-agent': 'quire-url-fetch/1' },
    });
    const status = res.statusCode ?? 0;
    if (REDIRECTS.has(status) && res.headers.location) {
      res.destroy();
      if (redirects === maxRedirects)
        throw new FetchError('FETCH_FAILED', `${first.href} redirected more than ${maxRedirects} times`);
      target = parseTarget(res.headers.location, target);
      continue;
    }
    if (status < 200 || status > 299) {
      res.destroy();
      throw new FetchError('FETCH_FAILED', `${target.href} answered ${status} ${res.statusMessage ?? ''}`.trimEnd());
    }
    const declared = Number(res.headers['content-length']);
    if (declared > options.maxBytes) {
      res.destroy();
      throw tooLarge(target, options.maxBytes);
    }
    const bytes = await saveBody(res, dest, target, options.maxBytes);
    const contentType = res.headers['content-type'];
    const mimeType = contentType?.split(';')[0]?.trim();
    return { finalUrl: target.href, bytes, ...(mimeType ? { mimeType, contentType } : {}) };
  }
}

function parseTarget(raw: string, base?: URL): URL {
  let url;
  try {
    url = new URL(raw, base);
  } catch {
    throw new FetchError('FETCH_FAILED', `${raw} is not a valid URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new FetchError('FETCH_FAILED', `${url.href} is not an http or https URL`);
  }
  return url;
}

const tooLarge = (url: URL, maxBytes: number) =>
  new FetchError('TOO_LARGE', `${url.href} is larger than the limit of ${maxBytes} bytes`);

async function saveBody(res: IncomingMessage, dest: string, url: URL, maxBytes: number): Promise<number> {
  let bytes = 0;
  const cap = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      callback(bytes > maxBytes ? tooLarge(url, maxBytes) : null, chunk);
    },
  });
  try {
    await pipeline(res, cap, createWriteStream(dest));
  } catch (err) {
    if (err instanceof FetchError) throw err;
    throw new FetchError(
      'FETCH_FAILED',
      `The connection to ${url.host} broke while reading the body: ${reasonOf(err as Error)}`,
    );
  }
  return bytes;
}
