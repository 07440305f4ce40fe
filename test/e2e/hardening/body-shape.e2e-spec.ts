import request from 'supertest';
import { Actor } from '../../support/actors';
import { bootApp, TestApp } from '../../support/app';

const PINS = '/profile/pins';
const INGEST = '/relay/proof/v1/operations';

/**
 * Request bodies are bounded by shape before validation (docs/decisions/0022-request-shape-bodies-paths-methods-query-parameters.md): a body wider or
 * deeper than BODY_MAX_MEMBERS / BODY_MAX_DEPTH is a small 400 at once, never seconds of CPU, a
 * multi-megabyte echo of its members, or a 500 from a stack overflow.
 */
describe('request body shape (e2e)', () => {
  let t: TestApp;
  let person: Actor;

  beforeAll(async () => {
    t = await bootApp();
    person = await Actor.create(t);
  });

  afterAll(() => t.close());

  /** A signed write with a raw JSON text as its body. */
  const put = (body: string) =>
    request(t.http)
      .put(PINS)
      .set(person.headers('PUT', PINS, { jti: true }))
      .set('Content-Type', 'application/json')
      .send(body);
  const ingest = (body: string) =>
    request(t.http).post(INGEST).set('Content-Type', 'application/json').send(body);
  const wide = (members: number) =>
    JSON.stringify(Object.fromEntries(Array.from({ length: members }, (_, i) => [`m${i}`, i])));

  it('refuses an object of 50,000 members with one detail, off its bytes before any parse', async () => {
    const body = wide(50_000);
    expect(body.length).toBeLessThan(1024 * 1024);
    const refusal = {
      code: 'E_INVALID_REQUEST',
      message: 'Invalid request',
      details: [{ path: 'body', message: 'body has more than 1000 members' }],
    };
    const response = await put(body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual(refusal);
    // Parsing and validating the members used to cost about a second of CPU. The bytes are refused
    // before JSON.parse runs: the same bytes cut short, which the parser would refuse as malformed,
    // get the same answer, while a short malformed body gets the parser's.
    const cut = await put(body.slice(0, -1));
    expect(cut.status).toBe(400);
    expect(cut.body).toEqual(refusal);
    const malformed = await put('{"m0":0');
    expect(malformed.status).toBe(400);
    expect(malformed.body).not.toEqual(refusal);
  });

  it('refuses an array of 1,001 items inside a body, naming it', async () => {
    const response = await put(JSON.stringify({ spaceIds: Array.from({ length: 1001 }, () => 'x') }));
    expect(response.status).toBe(400);
    expect(response.body.details).toEqual([
      { path: 'spaceIds', message: 'spaceIds has more than 1000 members' },
    ]);
  });

  it('refuses 100,000 nested brackets with 400, not a 500', async () => {
    const response = await put('['.repeat(100_000) + ']'.repeat(100_000));
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      code: 'E_INVALID_REQUEST',
      message: 'Invalid request',
      details: [
        {
          path: expect.stringMatching(/^0(\.0)*$/),
          message: expect.stringMatching(/nests deeper than 32 levels$/),
        },
      ],
    });
  });

  it('lets a body at the limits through to the usual validation', async () => {
    let nested: unknown = {};
    for (let depth = 2; depth < 32; depth += 1) nested = { n: nested };
    const response = await put(JSON.stringify({ spaceIds: [], nested }));
    expect(response.status).toBe(400);
    expect(response.body.details).toEqual([{ path: 'nested', message: 'property nested should not exist' }]);
  });

  it('lists at most 20 details', async () => {
    const unknown = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`unknown${i}`, i]));
    const response = await put(JSON.stringify({ spaceIds: [], ...unknown }));
    expect(response.status).toBe(400);
    expect(response.body.details).toHaveLength(20);
  });

  it('keeps the relay’s 400 small and in its own envelope: no echo of 50,000 members, no 500 for deep nesting', async () => {
    const widened = await ingest(wide(50_000));
    expect(widened.status).toBe(400);
    expect(widened.body).toEqual({
      error: 'Invalid request',
      details: [{ path: 'body', message: 'body has more than 1000 members' }],
    });
    expect((await ingest('['.repeat(100_000) + ']'.repeat(100_000))).status).toBe(400);
  });

  it('answers a wide body on a key-proof route without details, as every key-proof 400', async () => {
    const response = await request(t.http)
      .post('/v1/key-proof/present')
      .set('Content-Type', 'application/json')
      .send(wide(50_000));
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ code: 'E_INVALID_REQUEST', message: expect.any(String) });
  });
});
