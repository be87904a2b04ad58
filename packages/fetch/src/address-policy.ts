import dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * request-filtering-agent refuses every address ipaddr.js does not call "unicast" (loopback, private,
 * link-local, CGNAT, multicast, unspecified, reserved, IPv4-mapped, NAT64, 6to4, Teredo...). These are
 * the addresses it lets through that must not be reached either.
 */
const REFUSED_UNICAST: [ipaddr.IPv4 | ipaddr.IPv6, number, string][] = [
  // ::a.b.c.d (RFC 4291 2.5.5.1, deprecated): ipaddr.js calls it unicast, yet it carries an IPv4 address.
  [ipaddr.parse('::'), 96, 'an IPv4-compatible IPv6 address'],
  // Azure's WireServer answers metadata and certificate requests from any VM, on a public address.
  [ipaddr.parse('168.63.129.16'), 32, 'a cloud metadata address'],
];

/**
 * Why the address must not be connected to, or undefined when it may be. Every address ipaddr.js does not call
 * "unicast" is refused here too, before request-filtering-agent sees it: its own message called `::1` (inside
 * `::/96`) "an IPv4-compatible IPv6 address" and a literal's lookup "family:undefined, host:undefined".
 */
export function refusalOf(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return undefined;
  const parsed = ipaddr.parse(address);
  const range = parsed.range();
  if (range !== 'unicast') return `${address} is not a public address (${range})`;
  for (const [range, bits, reason] of REFUSED_UNICAST) {
    if (parsed.kind() === range.kind() && parsed.match(range, bits)) return `${address} is ${reason}`;
  }
  return undefined;
}

export class RefusedAddressError extends Error {
  constructor(host: string, reason: string) {
    super(`${host}: ${reason}`);
    this.name = 'RefusedAddressError';
  }
}

/** Wraps a resolver so that a name resolving to a refused address fails at connect time. */
export function guardedLookup(lookup: LookupFunction = dns.lookup): LookupFunction {
  return (hostname, options, callback) =>
    lookup(hostname, options, (err, address, family) => {
      if (err) return callback(err, address, family);
      for (const entry of Array.isArray(address) ? address : [{ address }]) {
        const reason = refusalOf(entry.address);
        if (reason) return callback(new RefusedAddressError(hostname, reason), address, family);
      }
      callback(null, address, family);
    });
}
