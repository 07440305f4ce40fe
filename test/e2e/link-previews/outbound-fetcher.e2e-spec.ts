import type { LookupAddress } from 'node:dns';
import { isPublicAddress, type Resolver } from '../../../src/infrastructure/outbound/address-guard';
import {
  OutboundError,
  OutboundFetcher,
  OutboundRequest,
} from '../../../src/infrastructure/outbound/outbound-fetcher';
import { html, LocalWeb } from './local-web';

/** The one guarded outbound fetcher against a local server (docs/decisions/0151-one-guarded-outbound-fetcher.md). */
describe('outbound fetcher guard (e2e)', () => {
  const web = new LocalWeb();
  const page = (url: string): OutboundRequest => ({
    url,
    maxBytes: 1024,
    overflow: 'truncate',
    timeoutMs: 2000,
    maxRedirects: 5,
    accept: 'text/html',
    purpose: 'test',
  });
  const failureOf = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (error: unknown) =>
        error instanceof OutboundError ? `${error.failure}: ${error.message}` : String(error),
    );
  /** A resolver answering fixed addresses per name, counting its calls. */
  const resolverOf = (answers: Record<string, string[]>, calls: string[] = []): Resolver => {
    return (hostname, callback) => {
      calls.push(hostname);
      const addresses: LookupAddress[] = (answers[hostname] ?? []).map((address) => ({
        address,
        family: address.includes(':') ? 6 : 4,
      }));
      callback(addresses.length ? null : new Error(`ENOTFOUND ${hostname}`), addresses);
    };
  };

  beforeAll(async () => {
    await web.start();
    web.routes.set('/page', html('<title>page</title>'));
  });

  afterAll(async () => {
    await web.stop();
  });

  it('refuses 127.0.0.1 when the configuration does not let it through, before connecting', async () => {
    const fetcher = new OutboundFetcher({ allowedPrivateHosts: [], publicBaseUrl: 'https://api.example' });
    expect(await failureOf(fetcher.get(page(web.url('/page'))))).toBe(
      'refused: 127.0.0.1 is not a public address',
    );
    expect(web.hits.get('/page')).toBeUndefined();
  });

  it('lets the one allowed host:port through, naming the service and its base URL in the User-Agent', async () => {
    let agent: string | undefined;
    web.routes.set('/agent', (request, response) => {
      agent = request.headers['user-agent'];
      html('<title>ok</title>')(request, response);
    });
    const fetcher = new OutboundFetcher({
      allowedPrivateHosts: [`127.0.0.1:${web.port}`],
      publicBaseUrl: 'https://api.example',
    });
    const answer = await fetcher.get(page(web.url('/agent')));
    expect(answer).toMatchObject({ status: 200, mediaType: 'text/html', charset: 'utf-8' });
    expect(answer.body.toString()).toBe('<title>ok</title>');
    expect(agent).toBe('plat-api/1.0 (test; +https://api.example)');
    // Another port of the same address is not let through.
    expect(await failureOf(fetcher.get(page(`http://127.0.0.1:${web.port + 1}/`)))).toMatch(/^refused/);
  });

  it('checks the address at connect time: a name rebound to a private address is refused', async () => {
    const calls: string[] = [];
    const fetcher = new OutboundFetcher({
      allowedPrivateHosts: [`127.0.0.1:${web.port}`],
      publicBaseUrl: 'https://api.example',
      resolver: resolverOf(
        { 'rebind.test': ['127.0.0.1'], 'mixed.test': ['93.184.215.14', '127.0.0.1'] },
        calls,
      ),
    });
    const before = web.hits.get('/page') ?? 0;
    expect(await failureOf(fetcher.get(page(`http://rebind.test:${web.port}/page`)))).toBe(
      'refused: rebind.test does not resolve to public addresses only',
    );
    expect(await failureOf(fetcher.get(page(`http://mixed.test:${web.port}/page`)))).toBe(
      'refused: mixed.test does not resolve to public addresses only',
    );
    // One resolution per connection, the one connected with: nothing to rebind in between.
    expect(calls).toEqual(['rebind.test', 'mixed.test']);
    expect(web.hits.get('/page') ?? 0).toBe(before);
  });

  it('checks every hop of a redirect, and refuses schemes other than http and https', async () => {
    const fetcher = new OutboundFetcher({
      allowedPrivateHosts: [`127.0.0.1:${web.port}`],
      publicBaseUrl: 'https://api.example',
    });
    web.routes.set('/to-metadata', (_q, s) =>
      s.writeHead(302, { location: 'http://169.254.169.254/latest' }).end(),
    );
    web.routes.set('/to-file', (_q, s) => s.writeHead(302, { location: 'file:///etc/passwd' }).end());
    web.routes.set('/to-nat64', (_q, s) => s.writeHead(302, { location: 'http://[64:ff9b::7f00:1]/' }).end());
    expect(await failureOf(fetcher.get(page(web.url('/to-metadata'))))).toBe(
      'refused: 169.254.169.254 is not a public address',
    );
    expect(await failureOf(fetcher.get(page(web.url('/to-file'))))).toBe(
      'refused: file: is not http or https',
    );
    expect(await failureOf(fetcher.get(page(web.url('/to-nat64'))))).toMatch(
      /^refused: \[64:ff9b::7f00:1\] is not/,
    );
  });

  it('refuses a body larger than the cap when asked to, and a content type it does not take', async () => {
    const fetcher = new OutboundFetcher({
      allowedPrivateHosts: [`127.0.0.1:${web.port}`],
      publicBaseUrl: 'https://api.example',
    });
    web.routes.set('/big', (_q, s) =>
      s.writeHead(200, { 'content-type': 'image/png', 'content-length': '4096' }).end(Buffer.alloc(4096)),
    );
    web.routes.set('/big-chunked', (_q, s) => {
      s.writeHead(200, { 'content-type': 'image/png' });
      for (let i = 0; i < 4; i += 1) s.write(Buffer.alloc(1024));
      s.end();
    });
    expect(await failureOf(fetcher.get({ ...page(web.url('/big')), overflow: 'fail' }))).toBe(
      'too_large: 4096 bytes, more than 1024',
    );
    expect(await failureOf(fetcher.get({ ...page(web.url('/big-chunked')), overflow: 'fail' }))).toBe(
      'too_large: more than 1024 bytes',
    );
    expect(
      await failureOf(
        fetcher.get({ ...page(web.url('/big')), contentTypes: (type) => type === 'text/html' }),
      ),
    ).toBe('unwanted_type: answered image/png');
  });

  it('limits requests to one host to two at once', async () => {
    let running = 0;
    let most = 0;
    web.routes.set('/busy', (_q, s) => {
      running += 1;
      most = Math.max(most, running);
      setTimeout(() => {
        running -= 1;
        s.writeHead(200, { 'content-type': 'text/html' }).end('ok');
      }, 50);
    });
    const fetcher = new OutboundFetcher({
      allowedPrivateHosts: [`127.0.0.1:${web.port}`],
      publicBaseUrl: 'https://api.example',
      hostIntervalMs: 0,
    });
    await Promise.all(Array.from({ length: 6 }, () => fetcher.get(page(web.url('/busy')))));
    expect(most).toBe(2);
  });

  it('starts requests to one host at least hostIntervalMs apart', async () => {
    const starts: number[] = [];
    web.routes.set('/paced', (_q, s) => {
      starts.push(Date.now());
      s.writeHead(200, { 'content-type': 'text/html' }).end('ok');
    });
    const fetcher = new OutboundFetcher({
      allowedPrivateHosts: [`127.0.0.1:${web.port}`],
      publicBaseUrl: 'https://api.example',
      hostConcurrency: 4,
      hostIntervalMs: 150,
    });
    await Promise.all(Array.from({ length: 4 }, () => fetcher.get(page(web.url('/paced')))));
    expect(starts).toHaveLength(4);
    const gaps = starts.slice(1).map((start, i) => start - starts[i]);
    // The gate starts each request a full interval after the last; these are arrival times at the
    // server, so each one's connect jitters them by some milliseconds (without the gate all four
    // arrive within a few). So: no two near together, and the three intervals in all.
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(100);
    expect(starts[3] - starts[0]).toBeGreaterThanOrEqual(3 * 150 - 30);
  });

  it('tells CGNAT, NAT64 and 6to4 addresses from public ones', () => {
    for (const closed of ['100.64.0.1', '100.127.255.254', '64:ff9b::a00:1', '2002:a00:1::1']) {
      expect(isPublicAddress(closed)).toBe(false);
    }
  });
});
