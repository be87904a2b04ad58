import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import { guardedLookup, refusalOf, RefusedAddressError } from './address-policy.ts';
import { FetchError, RefusedTargetError } from './fetch-error.ts';

export interface GuardedRequestOptions {
  /** `host:port` pairs exempt from the private-address rule, for operators who must reach internal hosts. */
  allowHosts?: readonly string[];
  /** Name resolution (dns.lookup by default); every address it returns is checked when connecting. */
  lookup?: LookupFunction;
  signal: AbortSignal;
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

/**
 * One http(s) request (no redirects followed) that refuses, when connecting, every address that is not
 * public: URL materials and webhook deliveries both go out through here. Resolves with the response
 * head; rejects with a FetchError (a RefusedTargetError for a refused address).
 */
export function guardedRequest(url: URL, options: GuardedRequestOptions): Promise<IncomingMessage> {
  const exempt = isAllowedHost(url, options.allowHosts ?? []);
  const literal = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const refusal = exempt ? undefined : refusalOf(literal);
  if (refusal) return Promise.reject(refused(url, new RefusedAddressError(url.host, refusal)));

  const isHttps = url.protocol === 'https:';
  const agentOptions = { keepAlive: false, allowPrivateIPAddress: exempt, allowMetaIPAddress: exempt };
  const agent = isHttps ? new RequestFilteringHttpsAgent(agentOptions) : new RequestFilteringHttpAgent(agentOptions);
  const lookup = exempt ? options.lookup : guardedLookup(options.lookup);
  return new Promise((resolve, reject) => {
    const req = (isHttps ? https : http).request(url, {
      agent,
      ...(lookup ? { lookup } : {}),
      signal: options.signal,
      method: options.method ?? 'GET',
      headers: options.headers,
    });
    req.once('response', (res) => {
      res.once('close', () => agent.destroy());
      resolve(res);
    });
    req.once('error', (err) => {
      agent.destroy();
      reject(
        isRefusal(err)
          ? refused(url, err)
          : new FetchError('FETCH_FAILED', `Could not fetch ${url.href}: ${reasonOf(err)}`),
      );
    });
    req.end(options.body);
  });
}

const hostPortOf = (url: URL) => `${url.hostname}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`;

/** Compares as URLs spell hosts, so `[::ffff:127.0.0.1]:80` or `2130706433:80` in the list still match. */
function isAllowedHost(url: URL, allowHosts: readonly string[]): boolean {
  return allowHosts.some((entry) => {
    const [, host, port] = /^(.+):(\d+)$/.exec(entry) ?? [];
    if (!host) return false;
    try {
      return hostPortOf(new URL(`http://${host}:${port}/`)) === hostPortOf(url);
    } catch {
      return false;
    }
  });
}

/** request-filtering-agent reports a refused address as a plain Error saying "... is not allowed ...". */
const isRefusal = (err: Error) => err instanceof RefusedAddressError || / is not allowed\b/.test(err.message);

const refused = (url: URL, err: Error) =>
  new RefusedTargetError(`Refused to fetch ${url.href}: not a public address (${err.message})`);

export const reasonOf = (err: NodeJS.ErrnoException) => (err.code ? `${err.code} ${err.message}` : err.message);
