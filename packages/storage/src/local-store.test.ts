import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalStore } from './local-store.ts';

let root: string;
beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-local-store-'));
});
afterAll(() => fs.rm(root, { recursive: true, force: true }));

const options = () => ({ rootDir: root, publicUrl: 'http://quire.test', signingSecret: 'a-secret-of-enough-length' });
const queryOf = (url: string) => Object.fromEntries(new URL(url).searchParams);

describe('local store', () => {
  it('streams objects in and out, reads a head, stats and removes', async () => {
    const store = createLocalStore(options());
    const { size } = await store.put('org/m1/original', Readable.from([Buffer.from('hello '), Buffer.from('world')]));
    expect(size).toBe(11);
    expect(await store.stat('org/m1/original')).toEqual({ size: 11 });
    expect((await store.head('org/m1/original', 5)).toString()).toBe('hello');
    const chunks: Buffer[] = [];
    for await (const c of await store.get('org/m1/original')) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('hello world');
    await store.remove(['org/m1/original']);
    expect(await store.stat('org/m1/original')).toBeNull();
  });

  it('refuses keys that would leave its directory', async () => {
    const store = createLocalStore(options());
    await expect(store.put('../escape', Buffer.from('x'))).rejects.toThrow(/Unsafe/);
    await expect(store.put('/abs', Buffer.from('x'))).rejects.toThrow(/Unsafe/);
  });

  it('signs URLs for one operation and one key, and they expire', async () => {
    let now = Date.now();
    const store = createLocalStore({ ...options(), now: () => now });
    const put = queryOf(await store.presignPut('org/m2/original', 60));
    expect(store.verify('put', put)).toEqual({ ok: true, key: 'org/m2/original' });
    expect(store.verify('get', put)).toEqual({ ok: false, reason: 'invalid' });
    expect(store.verify('put', { ...put, key: 'org/m3/original' })).toEqual({ ok: false, reason: 'invalid' });
    expect(store.verify('put', { ...put, sig: 'f'.repeat(64) })).toEqual({ ok: false, reason: 'invalid' });
    const other = createLocalStore({ ...options(), signingSecret: 'another-secret-entirely' });
    expect(other.verify('put', put)).toEqual({ ok: false, reason: 'invalid' });
    now += 61_000;
    expect(store.verify('put', put)).toEqual({ ok: false, reason: 'expired' });
  });

  it('takes an expiry only as it was signed: decimal digits, no other spelling of the same number', async () => {
    const store = createLocalStore(options());
    const put = queryOf(await store.presignPut('org/m4/original', 60));
    expect(store.verify('put', put)).toEqual({ ok: true, key: 'org/m4/original' });
    const expires = Number(put.expires);
    for (const spelling of [
      `${expires}.0`,
      ` ${expires}`,
      `${expires} `,
      `+${expires}`,
      `0x${expires.toString(16)}`,
      `${expires / 10}e1`,
    ]) {
      expect(store.verify('put', { ...put, expires: spelling }), spelling).toEqual({ ok: false, reason: 'invalid' });
    }
  });
});
