import { loadConfig } from '../../../src/config/app-config';
import { s3ClientFor } from '../../../src/media/services/storage/media-storage.provider';
import { S3Storage } from '../../../src/media/services/storage/s3-storage';
import { S3TestServer, startS3Server } from '../../support/s3-server';
import { describeStorageContract } from './storage-contract';

let server: S3TestServer;
let client: ReturnType<typeof s3ClientFor>;

afterAll(async () => {
  client?.destroy();
  await server?.close();
});

describeStorageContract('S3-compatible bucket (MEDIA_S3_BUCKET, server on loopback)', async () => {
  server = await startS3Server();
  const config = loadConfig({ ...server.env, MEDIA_S3_PREFIX: 'media/' });
  client = s3ClientFor(config);
  return {
    storage: new S3Storage(client, config.MEDIA_S3_BUCKET!, config.MEDIA_S3_PREFIX),
    leftovers: () => server.openUploads(),
  };
});
