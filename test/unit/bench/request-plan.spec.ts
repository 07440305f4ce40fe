import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PlatIdentity } from '../../../src/protocol/client';
import { isPlatDid } from '../../../src/protocol/core/ids';
import { liveCount, liveNumber, RequestFactory } from '../../../bench/request-plan';
import { isDeletedPost, md5Did, md5Uuid, postId } from '../../../bench/seed-plan';

describe('bench request plans and seed names', () => {
  it('names seeded rows as the SQL does: md5 as a uuid, md5 on the DID alphabet', () => {
    expect(md5Uuid('post-0-0')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(md5Uuid('a')).toBe('0cc175b9-c0f1-b6a8-31c3-99e269772661');
    expect(isPlatDid(md5Did('user-did-1'))).toBe(true);
    expect(postId(0, 1)).not.toBe(postId(1, 0));
  });

  it('walks only live posts, each (actor, post) pair once', () => {
    expect(liveCount(250)).toBe(198 + 50);
    const numbers = Array.from({ length: liveCount(1000) }, (_, k) => liveNumber(k));
    expect(new Set(numbers).size).toBe(numbers.length);
    expect(numbers.some(isDeletedPost)).toBe(false);
    expect(Math.max(...numbers)).toBeLessThan(1000);

    const actors = [PlatIdentity.create(), PlatIdentity.create()].map((identity) => identity.toKeyFile());
    const factory = new RequestFactory({
      method: 'PUT',
      path: '/v1/spaces/bench-big/posts/{post}/upvote',
      proof: { actors, perRequest: true, audience: 'bench.plat.test' },
      rotate: { space: 0, start: 3, count: 5 },
    });
    const requests = Array.from({ length: 10 }, (_, i) => factory.request(i));
    const pairs = requests.map(
      (r) =>
        `${r.path} ${JSON.parse(Buffer.from(r.headers.authorization.split('.')[1], 'base64url').toString()).iss}`,
    );
    // 2 actors × 5 posts: ten distinct pairs, each with a fresh jti.
    expect(new Set(pairs).size).toBe(10);
    const jtis = requests.map(
      (r) => JSON.parse(Buffer.from(r.headers.authorization.split('.')[1], 'base64url').toString()).jti,
    );
    expect(new Set(jtis).size).toBe(10);
  });

  it('signs one proof per phase for reads, replayed by every request of the phase', () => {
    const reader = PlatIdentity.create().toKeyFile();
    const factory = new RequestFactory({
      method: 'GET',
      path: '/v1/profile',
      proof: { actors: [reader], perRequest: false, audience: 'bench.plat.test' },
    });
    expect(factory.request(0).headers.authorization).toBe(factory.request(7).headers.authorization);
    const claims = JSON.parse(
      Buffer.from(factory.request(0).headers.authorization.split('.')[1], 'base64url').toString(),
    );
    expect(claims.jti).toBeUndefined();
    expect(claims.exp - claims.iat).toBe(300);
  });

  it('sends each prepared path once from its start, with the body file as bytes', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'plat-bench-plan-')), 'body.bin');
    writeFileSync(file, Buffer.from([0, 255, 1]));
    const factory = new RequestFactory({
      method: 'PUT',
      path: '/upload/a',
      paths: { list: ['/upload/a', '/upload/b', '/upload/c', '/upload/d'], start: 1 },
      bodyFile: file,
    });
    expect([0, 1, 2].map((i) => factory.request(i).path)).toEqual(['/upload/b', '/upload/c', '/upload/d']);
    expect(factory.request(0).body).toEqual(Buffer.from([0, 255, 1]));
  });
});
