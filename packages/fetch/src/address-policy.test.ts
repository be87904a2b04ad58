import { describe, expect, it } from 'vitest';
import { refusalOf } from './address-policy.ts';
import { guardedRequest } from './guarded-request.ts';

describe('refusalOf', () => {
  it.each([
    ['::1', '::1 is not a public address (loopback)'],
    ['::', ':: is not a public address (unspecified)'],
    ['0.0.0.0', '0.0.0.0 is not a public address (unspecified)'],
    ['127.0.0.1', '127.0.0.1 is not a public address (loopback)'],
    ['::ffff:127.0.0.1', '::ffff:127.0.0.1 is not a public address (ipv4Mapped)'],
    ['::7f00:1', '::7f00:1 is an IPv4-compatible IPv6 address'],
    ['168.63.129.16', '168.63.129.16 is a cloud metadata address'],
  ])('names %s as given, and what it is', (address, reason) => {
    expect(refusalOf(address)).toBe(reason);
  });

  it('lets a public address through', () => {
    expect(refusalOf('93.184.215.14')).toBeUndefined();
    expect(refusalOf('2606:2800:21f:cb07:6820:80da:af6b:8b2c')).toBeUndefined();
  });
});

describe('guardedRequest refusing a literal address', () => {
  it.each([
    ['http://[::1]:9/', '[::1]', 'loopback'],
    ['http://[::]:9/', '[::]', 'unspecified'],
    ['http://0.0.0.0:9/', '0.0.0.0', 'unspecified'],
  ])('refuses %s naming the address, with no undefined in its message', async (url, given, range) => {
    const err = await guardedRequest(new URL(url), {}).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err?.message).toContain(given);
    expect(err?.message).toContain(range);
    expect(err?.message).not.toMatch(/undefined|IPv4-compatible/);
  });
});
