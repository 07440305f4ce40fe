import { createReadStream, type Dirent } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import S3rver from '@20minutes/s3rver';

/** s3rver keeps an object's bytes in `<bucket>/<key>._S3rver_object`. */
const OBJECT_SUFFIX = '._S3rver_object';

/** What the service's MEDIA_S3_* settings must say to use a test server's bucket. */
export interface S3TestServer {
  env: Record<string, string>;
  /** Keys of the objects in the bucket (read from the server's directory). */
  objectKeys(): Promise<string[]>;
  /** Multipart uploads begun and neither completed nor aborted. */
  openUploads(): Promise<string[]>;
  close(): Promise<void>;
}

/**
 * An S3-compatible server on loopback for the S3 storage tests: s3rver (a maintained fork), objects
 * in a temporary directory, one bucket, SigV4 signatures verified with its fixed key pair.
 *
 * s3rver does not implement AbortMultipartUpload (DELETE ?uploadId); S3 and every S3-compatible
 * service do, and the storage calls it when a body fails, so this adds it: the upload's parts
 * (s3rver keeps them in `<bucket>/._S3rver_uploads/<uploadId>/`) are removed. And s3rver takes the
 * end of `Range: bytes=0-0` (0) for no end and answers the whole object; S3 answers the first byte,
 * and so does this. Its signature of a listing is wrong (below): listings are not signed.
 */
export async function startS3Server(bucket = 'plat-media-test'): Promise<S3TestServer> {
  const directory = await mkdtemp(join(tmpdir(), 'plat-s3-'));
  const uploads = join(directory, bucket, '._S3rver_uploads');
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  server.middleware.unshift(async (context, next) => {
    const uploadId = context.query.uploadId;
    if (context.method !== 'DELETE' || typeof uploadId !== 'string') return next();
    await rm(join(uploads, basename(uploadId)), { recursive: true, force: true });
    context.status = 204;
  });
  // s3rver signs a bucket's path without the trailing slash the SDK puts on a listing
  // (`GET /<bucket>/?list-type=2`), so it would refuse every listing: a listing goes unsigned.
  server.middleware.unshift(async (context, next) => {
    if (context.method === 'GET' && context.path === `/${bucket}/` && 'list-type' in context.query) {
      delete context.headers.authorization;
    }
    return next();
  });
  answerFirstByteRanges(server);
  const address = await server.run();
  return {
    env: {
      MEDIA_S3_BUCKET: bucket,
      MEDIA_S3_ENDPOINT: `http://127.0.0.1:${address.port}`,
      MEDIA_S3_FORCE_PATH_STYLE: 'true',
      MEDIA_S3_REGION: 'us-east-1',
      MEDIA_S3_ACCESS_KEY_ID: 'S3RVER',
      MEDIA_S3_SECRET_ACCESS_KEY: 'S3RVER',
    },
    objectKeys: async () => {
      const root = join(directory, bucket);
      const entries = await listedWhileDeleting(root);
      return entries
        .filter((entry) => entry.isFile() && entry.name.endsWith(OBJECT_SUFFIX))
        .map((entry) => join(entry.parentPath, entry.name).slice(root.length + 1, -OBJECT_SUFFIX.length))
        .sort();
    },
    openUploads: async () => {
      try {
        return await readdir(uploads);
      } catch {
        return [];
      }
    },
    close: async () => {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

function answerFirstByteRanges(server: S3rver): void {
  const store = server.store;
  const getObject = store.getObject.bind(store);
  store.getObject = async (bucket, key, options) => {
    const object = await getObject(bucket, key, options);
    if (object?.content && options?.start === 0 && options.end === 0) {
      (object.content as NodeJS.ReadableStream & { destroy(): void }).destroy();
      object.content = createReadStream(store.getResourcePath(bucket, key, 'object'), { start: 0, end: 0 });
      object.range = { start: 0, end: 0 };
    }
    return object;
  };
}

/**
 * The folder's entries, recursively. The server removes an object's emptied folders as it deletes
 * it, so a folder read a moment ago may be gone by the time the walk enters it: read again.
 */
async function listedWhileDeleting(root: string): Promise<Dirent[]> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await readdir(root, { recursive: true, withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || attempt === 5) throw error;
    }
  }
}
