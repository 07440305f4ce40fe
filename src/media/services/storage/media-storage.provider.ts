import { S3Client } from '@aws-sdk/client-s3';
import { Provider } from '@nestjs/common';
import { AppConfig } from '../../../config/app-config';
import { LocalDiskStorage } from './local-disk-storage';
import { MediaStorage } from './media-storage';
import { S3Storage } from './s3-storage';

/** An S3 client for the configured bucket, or for the test server a suite starts. */
export function s3ClientFor(config: AppConfig): S3Client {
  return new S3Client({
    region: config.MEDIA_S3_REGION,
    endpoint: config.MEDIA_S3_ENDPOINT,
    forcePathStyle: config.MEDIA_S3_FORCE_PATH_STYLE,
    credentials:
      config.MEDIA_S3_ACCESS_KEY_ID && config.MEDIA_S3_SECRET_ACCESS_KEY
        ? { accessKeyId: config.MEDIA_S3_ACCESS_KEY_ID, secretAccessKey: config.MEDIA_S3_SECRET_ACCESS_KEY }
        : undefined,
    // Checksums only where S3 requires them: S3-compatible services (and older MinIO, R2) refuse
    // the trailing-checksum chunked uploads the SDK sends by default.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/** The media store the configuration names: the S3 bucket when MEDIA_S3_BUCKET is set, else MEDIA_DIR. */
export const mediaStorageProvider: Provider = {
  provide: MediaStorage,
  inject: [AppConfig],
  useFactory: (config: AppConfig): MediaStorage =>
    config.MEDIA_S3_BUCKET
      ? new S3Storage(s3ClientFor(config), config.MEDIA_S3_BUCKET, config.MEDIA_S3_PREFIX)
      : new LocalDiskStorage(config.MEDIA_DIR),
};
