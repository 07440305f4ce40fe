import { Injectable, Optional } from '@nestjs/common';
import * as http from 'node:http';
import * as https from 'node:https';
import { isIP } from 'node:net';
import { OutboundFetcher } from '../../infrastructure/outbound/outbound-fetcher';

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
 * `GET https://<domain><path>` through the service's one guarded outbound fetcher
 * (docs/decisions/0151-one-guarded-outbound-fetcher.md) with domain verification's own limits: no
 * redirects followed, a DOMAIN_FETCH_TIMEOUT_MS deadline for the whole exchange, at most
 * DOMAIN_DOCUMENT_MAX_BYTES read, and only public addresses (checked at connect time, so DNS
 * rebinding is refused too).
 */
@Injectable()
export class HttpsDomainFetcherService extends DomainFetcherService {
  private readonly outbound: OutboundFetcher;

  constructor(@Optional() outbound?: OutboundFetcher) {
    super();
    this.outbound =
      outbound ?? new OutboundFetcher({ allowedPrivateHosts: [], publicBaseUrl: 'http://localhost' });
  }

  async get(domain: string, path: string): Promise<FetchedDocument> {
    // A domain, never an address: verification proves control of a name.
    if (isIP(domain.replace(/^\[|\]$/g, '')) !== 0) {
      throw new Error(`${domain} is an IP address, not a domain`);
    }
    const answer = await this.outbound.get({
      url: `https://${domain}${path}`,
      maxBytes: DOMAIN_DOCUMENT_MAX_BYTES,
      overflow: 'truncate',
      timeoutMs: DOMAIN_FETCH_TIMEOUT_MS,
      maxRedirects: 0,
      accept: 'text/plain',
      purpose: 'domain-verification',
      acceptAnyStatus: true,
    });
    return { status: answer.status, body: answer.body.toString('utf8'), truncated: answer.truncated };
  }
}

/** A document request of a test's stand-in fetcher (a local server in place of a domain). */
export interface DocumentRequest extends https.RequestOptions {
  timeoutMs: number;
  maxBytes: number;
}

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

export { isPublicAddress, publicAddressLookup } from '../../infrastructure/outbound/address-guard';
