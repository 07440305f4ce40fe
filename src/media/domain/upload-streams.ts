import { PassThrough, Readable, Transform, TransformCallback } from 'node:stream';
import { bytesMatch } from './media-types';
import { SNIFF_SAMPLE_BYTES, sniffedType } from './sniffed-type';

/** The upload went past its limit (the kind's, or the declared contentLength). */
export class UploadTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`The upload is larger than ${limit} bytes`);
  }
}

/** The bytes are not of the declared type. */
export class UploadNotDeclaredType extends Error {
  constructor(
    readonly declared: string,
    readonly found: string | undefined,
  ) {
    super(found ? `The bytes are ${found}, not ${declared}` : `The bytes are not ${declared}`);
  }
}

/** The client went away before the body ended. */
export class UploadInterrupted extends Error {
  constructor() {
    super('The upload was interrupted before its end');
  }
}

/** Passes bytes on until more than `limit` have come, then fails with UploadTooLarge. */
export function sizeLimit(limit: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      done(seen > limit ? new UploadTooLarge(limit) : null, seen > limit ? undefined : chunk);
    },
  });
}

/**
 * Holds the first `sampleBytes` (or the whole body, when shorter) until `check` approves them,
 * then passes everything on: the type is known before a byte reaches storage.
 */
function sampleGate(check: (sample: Buffer) => Promise<void>, sampleBytes: number): Transform {
  let held: Buffer[] = [];
  let heldBytes = 0;
  let approved = false;
  const decide = (stream: Transform, done: TransformCallback) => {
    const sample = Buffer.concat(held);
    held = [];
    check(sample).then(() => {
      approved = true;
      if (sample.length > 0) stream.push(sample);
      done();
    }, done);
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (approved) return done(null, chunk);
      held.push(chunk);
      heldBytes += chunk.length;
      if (heldBytes < sampleBytes) return done();
      decide(this, done);
    },
    flush(done) {
      if (approved) return done();
      decide(this, done);
    },
  });
}

/**
 * Passes bytes on once their first SNIFF_SAMPLE_BYTES sniff as the declared type (bytesMatch), else
 * fails with UploadNotDeclaredType: the type is known before a byte reaches storage.
 */
export function declaredTypeGate(contentType: string): Transform {
  return sampleGate(async (sample) => {
    const found = await sniffedType(sample);
    if (!bytesMatch(contentType, found)) throw new UploadNotDeclaredType(contentType, found);
  }, SNIFF_SAMPLE_BYTES);
}

/**
 * The request's body as a stream of our own that fails with UploadInterrupted when the client goes
 * away before its end. A refusal destroys only this stream, never the request: its socket must
 * still carry the answer.
 */
export function requestBody(request: Readable & { complete: boolean }): PassThrough {
  const body = new PassThrough();
  request.once('close', () => {
    if (!request.complete) body.destroy(new UploadInterrupted());
  });
  request.once('error', () => body.destroy(new UploadInterrupted()));
  request.pipe(body);
  return body;
}
