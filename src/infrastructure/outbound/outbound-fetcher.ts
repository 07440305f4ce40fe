import * as http from 'node:http';
import * as https from 'node:https';
import { isIP } from 'node:net';
import { AppConfig } from '../../config/app-config';
import {
  guardedLookup,
  isPublicAddress,
  RefusedAddressError,
  type Resolver,
  systemResolver,
} from './address-guard';
import { HostLimiter } from './host-limiter';

/** Why an outbound fetch did not answer a body. */
export type OutboundFailure =
  /** The guard or the request's limits would not fetch it: a private address, a scheme, too many redirects. */
  | 'refused'
  /** It answered a content type the caller does not take. */
  | 'unwanted_type'
  /** The body is larger than the caller takes (with `overflow: 'fail'`). */
  | 'too_large'
  /** An error status (4xx/5xx). */
  | 'status'
  /** Network error or timeout. */
  | 'network';

export class OutboundError extends Error {
  constructor(
    readonly failure: OutboundFailure,
    message: string,
    /** The status of a `status` failure. */
    readonly status?: number,
  ) {
    super(message);
  }
}

/** One outbound request (a GET unless it says otherwise) and its limits. */
export interface OutboundRequest {
  url: string;
  /** `POST` sends `body` (webhook deliveries); GET by default. */
  method?: 'GET' | 'POST';
  /** The body of a POST, sent with its Content-Length. */
  body?: Buffer;
  /** More request headers (a POST's Content-Type, a webhook's signature headers). */
  headers?: Record<string, string>;
  /** Bytes of body read at most. */
  maxBytes: number;
  /** `truncate`: answer the first maxBytes (a page's head is enough); `fail`: refuse a larger body. */
  overflow: 'truncate' | 'fail';
  /** Deadline of the whole exchange, redirects included. */
  timeoutMs: number;
  /** Redirects followed (each hop guarded); 0: a redirect is answered as it is. */
  maxRedirects: number;
  /** The Accept header. */
  accept: string;
  /** Content types (lower-case media type, no parameters) taken; unset: any. */
  contentTypes?: (mediaType: string) => boolean;
  /** What the fetch is for, in the User-Agent (`link-preview`, `domain-verification`). */
  purpose: string;
  /** Sent as the Host header (a test's local server standing in for a domain). */
  hostHeader?: string;
  /** Answer a non-2xx status as a response instead of failing (domain verification reads it). */
  acceptAnyStatus?: boolean;
}

export interface OutboundResponse {
  /** The URL that answered, after redirects. */
  url: string;
  status: number;
  /** The media type, lower-case, without parameters; null when absent. */
  mediaType: string | null;
  /** The `charset` parameter of Content-Type, lower-case, or null. */
  charset: string | null;
  body: Buffer;
  /** The body was longer than maxBytes (overflow `truncate`). */
  truncated: boolean;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** Settings of a fetcher (OutboundFetcher.fromConfig reads them from AppConfig). */
export interface OutboundSettings {
  /** `host:port` pairs let through although their address is private (tests' local servers). */
  allowedPrivateHosts: readonly string[];
  /** Named in the User-Agent so a site's operator can find us. */
  publicBaseUrl: string;
  /** Requests to one host at once, and the least milliseconds between two starts to one host. */
  hostConcurrency?: number;
  hostIntervalMs?: number;
  /** How names are resolved (tests: a rebinding resolver). */
  resolver?: Resolver;
}

/**
 * The service's one guarded outbound HTTP client (docs/decisions/0151-one-guarded-outbound-fetcher.md):
 * `http` and `https` only; every hop of a redirect chain (up to the request's limit) checked; no
 * private, loopback, link-local, CGNAT, NAT64/6to4 address, checked at connect time so DNS
 * rebinding is refused too, unless its `host:port` is in OUTBOUND_ALLOWED_PRIVATE_HOSTS (refused at
 * boot in production); a deadline on the whole exchange, a cap on the bytes read, a content-type
 * gate, a polite User-Agent, and per-host concurrency and rate.
 */
export class OutboundFetcher {
  private readonly allowed: Set<string>;
  private readonly limiter: HostLimiter;
  private readonly resolver: Resolver;

  constructor(private readonly settings: OutboundSettings) {
    this.allowed = new Set(settings.allowedPrivateHosts.map((entry) => entry.trim().toLowerCase()));
    this.limiter = new HostLimiter(settings.hostConcurrency ?? 2, settings.hostIntervalMs ?? 100);
    this.resolver = settings.resolver ?? systemResolver;
  }

  static fromConfig(config: AppConfig): OutboundFetcher {
    return new OutboundFetcher({
      allowedPrivateHosts: config.outboundAllowedPrivateHosts,
      publicBaseUrl: config.publicBaseUrl,
    });
  }

  /** The User-Agent of a purpose: the service, what the fetch is for, and where to find us. */
  userAgent(purpose: string): string {
    return `plat-api/1.0 (${purpose}; +${this.settings.publicBaseUrl})`;
  }

  async get(request: OutboundRequest): Promise<OutboundResponse> {
    const deadline = Date.now() + request.timeoutMs;
    let url = parseTarget(request.url);
    for (let hop = 0; ; hop += 1) {
      const answer = await this.limiter.run(url.host, () => this.once(url, request, deadline));
      if ('redirect' in answer) {
        if (hop >= request.maxRedirects) {
          throw new OutboundError('refused', `more than ${request.maxRedirects} redirects`);
        }
        url = parseTarget(answer.redirect, url);
        continue;
      }
      return answer;
    }
  }

  /** One hop: a response, or where it redirects to. */
  private once(
    url: URL,
    request: OutboundRequest,
    deadline: number,
  ): Promise<OutboundResponse | { redirect: string }> {
    const secure = url.protocol === 'https:';
    const port = url.port !== '' ? Number(url.port) : secure ? 443 : 80;
    const host = url.hostname;
    const allowPrivate = this.allowed.has(`${host.toLowerCase()}:${port}`);
    const literal = host.replace(/^\[|\]$/g, '');
    // Node connects to an IP literal without a lookup, so the guard checks it here.
    if (isIP(literal) !== 0 && !allowPrivate && !isPublicAddress(literal)) {
      return Promise.reject(new OutboundError('refused', `${host} is not a public address`));
    }
    const remaining = deadline - Date.now();
    if (remaining <= 0) return Promise.reject(new OutboundError('network', 'timed out'));
    const transport = secure ? https : http;
    return new Promise((resolve, reject) => {
      const req = transport.request({
        host: literal,
        port,
        path: `${url.pathname}${url.search}`,
        method: request.method ?? 'GET',
        agent: false,
        lookup: guardedLookup(this.resolver, allowPrivate),
        ...(secure && isIP(literal) === 0 ? { servername: literal } : {}),
        headers: {
          ...request.headers,
          accept: request.accept,
          'user-agent': this.userAgent(request.purpose),
          host: request.hostHeader ?? url.host,
          ...(request.body ? { 'content-length': String(request.body.length) } : {}),
        },
      });
      let settled = false;
      const timer = setTimeout(() => req.destroy(new OutboundError('network', 'timed out')), remaining);
      const settle = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        outcome();
      };
      const fail = (error: Error) =>
        settle(() =>
          reject(
            error instanceof OutboundError
              ? error
              : error instanceof RefusedAddressError
                ? new OutboundError('refused', error.message)
                : new OutboundError('network', error.message),
          ),
        );
      req.on('error', fail);
      req.on('response', (response) => {
        const status = response.statusCode ?? 0;
        const location = response.headers.location;
        if (REDIRECTS.has(status) && location && request.maxRedirects > 0) {
          response.resume();
          settle(() => resolve({ redirect: location }));
          req.destroy();
          return;
        }
        if ((status < 200 || status > 299) && !request.acceptAnyStatus) {
          response.resume();
          req.destroy();
          return fail(new OutboundError('status', `answered ${status}`, status));
        }
        const [mediaType, charset] = contentTypeOf(response.headers['content-type']);
        if (request.contentTypes && !(mediaType && request.contentTypes(mediaType))) {
          req.destroy();
          return fail(new OutboundError('unwanted_type', `answered ${mediaType ?? 'no content type'}`));
        }
        const declared = Number(response.headers['content-length']);
        if (request.overflow === 'fail' && declared > request.maxBytes) {
          req.destroy();
          return fail(new OutboundError('too_large', `${declared} bytes, more than ${request.maxBytes}`));
        }
        const chunks: Buffer[] = [];
        let size = 0;
        const done = (truncated: boolean) =>
          settle(() =>
            resolve({
              url: url.toString(),
              status,
              mediaType,
              charset,
              body: Buffer.concat(chunks).subarray(0, request.maxBytes),
              truncated,
            }),
          );
        response.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
          if (size > request.maxBytes) {
            if (request.overflow === 'fail')
              fail(new OutboundError('too_large', `more than ${request.maxBytes} bytes`));
            else done(true);
            req.destroy();
          }
        });
        response.on('end', () => done(false));
        response.on('error', fail);
        response.on('aborted', () => fail(new OutboundError('network', 'the answer was cut short')));
      });
      req.end(request.body);
    });
  }
}

/** An absolute http(s) URL (relative to `base` for a redirect), or a refusal. */
function parseTarget(target: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(target, base);
  } catch {
    throw new OutboundError('refused', `not a URL: ${target.slice(0, 100)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new OutboundError('refused', `${url.protocol} is not http or https`);
  }
  if (url.username !== '' || url.password !== '')
    throw new OutboundError('refused', 'a URL with credentials');
  return url;
}

function contentTypeOf(header: string | undefined): [string | null, string | null] {
  if (!header) return [null, null];
  const [type, ...parameters] = header.split(';');
  const charset = parameters
    .map((parameter) => parameter.trim().split('='))
    .find(([name]) => name?.trim().toLowerCase() === 'charset')?.[1];
  return [
    type.trim().toLowerCase() || null,
    charset ? charset.trim().replace(/^"|"$/g, '').toLowerCase() : null,
  ];
}
