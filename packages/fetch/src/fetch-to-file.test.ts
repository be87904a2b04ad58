import fs from 'node:fs/promises';
import type { LookupAddress, LookupOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHttpServer, type TestHttpServer } from '@quire/testkit';
import { FetchError, fetchToFile, type FetchOptions } from './index.ts';

let target: TestHttpServer;
let allowed: TestHttpServer;
let dir: string;
let dest: string;

const PAGE = '<html><head><title>Hello</title></head><body><p>Public page</p></body></html>';

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-fetch-'));
  target = await startHttpServer({ '/': (_req, res) => res.end('internal secret') });
  allowed = await startHttpServer({
    '/page': (_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE),
    '/to-page': (_req, res) => res.writeHead(302, { location: '/page' }).end(),
    '/to-target': (_req, res) => res.writeHead(302, { location: `http://127.0.0.1:${target.port}/` }).end(),
    '/to-target-by-name': (_req, res) =>
      res.writeHead(307, { location: `http://files.example.com:${target.port}/` }).end(),
    '/to-file': (_req, res) => res.writeHead(301, { location: 'file:///etc/passwd' }).end(),
    '/loop': (_req, res) => res.writeHead(302, { location: '/loop' }).end(),
    '/declared-large': (_req, res) => res.writeHead(200, { 'content-length': '4096' }).end(Buffer.alloc(4096)),
    '/streamed-large': (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      for (let i = 0; i < 8; i++) res.write(Buffer.alloc(512, 1));
      res.end();
    },
    '/hangs': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('a beginning that never ends');
    },
    '/short': (req, res) => {
      res.writeHead(200, { 'content-length': '1000' });
      res.write('only part of it');
      setTimeout(() => req.socket.destroy(), 50);
    },
    '/gone': (_req, res) => res.writeHead(410).end('gone'),
  });
});
afterAll(async () => {
  await target?.close();
  await allowed?.close();
  await fs.rm(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  target.hits.length = 0;
  dest = path.join(dir, `body-${Math.random().toString(36).slice(2)}`);
});

const base = (): FetchOptions => ({
  maxBytes: 1024 * 1024,
  timeoutMs: 5000,
  allowHosts: [`127.0.0.1:${allowed.port}`],
});

/** A resolver with fixed answers, as a public DNS name pointing at a private address would give. */
function lookupFrom(records: Record<string, string[]>): LookupFunction {
  return (hostname: string, options: LookupOptions, callback) => {
    const addresses: LookupAddress[] = (records[hostname] ?? []).map((address) => ({
      address,
      family: address.includes(':') ? 6 : 4,
    }));
    if (addresses.length === 0)
      return callback(Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
    if (options.all) return callback(null, addresses);
    callback(null, addresses[0]!.address, addresses[0]!.family);
  };
}

async function failure(url: string, options: FetchOptions = base()): Promise<FetchError> {
  const err = await fetchToFile(url, dest, options).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(FetchError);
  await expect(fs.access(dest)).rejects.toThrow();
  return err as FetchError;
}

describe('fetchToFile refuses addresses that are not public', () => {
  const hosts = [
    '127.0.0.1',
    'localhost',
    '0.0.0.0',
    '0',
    '[::1]',
    '[::]',
    '[::ffff:127.0.0.1]',
    '[::ffff:7f00:1]',
    '[::127.0.0.1]',
    '2130706433',
    '0x7f000001',
    '0177.0.0.1',
    '127.1',
    '[64:ff9b::7f00:1]',
  ];
  it.each(hosts)('http://%s:<port of a listening server>/ is refused before it is reached', async (host) => {
    const err = await failure(`http://${host}:${target.port}/`);
    expect(err.code).toBe('FETCH_FAILED');
    expect(err.message).toMatch(/^Refused to fetch .*not a public address/);
    expect(target.hits).toEqual([]);
  });

  const unreachable = [
    'http://169.254.169.254/latest/meta-data/',
    'http://[fd00:ec2::254]/latest/meta-data/',
    'http://100.100.100.200/latest/meta-data/',
    'http://168.63.129.16/machine?comp=goalstate',
    'http://192.0.0.192/opc/v2/instance/',
    'http://10.0.0.5/',
    'http://172.16.0.1/',
    'http://192.168.1.1/',
    'http://100.64.0.1/',
    'http://[fe80::1]/',
    'http://[fc00::1]/',
    'http://224.0.0.1/',
    'http://[ff02::1]/',
    'http://255.255.255.255/',
    'http://[64:ff9b::a00:5]/',
    'https://169.254.169.254/',
  ];
  it.each(unreachable)('%s is refused without trying to connect', async (url) => {
    const err = await failure(url);
    expect(err.code).toBe('FETCH_FAILED');
    expect(err.message).toMatch(/^Refused to fetch .*not a public address/);
  });

  it.each([['127.0.0.1'], ['10.0.0.5'], ['::ffff:127.0.0.1'], ['::7f00:1'], ['93.184.215.14', '127.0.0.1']])(
    'a public-looking name resolving to %s is refused when connecting',
    async (...addresses) => {
      const err = await failure(`http://files.example.com:${target.port}/`, {
        ...base(),
        lookup: lookupFrom({ 'files.example.com': addresses }),
      });
      expect(err.message).toMatch(/^Refused to fetch http:\/\/files\.example\.com:\d+\/: not a public address/);
      expect(target.hits).toEqual([]);
    },
  );

  it('a redirect from an allowed host to a private address is refused', async () => {
    const err = await failure(`http://127.0.0.1:${allowed.port}/to-target`);
    expect(err.message).toMatch(new RegExp(`^Refused to fetch http://127\\.0\\.0\\.1:${target.port}/`));
    expect(target.hits).toEqual([]);
  });

  it('a redirect to a public-looking name that resolves to a private address is refused', async () => {
    const options = { ...base(), lookup: lookupFrom({ 'files.example.com': ['127.0.0.1'] }) };
    const err = await failure(`http://127.0.0.1:${allowed.port}/to-target-by-name`, options);
    expect(err.message).toMatch(/^Refused to fetch http:\/\/files\.example\.com/);
    expect(target.hits).toEqual([]);
  });

  it('reaches the same server once its host:port is allowed, which shows the refusals above are the policy', async () => {
    const fetched = await fetchToFile(`http://127.0.0.1:${target.port}/`, dest, {
      ...base(),
      allowHosts: [`127.0.0.1:${target.port}`],
    });
    expect(await fs.readFile(dest, 'utf8')).toBe('internal secret');
    expect(fetched.bytes).toBe('internal secret'.length);
    expect(target.hits).toEqual(['/']);

    const byName = {
      ...base(),
      allowHosts: [`files.example.com:${target.port}`],
      lookup: lookupFrom({ 'files.example.com': ['127.0.0.1'] }),
    };
    await fetchToFile(`http://files.example.com:${target.port}/`, dest, byName);
    const spelledOtherwise = { ...base(), allowHosts: [`[::FFFF:127.0.0.1]:${target.port}`] };
    await fetchToFile(`http://[::ffff:7f00:1]:${target.port}/`, dest, spelledOtherwise);
    expect(target.hits).toEqual(['/', '/', '/']);
  });

  it('an allowed host:port does not exempt the same host on another port or under another name', async () => {
    await failure(`http://localhost:${allowed.port}/page`);
    await failure(`http://127.0.0.1:${target.port}/`, { ...base(), allowHosts: [`127.0.0.1:${allowed.port}`] });
    expect(target.hits).toEqual([]);
  });
});

describe('fetchToFile downloads', () => {
  it('streams the body to disk and reports the final URL after redirects', async () => {
    const fetched = await fetchToFile(`http://127.0.0.1:${allowed.port}/to-page`, dest, base());
    expect(fetched).toEqual({
      finalUrl: `http://127.0.0.1:${allowed.port}/page`,
      bytes: PAGE.length,
      mimeType: 'text/html',
      contentType: 'text/html; charset=utf-8',
    });
    expect(await fs.readFile(dest, 'utf8')).toBe(PAGE);
  });

  it('refuses schemes other than http and https, also as a redirect target', async () => {
    expect((await failure('ftp://example.com/file.pdf')).message).toMatch(/not an http or https URL/);
    expect((await failure('file:///etc/passwd')).message).toMatch(/not an http or https URL/);
    expect((await failure(`http://127.0.0.1:${allowed.port}/to-file`)).message).toMatch(
      /file:\/\/\/etc\/passwd is not an http or https URL/,
    );
  });

  it('stops after the redirect limit', async () => {
    const err = await failure(`http://127.0.0.1:${allowed.port}/loop`, { ...base(), maxRedirects: 3 });
    expect(err.message).toMatch(/redirected more than 3 times/);
  });

  it('names the status of a non-2xx answer', async () => {
    const err = await failure(`http://127.0.0.1:${allowed.port}/gone`);
    expect(err.code).toBe('FETCH_FAILED');
    expect(err.message).toBe(`http://127.0.0.1:${allowed.port}/gone answered 410 Gone`);
    expect((await failure(`http://127.0.0.1:${allowed.port}/missing`)).message).toMatch(/answered 404 Not Found$/);
  });

  it('answers TOO_LARGE for a declared length over the cap and for a streamed body that grows past it', async () => {
    const options = { ...base(), maxBytes: 2048 };
    const declared = await failure(`http://127.0.0.1:${allowed.port}/declared-large`, options);
    expect(declared).toMatchObject({
      code: 'TOO_LARGE',
      message: expect.stringMatching(/larger than the limit of 2048 bytes/),
    });
    const streamed = await failure(`http://127.0.0.1:${allowed.port}/streamed-large`, options);
    expect(streamed.code).toBe('TOO_LARGE');
    expect(
      (await fetchToFile(`http://127.0.0.1:${allowed.port}/streamed-large`, dest, { ...base(), maxBytes: 4096 })).bytes,
    ).toBe(4096);
  });

  it('gives up on a body that never ends at the time cap, and closes the connection', async () => {
    allowed.abandoned.length = 0;
    const err = await failure(`http://127.0.0.1:${allowed.port}/hangs`, { ...base(), timeoutMs: 300 });
    expect(err).toMatchObject({
      code: 'FETCH_FAILED',
      message: `Fetching http://127.0.0.1:${allowed.port}/hangs timed out after 300 ms`,
    });
    await expect.poll(() => allowed.abandoned).toEqual(['/hangs']);
  });

  it('reports a connection that breaks before the declared length as FETCH_FAILED', async () => {
    const err = await failure(`http://127.0.0.1:${allowed.port}/short`);
    expect(err.code).toBe('FETCH_FAILED');
    expect(err.message).toMatch(/broke while reading the body/);
  });

  it('reports a name that does not resolve', async () => {
    const err = await failure('http://nowhere.example.com/', { ...base(), lookup: lookupFrom({}) });
    expect(err.message).toMatch(/^Could not fetch http:\/\/nowhere\.example\.com\/: ENOTFOUND/);
  });
});
