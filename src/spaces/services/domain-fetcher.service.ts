import { Injectable } from '@nestjs/common';
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
  constructor(private readonly outbound: OutboundFetcher) {
    super();
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
