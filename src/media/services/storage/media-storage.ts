import type { Readable } from 'node:stream';

/** What the store knows of one object. */
export interface StoredObject {
  /** Bytes. */
  size: number;
}

/** An inclusive byte range (HTTP `Range: bytes=start-end`), already checked against the size. */
export interface ByteRange {
  start: number;
  end: number;
}

/** The object is not in the store (never stored, or deleted). */
export class StoredObjectMissing extends Error {
  constructor(readonly key: string) {
    super(`no stored object at ${key}`);
  }
}

/**
 * Where media bytes live (design.md §11): local disk by default, an S3-compatible bucket with
 * MEDIA_S3_BUCKET. Keys are relative paths of `[A-Za-z0-9._-]` segments chosen by the media module.
 *
 * `put` streams: it never holds the whole body in memory, and it is all or nothing: when the body
 * stream fails (too large, wrong type, client gone) nothing is left at the key, or anywhere else.
 */
export abstract class MediaStorage {
  /** Stores the stream's bytes at `key` (replacing what was there); resolves with the size stored. */
  abstract put(key: string, body: Readable, options: { contentType: string }): Promise<StoredObject>;

  /** The object's bytes, or the range of them; StoredObjectMissing when absent. */
  abstract get(key: string, range?: ByteRange): Promise<Readable>;

  /** The object's size, or null when absent. */
  abstract stat(key: string): Promise<StoredObject | null>;

  abstract exists(key: string): Promise<boolean>;

  /** Removes the object; removing an absent one is not an error. */
  abstract delete(key: string): Promise<void>;

  /**
   * The object as a file on this machine that tools may read in place (never written to), or null
   * when the store keeps its objects elsewhere.
   */
  localPath(_key: string): string | null {
    return null;
  }

  /** The keys directly under the folder `prefix` (no trailing `/`), at most `limit` of them. */
  abstract list(prefix: string, limit: number): Promise<string[]>;
}

const KEY = /^[A-Za-z0-9_-][A-Za-z0-9._-]*(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/;

/** Refuses a key that could leave the store's root (`..`, absolute paths) or is not ours. */
export function checkedKey(key: string): string {
  if (!KEY.test(key) || key.length > 512) throw new Error(`invalid media storage key: ${key}`);
  return key;
}
