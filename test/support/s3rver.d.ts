// @20minutes/s3rver (a maintained fork of s3rver) ships no types; this is the part the tests use.
declare module '@20minutes/s3rver' {
  import type { AddressInfo } from 'node:net';

  interface S3rverOptions {
    address?: string;
    port?: number;
    silent?: boolean;
    directory?: string;
    configureBuckets?: { name: string; configs: (string | Buffer)[] }[];
  }

  /** The part of a Koa context a middleware here reads and writes. */
  interface KoaContext {
    method: string;
    path: string;
    query: Record<string, string | string[] | undefined>;
    status: number;
    headers: Record<string, string | string[] | undefined>;
  }

  /** A stored object as s3rver's filesystem store reads it. */
  interface StoredObject {
    content: NodeJS.ReadableStream | null;
    range?: { start: number; end: number };
  }

  interface FilesystemStore {
    getResourcePath(bucket: string, key: string, resource: string): string;
    getObject(
      bucket: string,
      key: string,
      options?: { start?: number; end?: number },
    ): Promise<StoredObject | null>;
  }

  export default class S3rver {
    store: FilesystemStore;
    constructor(options: S3rverOptions);
    /** Koa's middleware stack, composed when the server starts. */
    middleware: ((context: KoaContext, next: () => Promise<void>) => Promise<void>)[];
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
  }
}
