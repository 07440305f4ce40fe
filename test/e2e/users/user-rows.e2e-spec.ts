import { User } from '../../../src/users/entities/user.entity';
import { UsersRepository, USERS_STATEMENTS } from '../../../src/users/users.repository';
import { UsersService } from '../../../src/users/services/users.service';
import { bootSpaces, expectStatus, SpacesTestApp } from '../spaces/support';

/** The fixed-SQL account reads (docs/decisions/0084-hot-reads-on-fixed-sql-with-explicit-row-mapping.md)
 * answer what TypeORM's find answers, column for column. */
describe('user rows on fixed SQL', () => {
  let t: SpacesTestApp;

  beforeAll(async () => {
    t = await bootSpaces();
  });

  afterAll(() => t?.close());

  it('select every column of the entity, and only those', () => {
    const selected = /SELECT ([\s\S]*) FROM/
      .exec(USERS_STATEMENTS.userById)![1]
      .split(',')
      .map((name) => name.trim());
    const columns = t.dataSource.getMetadata(User).columns.map((column) => column.databaseName);
    expect([...selected].sort()).toEqual([...columns].sort());
  });

  it('map an account found by id, DID and handle to the entity TypeORM loads', async () => {
    const person = t.caller();
    expectStatus(await person.post('/users', { handle: 'Rows-Person', displayName: 'Rows' }), 201);
    expectStatus(
      await person.patch('/profile', { isPublic: true, bio: 'hi', links: [{ url: 'https://x.example' }] }),
      200,
    );
    const expected = await t.dataSource.getRepository(User).findOne({ where: { did: person.did! } });
    expect(expected).not.toBeNull();
    // Through the service's own lookup by every reference kind (private: the routes call it).
    const users = t.app.get(UsersService) as unknown as {
      findPublicByReference(reference: string): Promise<User>;
    };
    for (const reference of [person.did!, `identity_${expected!.id.replace(/-/g, '')}`, 'rows-person']) {
      expect(await users.findPublicByReference(reference)).toEqual(expected);
    }
    expect(await users.findPublicByReference('nobody-here')).toBeNull();
    // The directory's pages map raw rows the same way.
    const page = await t.app.get(UsersRepository).publicPage({ values: null, backward: false, take: 1000 });
    expect(page).toEqual(
      await t.dataSource
        .getRepository(User)
        .find({ where: { isPublic: true }, order: { createdAt: 'ASC', id: 'ASC' } }),
    );
  });
});
