import { DataSource } from 'typeorm';
import { SpaceTopic } from '../../../src/spaces/entities/space-topic.entity';
import { Space } from '../../../src/spaces/entities/space.entity';
import { SpaceDirectoryService } from '../../../src/spaces/services/space-directory.service';
import { SPACE_BY_ID } from '../../../src/spaces/repositories/spaces.repository';
import { bootSpaces, Caller, createSpace, expectStatus, SpacesTestApp } from './support';

/** The fixed-SQL space reads (docs/decisions/0084-hot-reads-on-fixed-sql-with-explicit-row-mapping.md)
 * answer what TypeORM's find answers, column for column. */
describe('space rows on fixed SQL', () => {
  let t: SpacesTestApp;
  let owner: Caller;
  let directory: SpaceDirectoryService;

  beforeAll(async () => {
    t = await bootSpaces();
    owner = t.caller();
    directory = t.app.get(SpaceDirectoryService);
  });

  afterAll(() => t?.close());

  const viaTypeorm = (dataSource: DataSource, id: string) =>
    dataSource.getRepository(Space).findOne({ where: { id } });

  it('select every column of the entity, and only those', () => {
    const selected = /SELECT ([\s\S]*) FROM/
      .exec(SPACE_BY_ID)![1]
      .split(',')
      .map((name) => name.trim());
    const columns = t.dataSource.getMetadata(Space).columns.map((column) => column.databaseName);
    expect([...selected].sort()).toEqual([...columns].sort());
  });

  it('map a space by id, DID and domain to the entity TypeORM loads', async () => {
    const { id, did } = await createSpace(owner, 'Rows');
    expectStatus(await owner.put(`/spaces/${id}/public-config`, { isPublic: true, joinMode: 'open' }), 200);
    expectStatus(
      await owner.put(`/spaces/${id}/site`, {
        category: 'Open Source',
        links: [{ url: 'https://x.example' }],
      }),
      200,
    );
    const uuid = id.slice('space_'.length);
    const expected = await viaTypeorm(t.dataSource, uuid);
    expect(expected).not.toBeNull();
    for (const reference of [id, did, expected!.domain]) {
      expect(await directory.findByReference(reference)).toEqual(expected);
    }
    expect(await directory.findById(uuid)).toEqual(expected);
  });

  it('read the live topics of spaces as TypeORM loads them, by access kind too', async () => {
    const { id } = await createSpace(owner, 'Topics');
    const made: string[] = [];
    for (const [name, access] of [
      ['Open', 'public'],
      ['Signed', 'signedIn'],
      ['Inner', 'members'],
    ] as const) {
      const response = await owner.post(`/spaces/${id}/topics`, {
        name,
        description: `${name} talk`,
        access,
      });
      expectStatus(response, 201);
      made.push((response.body as { id: string }).id);
    }
    expectStatus(await owner.delete(`/spaces/${id}/topics/${made[2]}`), 204);
    const uuid = id.slice('space_'.length);
    const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);
    const loaded = (await t.dataSource.getRepository(SpaceTopic).find({ where: { spaceId: uuid } }))
      .map(({ id, spaceId, name, description, accessKind, accessGroupIds, deletedAt }) => ({
        id,
        spaceId,
        name,
        description,
        accessKind,
        accessGroupIds,
        deletedAt,
      }))
      .sort(byId);
    expect(loaded).toHaveLength(2);
    expect((await directory.topicsOf([uuid])).sort(byId)).toEqual(loaded);
    expect(await directory.topicsOf([uuid], ['public'])).toEqual(
      loaded.filter((topic) => topic.accessKind === 'public'),
    );
    expect(await directory.topicsOf([uuid], [])).toEqual([]);
  });

  it('never answer a deleted space', async () => {
    const { id, did } = await createSpace(owner, 'Gone');
    expectStatus(await owner.delete(`/spaces/${id}`), 204);
    expect(await directory.findByReference(id)).toBeNull();
    expect(await directory.findByReference(did)).toBeNull();
    expect(await directory.findById(id.slice('space_'.length))).toBeNull();
  });
});
