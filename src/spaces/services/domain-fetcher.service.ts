import { Injectable } from '@nestjs/common';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import * as http from 'node:http';
import * as https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/** What a domain answered: its status and the start of its body. */
export interface FetchedDocument {
  status: number;
  /** At most `maxBytes` bytes of the body, as UTF-8. */
  body: string;
  /** The body was longer than `maxBytes`. */
  truncated: boolean;
}

/** How long a domain has to answer, and how much of its document is read. */
export const DOMAIN_FETCH_TIMEOUT_MS = 3000;
export const DOMAIN_DOCUMENT_MAX_BYTES = 1024;

/**
 * Fetches a document from an external domain (domain verification): an outside service, so tests
 * replace it. Resolves with what the domain answered; rejects when it does not answer in time
 * (network error, timeout, refused address).
 */
export abstract class DomainFetcherService {
  abstract get(domain: string, path: string): Promise<FetchedDocument>;
}

/**
 * `GET https://<domain><path>`: no redirects followed, a short deadline for the whole exchange,
 * at most DOMAIN_DOCUMENT_MAX_BYTES read, and only public addresses (a domain that resolves to a
 * loopback, private or link-local address is refused, at connect time, so DNS rebinding is too).
 */
@Injectable()
export class HttpsDomainFetcherService extends DomainFetcherService {
  get(domain: string, path: string): Promise<FetchedDocument> {
    // Node connects to an IP literal without any lookup, so the address guard would never see it.
    if (isIP(domain.replace(/^\[|\]$/g, '')) !== 0) {
      return Promise.reject(new Error(`${domain} is an IP address, not a domain`));
    }
    return requestDocument(https, {
      host: domain,
      servername: domain,
      path,
      lookup: publicAddressLookup,
      timeoutMs: DOMAIN_FETCH_TIMEOUT_MS,
      maxBytes: DOMAIN_DOCUMENT_MAX_BYTES,
    });
  }
}

export interface DocumentRequest extends https.RequestOptions {
  timeoutMs: number;
  maxBytes: number;
}

/** One GET over `transport` with a deadline on the whole exchange and a cap on the body read. */
export function requestDocument(
  transport: typeof http | typeof https,
  { timeoutMs, maxBytes, ...options }: DocumentRequest,
): Promise<FetchedDocument> {
  return new Promise((resolve, reject) => {
    const request = transport.request({
      ...options,
      method: 'GET',
      headers: { accept: 'text/plain', 'user-agent': 'plat-domain-verification', ...options.headers },
    });
    const deadline = setTimeout(() => request.destroy(new Error('timed out')), timeoutMs);
    const finish = (outcome: () => void) => {
      clearTimeout(deadline);
      outcome();
    };
    request.on('error', (error) => finish(() => reject(error)));
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const done = (truncated: boolean) =>
        finish(() =>
          resolve({
            status: response.statusCode ?? 0,
            body: Buffer.concat(chunks).subarray(0, maxBytes).toString('utf8'),
            truncated,
          }),
        );
      response.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size > maxBytes) {
          done(true);
          request.destroy();
        }
      });
      response.on('end', () => done(false));
      response.on('error', (error) => finish(() => reject(error)));
    });
    request.end();
  });
}

const NON_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
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
 * Whether an address is publicly routable (not loopback, private, link-local, reserved, ...).
 * BlockList checks IPv4-mapped IPv6 addresses (`::ffff:127.0.0.1`) against the IPv4 ranges.
 */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return !NON_PUBLIC.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

/** dns.lookup that fails when any address of the name is not public. */
export const publicAddressLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, '', 4);
    const refused = addresses.find((entry) => !isPublicAddress(entry.address));
    if (refused || addresses.length === 0) {
      return callback(new Error(`${hostname} does not resolve to public addresses only`), '', 4);
    }
    if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
    return callback(null, addresses[0].address, addresses[0].family);
  });
};
