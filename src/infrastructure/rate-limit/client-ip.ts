import { isIP } from 'node:net';
import { clientAddress, TrustProxy } from '../http/client-address';

/**
 * The address a request is counted under (design.md §6): the client's address as TRUST_PROXY says
 * (`clientAddress`: the socket's peer, the first X-Forwarded-For entry, or the entry that many hops
 * from the right), the same one the logs name.
 *
 * Then IPv4-mapped IPv6 becomes IPv4, and IPv6 is grouped by network (`ipv6Prefix`, /64 by
 * default) since one host usually holds a whole /64 and could otherwise rotate addresses.
 */
export function clientIp(
  socketAddress: string | undefined,
  forwardedFor: string | string[] | undefined,
  trustProxy: TrustProxy,
  ipv6Prefix: number,
): string {
  const address = clientAddress(socketAddress, forwardedFor, trustProxy);
  if (!address) return 'unknown';
  return isIP(address) === 6 ? ipv6Tracker(address, ipv6Prefix) : address;
}

/** IPv4-mapped addresses as IPv4; every other IPv6 address as its network: `h:h:h:h:0:0:0:0/64`. */
function ipv6Tracker(address: string, prefix: number): string {
  const hextets = hextetsOf(address);
  if (hextets.slice(0, 5).every((hextet) => hextet === 0) && hextets[5] === 0xffff) {
    return [hextets[6] >> 8, hextets[6] & 0xff, hextets[7] >> 8, hextets[7] & 0xff].join('.');
  }
  const masked = hextets.map((hextet, index) => {
    const keep = Math.min(16, Math.max(0, prefix - index * 16));
    return keep === 0 ? 0 : hextet & ((0xffff << (16 - keep)) & 0xffff);
  });
  return `${masked.map((hextet) => hextet.toString(16)).join(':')}/${prefix}`;
}

/** The eight 16-bit groups of an address that `isIP` accepted as IPv6. */
function hextetsOf(address: string): number[] {
  let text = address.toLowerCase();
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (tail.includes('.')) {
    const [a, b, c, d] = tail.split('.').map(Number);
    text = `${text.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, rest] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = rest ? rest.split(':') : [];
  const fill = rest === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...Array<string>(fill).fill('0'), ...right].map((group) => parseInt(group, 16));
}
