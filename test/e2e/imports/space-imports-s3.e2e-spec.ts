import request from 'supertest';
import { eventually } from '../../support/eventually';
import { pngBytes, spaceUpload } from '../../support/media-uploads';
import { S3TestServer, startS3Server } from '../../support/s3-server';
import { exportedSpace } from '../exports/support';
import { makePublic, newSpace, person } from '../memberships/support';
import { newPost, newTopic } from '../posts/support';
import { bootSpaces, expectStatus, SpacesTestApp } from '../spaces/support';

/**
 * A space import with the media store in an S3-compatible bucket (MEDIA_S3_BUCKET;
 * docs/decisions/0237-a-space-import-streams-its-archive-through-the-store.md): the upload is one
 * object under `imports/`, read back by ranged GETs, the files staged in the bucket, and the
 * archive deleted once the import is announced.
 */
describe('space imports in an S3 bucket (e2e)', () => {
  let s3: S3TestServer;
  let t: SpacesTestApp;

  beforeAll(async () => {
    s3 = await startS3Server();
    t = await bootSpaces({ env: { ...s3.env, MEDIA_S3_PREFIX: 'media/' } });
  });

  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  it('imports a space exported to the bucket, its files copied, and leaves no archive behind', async () => {
    const owner = await person(t);
    expectStatus(await owner.signUp('s3-importer', 'Importer'), 201);
    const spaceId = (await newSpace(owner, 'Bucket space')).id;
    const topic = await newTopic(owner, spaceId, 'News', 'public');
    const photo = await pngBytes(60, 40);
    const mediaId = await spaceUpload(t, owner, spaceId, {
      filename: 'photo.png',
      contentType: 'image/png',
      bytes: photo,
    });
    await newPost(owner, spaceId, { topic, title: 'With a photo', body: 'Look.', attachments: [mediaId] });
    await makePublic(owner, spaceId, 'open');
    const archive = await exportedSpace(t, owner, spaceId);

    const started = await request(t.http)
      .post('/v1/spaces/imports')
      .set(owner.headers('POST', '/v1/spaces/imports'))
      .set('Content-Type', 'application/zip')
      .send(archive);
    expectStatus(started, 202);
    const done = await eventually(
      () => owner.get(`/v1/spaces/imports/${started.body.id as string}`),
      (response) => response.body.state === 'done' || response.body.state === 'failed',
      60_000,
    );
    expect(done.body).toMatchObject({ state: 'done' });
    const newSpaceId = done.body.spaceId as string;

    const posts = await t.anonymous.get(`/v1/spaces/${newSpaceId}/posts`);
    expectStatus(posts, 200);
    const items = posts.body.items as { id: string }[];
    expect(items).toHaveLength(1);
    const post = await t.anonymous.get(`/v1/spaces/${newSpaceId}/posts/${items[0].id}`);
    const [attachment] = (post.body as { post: { attachments: { id: string; url: string }[] } }).post
      .attachments;
    expect(attachment.id).not.toBe(mediaId);
    const served = await request(t.http)
      .get(new URL(attachment.url).pathname + new URL(attachment.url).search)
      .buffer(true)
      .parse((response, callback) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => callback(null, Buffer.concat(chunks)));
      });
    expectStatus(served, 200);
    expect((served.body as Buffer).equals(photo)).toBe(true);

    // Announced, then the archive goes (docs/decisions/0236, 0237): no object under imports/.
    await eventually(
      async () => (await s3.objectKeys()).filter((key) => key.startsWith('media/imports/')),
      (keys) => keys.length === 0,
      30_000,
    );
    expect(await s3.openUploads()).toEqual([]);
  });
});
