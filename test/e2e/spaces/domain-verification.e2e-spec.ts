import * as http from 'node:http';
import { AddressInfo, Socket } from 'node:net';
import { DomainFetcherService, FetchedDocument } from '../../../src/spaces/services/domain-fetcher.service';
import {
  addMember,
  bootSpaces,
  Caller,
  count,
  createSpace,
  expectInvalid,
  expectNotFound,
  expectStatus,
  newDid,
  publicSpace,
  SpacesTestApp,
} from './support';

/** What each test domain answers at /.well-known/plat-did; unlisted domains answer 404. */
type Answer = { status: number; body: string } | 'hang' | 'reset';

/**
 * Stands for the internet: the service's fetcher is pointed at this server on 127.0.0.1, which
 * answers per Host header. The fetcher keeps the real request code (deadline, body cap).
 */
class LocalWeb {
  readonly answers = new Map<string, Answer>();
  readonly requests: { host: string; path: string }[] = [];
  private readonly sockets = new Set<Socket>();
  private readonly server = http.createServer((request, response) => {
    const host = (request.headers.host ?? '').split(':')[0];
    this.requests.push({ host, path: request.url ?? '' });
    const answer = this.answers.get(host) ?? { status: 404, body: 'not here' };
    if (answer === 'hang') return;
    if (answer === 'reset') return request.socket.destroy();
    response.writeHead(answer.status, { 'content-type': 'text/plain' }).end(answer.body);
  });

  async start(): Promise<number> {
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return (this.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

/** A document request of a test's stand-in fetcher (a local server in place of a domain). */
interface DocumentRequest extends http.RequestOptions {
  timeoutMs: number;
  maxBytes: number;
}

function requestDocument(
  transport: typeof http,
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

class LocalFetcher extends DomainFetcherService {
  constructor(private readonly port: () => number) {
    super();
  }

  get(domain: string, path: string): Promise<FetchedDocument> {
    return requestDocument(http, {
      host: '127.0.0.1',
      port: this.port(),
      path,
      headers: { host: domain },
      timeoutMs: 300,
      maxBytes: 1024,
    });
  }
}

describe('POST /spaces/{id}/domain-verification (e2e)', () => {
  let t: SpacesTestApp;
  let owner: Caller;
  const web = new LocalWeb();
  let port = 0;

  beforeAll(async () => {
    port = await web.start();
    t = await bootSpaces({
      override: (builder) =>
        builder.overrideProvider(DomainFetcherService).useValue(new LocalFetcher(() => port)),
    });
    owner = t.caller();
  });

  afterAll(async () => {
    await t.close();
    await web.stop();
  });

  async function space(): Promise<{ id: string; did: string }> {
    const id = await publicSpace(owner);
    return { id, did: (await owner.get(`/spaces/${id}`)).body.did };
  }

  const verify = (id: string, body: Record<string, unknown> = {}, caller: Caller = owner) =>
    caller.post(`/spaces/${id}/domain-verification`, body);

  const publicVerifiedDomain = async (id: string) =>
    (await t.anonymous.get(`/v1/spaces/${id}`)).body.verifiedDomain;

  it('verifies a domain whose plat-did document names the space’s DID', async () => {
    const { id, did } = await space();
    web.answers.set('makers.example', { status: 200, body: `${did}\n` });
    const response = await verify(id, { domain: ' Makers.Example ' });
    expectStatus(response, 200);
    expect(response.body).toEqual({
      domain: 'makers.example',
      status: 'verified',
      verifiedDomain: 'makers.example',
    });
    expect(web.requests.at(-1)).toEqual({ host: 'makers.example', path: '/.well-known/plat-did' });
    expect(await publicVerifiedDomain(id)).toBe('makers.example');
    const card = (await t.anonymous.get('/v1/spaces?limit=100')).body.items.find(
      (c: { id: string }) => c.id === id,
    );
    expect(card.verifiedDomain).toBe('makers.example');
    expect((await owner.get(`/spaces/${id}`)).body.verifiedDomain).toBe('makers.example');
  });

  it('keeps a verified domain that stops answering; clears it once the domain names someone else', async () => {
    const { id, did } = await space();
    web.answers.set('flaky.example', { status: 200, body: did });
    expect((await verify(id, { domain: 'flaky.example' })).body.status).toBe('verified');

    for (const outage of [
      'hang',
      'reset',
      { status: 503, body: 'down' },
      { status: 500, body: did },
    ] as Answer[]) {
      web.answers.set('flaky.example', outage);
      const response = await verify(id); // no body: the domain submitted last
      expectStatus(response, 200);
      expect(response.body).toEqual({
        domain: 'flaky.example',
        status: 'unreachable',
        verifiedDomain: 'flaky.example',
      });
      expect(await publicVerifiedDomain(id)).toBe('flaky.example');
    }

    web.answers.set('flaky.example', { status: 200, body: newDid() });
    const other = await verify(id);
    expect(other.body).toEqual({ domain: 'flaky.example', status: 'unverified', verifiedDomain: null });
    expect(await publicVerifiedDomain(id)).toBeNull();
    // Once not verified, an outage does not bring it back.
    web.answers.set('flaky.example', 'hang');
    expect((await verify(id)).body).toEqual({
      domain: 'flaky.example',
      status: 'unreachable',
      verifiedDomain: null,
    });
  });

  it('does not verify documents that do not name exactly this DID', async () => {
    const { id, did } = await space();
    const other = await space();
    const cases: [string, Answer][] = [
      ['nothing.example', { status: 404, body: did }],
      ['redirect.example', { status: 302, body: did }],
      ['empty.example', { status: 200, body: '' }],
      ['theirs.example', { status: 200, body: other.did }],
      ['prefixed.example', { status: 200, body: `did=${did}` }],
      ['two.example', { status: 200, body: `${did}\n${other.did}` }],
      ['json.example', { status: 200, body: JSON.stringify({ did }) }],
      ['huge.example', { status: 200, body: `${did}${' '.repeat(4096)}` }],
    ];
    for (const [domain, answer] of cases) {
      web.answers.set(domain, answer);
      const response = await verify(id, { domain });
      expectStatus(response, 200);
      expect(response.body).toEqual({ domain, status: 'unverified', verifiedDomain: null });
    }
    expect(await publicVerifiedDomain(id)).toBeNull();
  });

  it('moving to another domain drops the old value unless the new one verifies', async () => {
    const { id, did } = await space();
    web.answers.set('first.example', { status: 200, body: did });
    expect((await verify(id, { domain: 'first.example' })).body.verifiedDomain).toBe('first.example');
    web.answers.set('second.example', 'hang');
    expect((await verify(id, { domain: 'second.example' })).body).toEqual({
      domain: 'second.example',
      status: 'unreachable',
      verifiedDomain: null,
    });
    web.answers.set('second.example', { status: 200, body: did });
    expect((await verify(id)).body.verifiedDomain).toBe('second.example');
  });

  it('refuses bad input with details and changes nothing', async () => {
    const { id } = await space();
    const requestsBefore = web.requests.length;
    expectInvalid(await verify(id), 'domain'); // nothing submitted before
    for (const domain of [
      'localhost',
      'example',
      '127.0.0.1',
      '10.0.0.1',
      'https://example.org',
      'example.org/path',
      'exa mple.org',
      '-bad.example',
      'a'.repeat(64) + '.example',
      'under_score.example',
      '',
      7,
      null,
    ]) {
      expectInvalid(await verify(id, { domain }), 'domain');
    }
    expectInvalid(await verify(id, { domain: 'ok.example', extra: 1 }), 'extra');
    expect(web.requests.length).toBe(requestsBefore);
    const [row] = await t.dataSource.query(
      'SELECT claimed_domain, verified_domain FROM spaces WHERE id = $1',
      [id.slice('space_'.length)],
    );
    expect(row).toEqual({ claimed_domain: null, verified_domain: null });
    expect(await count(t.dataSource, 'spaces')).toBeGreaterThan(0);
  });

  it('is for admins: members 403, strangers 403 on a public space and 404 on a private one', async () => {
    const { id, did } = await space();
    web.answers.set('guarded.example', { status: 200, body: did });
    const member = t.caller();
    await addMember(owner, id, member);
    expectStatus(await verify(id, { domain: 'guarded.example' }, member), 403);
    expectStatus(await verify(id, { domain: 'guarded.example' }, t.caller()), 403);
    expectStatus(await verify(id, { domain: 'guarded.example' }, t.anonymous), 401);
    const hidden = await createSpace(owner);
    expectNotFound(await verify(hidden.id, { domain: 'guarded.example' }, t.caller()));
    expectNotFound(await verify(`space_${'0'.repeat(32)}`, { domain: 'guarded.example' }));
    expect(await publicVerifiedDomain(id)).toBeNull();
    // A private space's admins verify too; the value shows once the profile is public.
    web.answers.set('hidden.example', { status: 200, body: hidden.did });
    expect((await verify(hidden.id, { domain: 'hidden.example' })).body.status).toBe('verified');
  });
});
