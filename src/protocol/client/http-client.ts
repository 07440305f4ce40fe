import { systemClock, type Clock } from '../core';
import type { ProofIdentity } from './identity';
import { requestTarget, requestUrl, signRequestProof } from './request-proof';

export interface PlatResponse<T = unknown> {
  readonly status: number;
  readonly headers: Headers;
  /** parsed JSON when the response is JSON, else the text (null when empty) */
  readonly body: T;
}

/** An answer with a status the helper did not expect; carries the server's body. */
export class PlatHttpError extends Error {
  override readonly name = 'PlatHttpError';

  constructor(
    readonly method: string,
    readonly url: string,
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`${method} ${url} answered ${status}${describeBody(body)}`);
  }
}

/** The relay answered, but refused some of the operations. */
export class PublishRejectedError extends Error {
  override readonly name = 'PublishRejectedError';

  constructor(readonly results: OperationResult[]) {
    super(
      `the relay rejected ${results.filter(isRejected).length} of ${results.length} operation(s): ` +
        results
          .filter(isRejected)
          .map((result) => result.error ?? 'no reason given')
          .join('; '),
    );
  }
}

function describeBody(body: unknown): string {
  if (body === null || body === undefined || body === '') return '';
  if (typeof body === 'object') {
    const { code, message, error } = body as { code?: unknown; message?: unknown; error?: unknown };
    if (typeof message === 'string') return `: ${typeof code === 'string' ? `${code} ` : ''}${message}`;
    if (typeof error === 'string') return `: ${error}`;
    return `: ${JSON.stringify(body).slice(0, 300)}`;
  }
  return `: ${String(body).slice(0, 300)}`;
}

/** The protocol discovery document, `GET /v1/protocol` (api-spec.md, design.md §1). */
export interface ProtocolDiscovery {
  relayUrl: string;
  didMethod: string;
  specUrl: string;
  endpoints: {
    wellKnown: string;
    identity: string;
    identityLog: string;
    content: string;
    contentLog: string;
    operation: string;
    blob: string;
    indexContent: string;
    indexIdentities: string;
    [name: string]: string;
  };
}

/** One entry of the relay's ingest answer, `results[i]` for `operations[i]` (WEB-RELAY.md). */
export interface OperationResult {
  status: 'new' | 'duplicate' | 'rejected' | string;
  cid?: string;
  kind?: string;
  chainId?: string;
  error?: string;
  [member: string]: unknown;
}

function isRejected(result: OperationResult): boolean {
  return result.status !== 'new' && result.status !== 'duplicate';
}

export interface PlatRequestOptions {
  /** JSON-encoded as the request body */
  body?: unknown;
  /** signs a request proof (`Authorization: PLAT …`) with this identity's auth key */
  identity?: ProofIdentity;
  /** sent as X-Credential and bound into the proof's `ath` */
  credential?: string;
  /** see RequestProofInput.jti: default generated on writes only */
  jti?: string | boolean;
  headers?: Record<string, string>;
}

export interface PlatClientOptions {
  /** the API base URL, e.g. `https://api.plat.example` */
  baseUrl: string;
  /** the API host proofs name in `aud` (its PUBLIC_HOST); default: the host of baseUrl */
  audience?: string;
  fetch?: typeof fetch;
  clock?: Clock;
  /** per-request timeout in milliseconds (default 30000) */
  timeoutMs?: number;
}

/**
 * A typed client over global `fetch`: signs request proofs, presents credentials, and speaks to the
 * relay found through the discovery document (never a hardcoded relay path).
 */
export class PlatClient {
  readonly baseUrl: string;
  readonly audience: string;
  private readonly fetchImpl: typeof fetch;
  private readonly clock: Clock;
  private readonly timeoutMs: number;
  private discovery?: Promise<ProtocolDiscovery>;

  constructor(options: PlatClientOptions) {
    const base = new URL(options.baseUrl);
    if (base.protocol !== 'http:' && base.protocol !== 'https:') {
      throw new TypeError(`the API URL must be http(s): ${options.baseUrl}`);
    }
    base.search = '';
    base.hash = '';
    this.baseUrl = base.href.replace(/\/+$/, '');
    this.audience = options.audience ?? base.host;
    this.fetchImpl = options.fetch ?? globalThis.fetch;
    this.clock = options.clock ?? systemClock;
    this.timeoutMs = options.timeoutMs ?? 30_000;
  }

  /** An absolute URL under the base URL (its path prefix kept) for `/path?query`. */
  url(pathWithQuery: string): string {
    if (!pathWithQuery.startsWith('/')) throw new TypeError(`path must start with "/": ${pathWithQuery}`);
    return `${this.baseUrl}${pathWithQuery}`;
  }

  /**
   * One API request. The proof binds the target exactly as it will be sent (after URL
   * serialization), and the credential through `ath`. Never throws for an HTTP status.
   */
  request<T = unknown>(
    method: string,
    pathWithQuery: string,
    options: PlatRequestOptions = {},
  ): Promise<PlatResponse<T>> {
    return this.send<T>(method, this.url(pathWithQuery), options);
  }

  /** `GET /v1/protocol`, fetched once per client. */
  discover(): Promise<ProtocolDiscovery> {
    this.discovery ??= this.fetchDiscovery().catch((error: unknown) => {
      this.discovery = undefined;
      throw error;
    });
    return this.discovery;
  }

  /** The relay base URL from the discovery document (resolved against the API URL if relative). */
  async relayUrl(): Promise<string> {
    const { relayUrl } = await this.discover();
    return new URL(relayUrl, `${this.baseUrl}/`).href.replace(/\/+$/, '');
  }

  /** A discovery endpoint template with its `{name}` placeholders filled (URL-encoded). */
  async endpoint(name: keyof ProtocolDiscovery['endpoints'], values: Record<string, string> = {}) {
    const { endpoints } = await this.discover();
    const template = endpoints[name];
    if (typeof template !== 'string') throw new Error(`the discovery document has no "${name}" endpoint`);
    const filled = template.replace(/\{(\w+)\}/g, (whole, key: string) =>
      // `:` is legal in a path segment: DIDs stay readable (`/identities/did:plat:…`).
      key in values ? encodeURIComponent(values[key]).replace(/%3A/gi, ':') : whole,
    );
    return new URL(filled, `${this.baseUrl}/`).href;
  }

  /**
   * `POST <relayUrl>/proof/v1/operations` with `{operations}`. Throws PlatHttpError for a non-2xx
   * answer and PublishRejectedError when any operation is rejected; returns the per-op results.
   */
  async publishOperations(tokens: readonly string[]): Promise<OperationResult[]> {
    const url = `${await this.relayUrl()}/proof/v1/operations`;
    const response = await this.send<{ results?: unknown }>('POST', url, { body: { operations: tokens } });
    if (response.status < 200 || response.status >= 300) {
      throw new PlatHttpError('POST', url, response.status, response.body);
    }
    const results = response.body?.results;
    if (!Array.isArray(results) || results.length !== tokens.length) {
      throw new PlatHttpError('POST', url, response.status, response.body);
    }
    const typed = results as OperationResult[];
    if (typed.some(isRejected)) throw new PublishRejectedError(typed);
    return typed;
  }

  /** The identity log from the relay (`endpoints.identityLog`, every page), genesis first. */
  async fetchIdentityLog(did: string): Promise<string[]> {
    const base = await this.endpoint('identityLog', { did });
    const tokens: string[] = [];
    let after: string | null = null;
    for (let page = 0; page < 1000; page++) {
      const url = new URL(base);
      if (after !== null) url.searchParams.set('after', after);
      const response = await this.send<{ entries?: Array<{ jwsToken?: string }>; next?: string | null }>(
        'GET',
        url.href,
      );
      if (response.status !== 200 || !Array.isArray(response.body?.entries)) {
        throw new PlatHttpError('GET', url.href, response.status, response.body);
      }
      for (const entry of response.body.entries) {
        if (typeof entry?.jwsToken !== 'string') throw new PlatHttpError('GET', url.href, 200, entry);
        tokens.push(entry.jwsToken);
      }
      after = response.body.next ?? null;
      if (after === null) return tokens;
    }
    throw new Error(`identity log of ${did} did not end after 1000 pages`);
  }

  /** `POST /users` with a bare identity proof: claims an account for the identity (design.md §2). */
  async createAccount<T = Record<string, unknown>>(
    identity: ProofIdentity,
    handle: string,
    displayName?: string,
  ): Promise<T> {
    const body = { handle, ...(displayName !== undefined ? { displayName } : {}) };
    const response = await this.request<T>('POST', '/users', { body, identity });
    if (response.status !== 201)
      throw new PlatHttpError('POST', this.url('/users'), response.status, response.body);
    return response.body;
  }

  private async send<T>(
    method: string,
    given: string,
    options: PlatRequestOptions = {},
  ): Promise<PlatResponse<T>> {
    const url = requestUrl(given);
    const upper = method.toUpperCase();
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    let body: string | undefined;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    if (options.credential !== undefined) headers['x-credential'] = options.credential;
    if (options.identity) {
      headers.authorization = signRequestProof({
        identity: options.identity,
        audience: this.audience,
        method: upper,
        target: requestTarget(url),
        credential: options.credential,
        jti: options.jti,
        clock: this.clock,
      }).authorization;
    }
    const response = await this.fetchImpl(url, {
      method: upper,
      headers,
      body,
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    return { status: response.status, headers: response.headers, body: (await parseBody(response)) as T };
  }

  private async fetchDiscovery(): Promise<ProtocolDiscovery> {
    const url = this.url('/v1/protocol');
    const response = await this.send<ProtocolDiscovery>('GET', url);
    const document = response.body;
    if (
      response.status !== 200 ||
      typeof document !== 'object' ||
      document === null ||
      typeof document.relayUrl !== 'string' ||
      typeof document.endpoints !== 'object' ||
      document.endpoints === null
    ) {
      throw new PlatHttpError('GET', url, response.status, response.body);
    }
    return document;
  }
}

async function parseBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text.length === 0) return null;
  const type = response.headers.get('content-type') ?? '';
  if (/[/+]json\b/i.test(type)) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}
