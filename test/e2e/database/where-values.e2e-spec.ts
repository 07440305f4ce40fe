import { getDataSourceToken } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { User } from '../../../src/users/entities/user.entity';
import { bootApp, TestApp } from '../../support/app';

/**
 * TypeORM 1 refuses `null`/`undefined` in find criteria (0.3 dropped the condition and matched every
 * row). The service keeps that default: an unset value in a lookup is a bug, never "any user".
 */
describe('find criteria with missing values (e2e)', () => {
  let t: TestApp;
  let dataSource: DataSource;

  beforeAll(async () => {
    t = await bootApp();
    dataSource = t.app.get<DataSource>(getDataSourceToken());
    await dataSource.query(
      `INSERT INTO users (id, did, handle) VALUES (gen_random_uuid(), 'did:plat:aaaaaaaaaaaaaaaaaaaaaaaa', 'someone')`,
    );
  });

  afterAll(async () => {
    await t.close();
  });

  it('an existing row is found by its value', async () => {
    const users = dataSource.getRepository(User);
    await expect(users.countBy({ handle: 'someone' })).resolves.toBe(1);
  });

  it('undefined in a where throws instead of matching every row', async () => {
    const users = dataSource.getRepository(User);
    await expect(users.findOneBy({ did: undefined })).rejects.toThrow(/undefined/i);
  });

  it('null in a where throws instead of matching every row', async () => {
    const users = dataSource.getRepository(User);
    await expect(users.findOneBy({ did: null as unknown as string })).rejects.toThrow(/null/i);
  });

  it('undefined in update criteria throws and changes nothing', async () => {
    const users = dataSource.getRepository(User);
    await expect(users.update({ did: undefined }, { handle: 'renamed' })).rejects.toThrow();
    await expect(users.countBy({ handle: 'someone' })).resolves.toBe(1);
  });
});
