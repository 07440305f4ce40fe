import { parseEntityId } from '../../../src/common/ids/entity-id';
import { ExportsService } from '../../../src/exports';
import { eventually } from '../../support/eventually';
import { pngBytes, spaceUpload } from '../../support/media-uploads';
import { S3TestServer, startS3Server } from '../../support/s3-server';
import { newSpace, person } from '../memberships/support';
import { bootSpaces, expectStatus, SpacesTestApp } from '../spaces/support';
import { download, unzip } from './support';

const DAY_MS = 86_400_000;

/**
 * A personal export with the media store in an S3-compatible bucket (MEDIA_S3_BUCKET;
 * docs/decisions/0211-export-archives-in-the-media-store.md): files are piped from the bucket into
 * the archive, the archive is one multipart upload under `exports/`, and the sweep deletes it.
 */
describe('personal exports in an S3 bucket (e2e)', () => {
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

  it('streams the archive into the bucket, serves it, and the sweep deletes it', async () => {
    const carol = await person(t);
    expectStatus(await carol.signUp('export-carol', 'Carol'), 201);
    const spaceId = (await newSpace(carol, 'Bucket exports')).id;
    const photo = await pngBytes(50, 40);
    const mediaId = await spaceUpload(t, carol, spaceId, {
      filename: 'pic.png',
      contentType: 'image/png',
      bytes: photo,
    });

    const started = await carol.post('/v1/exports');
    expectStatus(started, 202);
    const exportId = started.body.id as string;
    const ready = await eventually(
      () => carol.get(`/v1/exports/${exportId}`),
      (response) => response.body.state === 'ready' || response.body.state === 'failed',
      60_000,
    );
    expect(ready.body.state).toBe('ready');
    const uuid = parseEntityId('export', exportId)!;
    const archives = (await s3.objectKeys()).filter((key) => key.startsWith(`media/exports/${uuid}/`));
    expect(archives).toHaveLength(1);
    expect(await s3.openUploads()).toEqual([]);

    const archive = await download(t, ready.body.url as string);
    expectStatus(archive, 200);
    const files = await unzip(archive.body as Buffer);
    expect(files.get(`media/${mediaId}/pic.png`)!.equals(photo)).toBe(true);
    expect(JSON.parse(files.get('manifest.json')!.toString())).toMatchObject({ did: carol.did, exportId });

    t.clock.offsetMs += 8 * DAY_MS;
    try {
      expect(await t.app.get(ExportsService).sweep()).toBe(1);
    } finally {
      t.clock.offsetMs = 0;
    }
    expect((await s3.objectKeys()).filter((key) => key.startsWith(`media/exports/${uuid}/`))).toEqual([]);
    expect((await carol.get(`/v1/exports/${exportId}`)).body.state).toBe('expired');
  });
});
