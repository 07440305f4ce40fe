import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

const NON_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  // CGNAT (shared address space).
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  // IPv4-compatible addresses (`::a.b.c.d`), `::` and `::1` among them.
  ['::', 96],
  // NAT64 (well-known and local-use) and 6to4 embed an IPv4 address a gateway would reach.
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['2002::', 16],
  // Teredo tunnels to an embedded IPv4 address too.
  ['2001::', 32],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, 'ipv6');
}

/**
 * Whether an address is publicly routable (not loopback, private, link-local, CGNAT, reserved,
 * NAT64/6to4/Teredo...). BlockList checks IPv4-mapped IPv6 addresses (`::ffff:127.0.0.1`) against
 * the IPv4 ranges.
 */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return !NON_PUBLIC.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

/** How a name is resolved (dns.lookup with `all: true`); tests pass one of their own. */
export type Resolver = (
  hostname: string,
  callback: (error: Error | null, addresses: LookupAddress[]) => void,
) => void;

export const systemResolver: Resolver = (hostname, callback) =>
  dnsLookup(hostname, { all: true }, (error, addresses) => callback(error, addresses ?? []));

/** The error of an address the guard refuses. */
export class RefusedAddressError extends Error {
  readonly refused = true;
}

/**
 * A `lookup` for http(s).request that fails when any address of the name is not public, unless
 * `allowPrivate` (the host:port is one the configuration lets through). It runs when the socket
 * connects, so the address checked is the address connected to: DNS rebinding between a check and
 * the connection is not possible.
 */
export function guardedLookup(resolve: Resolver, allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, (error, addresses) => {
      if (error) return callback(error, '', 4);
      const wanted = options.family ? addresses.filter((a) => a.family === options.family) : addresses;
      const refused = allowPrivate ? undefined : wanted.find((entry) => !isPublicAddress(entry.address));
      if (refused || wanted.length === 0) {
        return callback(
          new RefusedAddressError(`${hostname} does not resolve to public addresses only`),
          '',
          4,
        );
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, wanted);
      return callback(null, wanted[0].address, wanted[0].family);
    });
  };
}

/** dns.lookup that fails when any address of the name is not public. */
export const publicAddressLookup: LookupFunction = guardedLookup(systemResolver, false);
