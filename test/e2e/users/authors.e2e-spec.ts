import { AuthorDirectoryService } from '../../../src/users';
import { Actor, publish } from '../../support/actors';
import { bootSpaces, expectStatus, newDid, SpacesTestApp } from '../spaces/support';

/**
 * The users module's batch read for other modules' listings: author records of many DIDs in one
 * statement through its public API (src/users/index.ts), whatever the number of DIDs.
 */
describe('authors of many DIDs', () => {
  let t: SpacesTestApp;

  beforeAll(async () => {
    t = await bootSpaces();
  });

  afterAll(() => t?.close());

  /** The statements on `users` sent while `read` runs. */
  async function usersStatements<T>(read: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
    const query = jest.spyOn(t.dataSource, 'query');
    try {
      const result = await read();
      const statements = query.mock.calls.map(([sql]) => sql).filter((sql) => /\bFROM users\b/.test(sql));
      return { result, statements };
    } finally {
      query.mockRestore();
    }
  }

  it('reads N DIDs in one statement: accounts, private ones included, and `{ did }` for the unknown', async () => {
    const people = [t.caller(), t.caller(), t.caller(), t.caller()];
    for (const [index, person] of people.entries()) {
      expectStatus(
        await person.post('/users', { handle: `author-${index}-x`, displayName: `Author ${index}` }),
        201,
      );
    }
    // The first one public, the others private (the default): an author is named either way.
    expectStatus(await people[0].patch('/profile', { isPublic: true }), 200);
    const unknown = [newDid(), newDid()];
    const dids = [...people.map((person) => person.did!), ...unknown, people[1].did!];

    const authors = t.app.get(AuthorDirectoryService);
    const { result, statements } = await usersStatements(() => authors.authorsOf(dids));

    expect(statements).toHaveLength(1);
    expect(result.size).toBe(6);
    people.forEach((person, index) =>
      expect(result.get(person.did!)).toEqual({
        did: person.did,
        displayName: `Author ${index}`,
        username: `author-${index}-x`,
      }),
    );
    for (const did of unknown) expect(result.get(did)).toEqual({ did });
  });

  it('sends nothing for no DIDs', async () => {
    const { result, statements } = await usersStatements(() =>
      t.app.get(AuthorDirectoryService).authorsOf([]),
    );
    expect(result.size).toBe(0);
    expect(statements).toHaveLength(0);
  });

  it('tells which of many DIDs have a public profile, in one statement', async () => {
    const [open, closed] = [t.caller(), t.caller()];
    expectStatus(await open.post('/users', { handle: 'open-author', displayName: 'Open' }), 201);
    expectStatus(await open.patch('/profile', { isPublic: true }), 200);
    expectStatus(await closed.post('/users', { handle: 'closed-author', displayName: 'Closed' }), 201);
    const { result, statements } = await usersStatements(() =>
      t.app.get(AuthorDirectoryService).withPublicProfile([open.did!, closed.did!, newDid()]),
    );
    expect(statements).toHaveLength(1);
    expect([...result]).toEqual([open.did]);
  });

  it('gives a deactivated identity no record, with an account or without, in the same one statement', async () => {
    const clock = () => t.clock.now();
    const [withAccount, withoutAccount, kept] = await Promise.all([
      Actor.create(t, { clock }),
      Actor.create(t, { clock }),
      Actor.create(t, { clock }),
    ]);
    expectStatus(await withAccount.signUp('gone-author', 'Gone'), 201);
    expectStatus(await withAccount.patch('/profile', { isPublic: true }), 200);
    expectStatus(await kept.signUp('kept-author', 'Kept'), 201);
    await publish(t, [
      withAccount.identity.delete({ clock }).jws,
      withoutAccount.identity.delete({ clock }).jws,
    ]);

    const authors = t.app.get(AuthorDirectoryService);
    const dids = [withAccount.did, withoutAccount.did, kept.did];
    const { result, statements } = await usersStatements(() => authors.authorsOf(dids));
    expect(statements).toHaveLength(1);
    expect([...result.keys()]).toEqual([kept.did]);
    expect(result.get(kept.did)).toEqual({ did: kept.did, displayName: 'Kept', username: 'kept-author' });
    expect([...(await authors.withPublicProfile(dids))]).toEqual([]);

    await publish(t, [withAccount.identity.restore({ clock }).jws]);
    const restored = await authors.authorsOf(dids);
    expect(restored.get(withAccount.did)).toEqual({
      did: withAccount.did,
      displayName: 'Gone',
      username: 'gone-author',
    });
    expect(restored.has(withoutAccount.did)).toBe(false);
    expect([...(await authors.withPublicProfile(dids))]).toEqual([withAccount.did]);
  });
});
