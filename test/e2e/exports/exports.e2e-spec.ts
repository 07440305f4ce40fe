import request from 'supertest';
import { DataSource } from 'typeorm';
import { formatEntityId, newUuid } from '../../../src/common/ids/entity-id';
import { schemaDrift } from '../../../src/infrastructure/database/schema-drift';
import { ExportsRepository } from '../../../src/exports/exports.repository';
import { Actor } from '../../support/actors';
import { bootApp, TestApp } from '../../support/app';

/** The exports module in the real AppModule on a fresh database. */
describe('exports (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await bootApp();
  });

  afterAll(async () => {
    await t.close();
  });

  it('GET /v1/exports needs an identity proof', async () => {
    const response = await request(t.http).get('/v1/exports');
    expect(response.status).toBe(401);
  });

  it('GET /v1/exports pages through the caller’s exports, newest first, and only theirs', async () => {
    const [owner, other] = await Promise.all([Actor.create(t), Actor.create(t)]);
    const repository = t.app.get(ExportsRepository);
    const ids: string[] = [];
    for (const ownerDid of [owner.did, other.did, owner.did, owner.did]) {
      const id = newUuid();
      await repository.insert({ id, ownerDid, createdAt: new Date() });
      if (ownerDid === owner.did) ids.unshift(formatEntityId('export', id));
    }
    const first = await owner.send('GET', '/v1/exports?limit=2');
    expect(first.status).toBe(200);
    expect(first.body.items.map((item: { id: string }) => item.id)).toEqual(ids.slice(0, 2));
    const second = await owner.send('GET', `/v1/exports?limit=2&after=${first.body.nextCursor}`);
    expect(second.status).toBe(200);
    expect(second.body.items.map((item: { id: string }) => item.id)).toEqual(ids.slice(2));
    expect(second.body.nextCursor).toBeNull();
  });

  it('has a migration that creates exactly what its entity declares', async () => {
    expect((await schemaDrift(t.app.get(DataSource))).up).toEqual([]);
  });
});
