import request, { Response } from 'supertest';
import { DataSource } from 'typeorm';
import { Clock } from '../../../src/common/clock/clock';
import { PlatIdentity } from '../../../src/protocol/client';
import { Actor, SignOptions } from '../../support/actors';
import { ShiftedClock } from '../../support/clock';
import { bootApp, BootOptions, TestApp } from '../../support/app';

/**
 * Callers are real people: identity chains published to the service's embedded relay, sending
 * request proofs (design.md §3) that the service verifies against those chains, through `Actor`.
 */

/** A DID of the protocol form with no chain behind it (someone who never used the service). */
export function newDid(): string {
  return PlatIdentity.create().did;
}

export { ShiftedClock };

export interface SpacesTestApp extends TestApp {
  clock: ShiftedClock;
  dataSource: DataSource;
  /** A new person: a fresh identity, published to the relay before their first request. */
  caller(): Caller;
  anonymous: Caller;
}

/**
 * Boots the real AppModule (real proofs, origin identities from the embedded relay) on a fresh
 * database, with a clock the tests can move. `override` replaces further outside services.
 */
export async function bootSpaces(
  options: Pick<BootOptions, 'override' | 'env' | 'databaseUrl'> = {},
): Promise<SpacesTestApp> {
  const clock = new ShiftedClock();
  const t = await bootApp({
    env: options.env,
    databaseUrl: options.databaseUrl,
    override: (builder) => {
      const withClock = builder.overrideProvider(Clock).useValue(clock);
      return options.override ? options.override(withClock) : withClock;
    },
  });
  return {
    ...t,
    clock,
    dataSource: t.app.get(DataSource),
    caller: () => Caller.person(t, clock),
    anonymous: new Caller(t, null),
  };
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Someone calling the API: a person with a real identity (an `Actor`), or anonymous. */
export class Caller {
  readonly did: string | null;

  constructor(
    private readonly t: TestApp,
    private readonly actor: Promise<Actor> | null,
    private readonly identity: PlatIdentity | null = null,
    private readonly clock?: Clock,
  ) {
    this.did = identity?.did ?? null;
  }

  /** A new person. The DID is known at once; the genesis is published in the background. */
  static person(t: TestApp, clock?: Clock, identity = PlatIdentity.create()): Caller {
    const actor = Actor.create(t, { identity, clock: clock ? () => clock.now() : undefined });
    actor.catch(() => undefined); // surfaced by the first request that awaits it
    return new Caller(t, actor, identity, clock);
  }

  /** The same person calling another replica of the service (same database). */
  on(replica: TestApp): Caller {
    return this.identity ? Caller.person(replica, this.clock, this.identity) : new Caller(replica, null);
  }

  /** The headers of one signed request (Authorization), for requests built by hand. */
  async headers(method: Method, path: string): Promise<Record<string, string>> {
    return this.actor ? (await this.actor).headers(method, path) : {};
  }

  private async send(method: Method, path: string, body?: unknown, options?: SignOptions): Promise<Response> {
    if (this.actor) return (await this.actor).send(method, path, body, options);
    const call = request(this.t.http)[method.toLowerCase() as 'get'](path);
    return body === undefined ? call : call.send(body as object);
  }

  get(path: string) {
    return this.send('GET', path);
  }

  post(path: string, body?: unknown, options?: SignOptions) {
    return this.send('POST', path, body, options);
  }

  put(path: string, body?: unknown) {
    return this.send('PUT', path, body);
  }

  patch(path: string, body?: unknown) {
    return this.send('PATCH', path, body);
  }

  delete(path: string, body?: unknown) {
    return this.send('DELETE', path, body);
  }
}

export const NOT_FOUND_TEXT = '{"code":"E_NOT_FOUND","message":"Not found"}';

/** The one 404: same status, bytes and content headers for everything hidden, missing or malformed. */
export function expectNotFound(response: Response): void {
  if (response.status !== 404 || response.text !== NOT_FOUND_TEXT) {
    throw new Error(`expected the constant 404, got ${response.status} ${response.text}`);
  }
  const headers = {
    type: response.headers['content-type'],
    length: response.headers['content-length'],
    cache: response.headers['cache-control'],
  };
  expect(headers).toEqual({
    type: 'application/json; charset=utf-8',
    length: String(NOT_FOUND_TEXT.length),
    cache: 'no-store',
  });
}

export function expectStatus(response: Response, status: number): void {
  if (response.status !== status) {
    throw new Error(`expected ${status}, got ${response.status} ${response.text}`);
  }
}

/** A 400 with validation details naming `path`. */
export function expectInvalid(response: Response, path?: string): void {
  expectStatus(response, 400);
  const body = response.body as { code: string; details?: { path: string; message: string }[] };
  if (body.code !== 'E_INVALID_REQUEST' || !Array.isArray(body.details) || body.details.length === 0) {
    throw new Error(`expected 400 with details, got ${response.text}`);
  }
  if (path && !body.details.some((detail) => detail.path === path)) {
    throw new Error(`expected a detail at ${path}, got ${response.text}`);
  }
}

export async function createSpace(
  owner: Caller,
  displayName = 'Makers',
): Promise<{ id: string; did: string }> {
  const response = await owner.post('/spaces', { displayName, description: 'A place to make things' });
  expectStatus(response, 201);
  return response.body as { id: string; did: string };
}

/** A space with the given public configuration. */
export async function configuredSpace(
  owner: Caller,
  isPublic: boolean,
  joinMode: 'closed' | 'open' | 'application',
): Promise<string> {
  const { id } = await createSpace(owner);
  expectStatus(await owner.put(`/spaces/${id}/public-config`, { isPublic, joinMode }), 200);
  return id;
}

/** Makes `person` an active member of an open public space, or of any space through an invite. */
export async function addMember(owner: Caller, spaceId: string, person: Caller): Promise<void> {
  const invite = await owner.post(`/spaces/${spaceId}/my-invite`, {});
  expectStatus(invite, 201);
  expectStatus(await person.post(`/spaces/join/${invite.body.inviteCode}`), 200);
}

export const count = async (dataSource: DataSource, table: string): Promise<number> =>
  Number((await dataSource.query(`SELECT count(*)::int AS n FROM "${table}"`))[0].n);

/** A public space (isPublic true) with the join mode given; answers its id. */
export const publicSpace = (owner: Caller, joinMode: 'closed' | 'open' | 'application' = 'open') =>
  configuredSpace(owner, true, joinMode);

/** Sets a space's last activity directly (listing order tests); null means never active. */
export async function setActivity(dataSource: DataSource, spaceId: string, at: Date | null): Promise<void> {
  await dataSource.query('UPDATE spaces SET last_activity_at = $2 WHERE id = $1', [
    spaceId.slice('space_'.length),
    at,
  ]);
}

/**
 * Every item of a listing, walked forward with `after` (limit per page); then walked back with
 * `before` from the last page's previousCursor, to the start, ending with the last page's items:
 * `backward` equals `forward` when both directions agree.
 */
export async function walk<T>(
  caller: Caller,
  path: string,
  limit: number,
): Promise<{ forward: T[]; backward: T[]; pages: number }> {
  const join = path.includes('?') ? '&' : '?';
  const forward: T[] = [];
  let lastPage: T[] = [];
  let lastPrevious: string | null = null;
  let after: string | null = null;
  let pages = 0;
  do {
    const response = await caller.get(
      `${path}${join}limit=${limit}${after ? `&after=${encodeURIComponent(after)}` : ''}`,
    );
    expectStatus(response, 200);
    const body = response.body as { items: T[]; nextCursor: string | null; previousCursor?: string | null };
    expect(body.items.length).toBeLessThanOrEqual(limit);
    forward.push(...body.items);
    lastPage = body.items;
    lastPrevious = body.previousCursor ?? null;
    after = body.nextCursor;
    pages++;
    if (pages > 1000) throw new Error('listing does not end');
  } while (after);
  const backward: T[] = [...lastPage];
  let before = lastPrevious;
  while (before) {
    const response = await caller.get(`${path}${join}limit=${limit}&before=${encodeURIComponent(before)}`);
    expectStatus(response, 200);
    const body = response.body as { items: T[]; previousCursor?: string | null };
    backward.unshift(...body.items);
    before = body.previousCursor ?? null;
  }
  return { forward, backward, pages };
}
