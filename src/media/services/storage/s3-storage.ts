import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream';
import { ByteRange, checkedKey, MediaStorage, StoredObject, StoredObjectMissing } from './media-storage';

/** Multipart part size: the least S3 accepts; at most `QUEUE_SIZE` parts are held at once. */
const PART_SIZE = 5 * 1024 * 1024;
const QUEUE_SIZE = 2;

/**
 * Media in an S3-compatible bucket (MEDIA_S3_BUCKET). A body goes up as one PutObject when it fits
 * one part, else as a multipart upload (at most QUEUE_SIZE parts of 5 MiB in memory); a body that
 * fails aborts the upload, so nothing appears at the key.
 */
export class S3Storage extends MediaStorage {
  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
    private readonly prefix = '',
  ) {
    super();
  }

  async put(key: string, body: Readable, options: { contentType: string }): Promise<StoredObject> {
    const objectKey = this.keyOf(key);
    let size = 0;
    let bodyFailure: Error | undefined;
    const counted = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        done(null, chunk);
      },
    });
    // A failing body fails `counted`, hence the upload.
    pipeline(body, counted, (error) => (bodyFailure = error ?? undefined));
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: objectKey, Body: counted, ContentType: options.contentType },
      partSize: PART_SIZE,
      queueSize: QUEUE_SIZE,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (error) {
      // The body's own failure is the cause, even when aborting the multipart upload failed too.
      throw bodyFailure ?? error;
    }
    return { size };
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    try {
      const answer = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: this.keyOf(key),
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      );
      return answer.Body as Readable;
    } catch (error) {
      if (isMissing(error)) throw new StoredObjectMissing(key);
      throw error;
    }
  }

  async stat(key: string): Promise<StoredObject | null> {
    try {
      const head = await this.client.send(
        new HeadObjectCommand({ Bucket: this.bucket, Key: this.keyOf(key) }),
      );
      return { size: head.ContentLength ?? 0 };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async exists(key: string): Promise<boolean> {
    return (await this.stat(key)) !== null;
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.keyOf(key) }));
  }

  async list(prefix: string, limit: number): Promise<string[]> {
    const folder = `${this.keyOf(prefix)}/`;
    const answer = await this.client.send(
      new ListObjectsV2Command({ Bucket: this.bucket, Prefix: folder, MaxKeys: 1000 }),
    );
    // Keys deeper than the folder are dropped here (no Delimiter: not every S3-compatible server
    // honours it); media folders hold few keys, so one page is enough.
    return (answer.Contents ?? [])
      .map((object) => object.Key!.slice(folder.length))
      .filter((name) => name.length > 0 && !name.includes('/'))
      .slice(0, limit)
      .map((name) => `${prefix}/${name}`);
  }

  private keyOf(key: string): string {
    return this.prefix + checkedKey(key);
  }
}

function isMissing(error: unknown): boolean {
  return (
    error instanceof S3ServiceException &&
    (error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404)
  );
}
