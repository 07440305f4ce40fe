// Before anything loads http, pg or ioredis, as src/tracing.ts in main.ts.
import { finishedSpans, stopInMemoryTracing } from '../../support/in-memory-tracing';
import { SpanKind } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import supertest from 'supertest';
import { startS3Server, S3TestServer } from '../../support/s3-server';
import {
  bootMedia,
  expectStatus,
  FFMPEG_PRESENT,
  MediaTestApp,
  mint,
  newSpace,
  person,
  settled,
  upload,
  withFfmpeg,
} from '../media/support';

/** The span's ancestors among the exported spans, nearest first. */
function ancestorsOf(span: ReadableSpan, spans: ReadableSpan[]): ReadableSpan[] {
  const ancestors: ReadableSpan[] = [];
  let parentId = span.parentSpanContext?.spanId;
  while (parentId) {
    const parent = spans.find((candidate) => candidate.spanContext().spanId === parentId);
    if (!parent) break;
    ancestors.push(parent);
    parentId = parent.parentSpanContext?.spanId;
  }
  return ancestors;
}

/** Uploads a short WAV, waits until its processing job made it ready, and returns the spans and the upload's path. */
async function uploadTraced(t: MediaTestApp): Promise<{ spans: ReadableSpan[]; uploadPath: string }> {
  const uploader = await person(t);
  const space = await newSpace(uploader, 'Traced');
  const bytes = await withFfmpeg(['-f', 'lavfi', '-i', 'sine=frequency=440:duration=1'], 'wav');
  const minted = await mint(uploader, space.id, { filename: 'tone.wav', contentType: 'audio/wav' });
  finishedSpans.reset();
  expectStatus(await upload(t, minted.uploadUrl, bytes, minted.uploadHeaders), 200);
  expect((await settled(uploader, space.id, minted.media.id)).status).toBe('ready');
  return { spans: finishedSpans.getFinishedSpans(), uploadPath: new URL(minted.uploadUrl).pathname };
}

/** The upload request's server span and its processing job's span, checked to be one trace. */
function requestAndJob(
  spans: ReadableSpan[],
  uploadPath: string,
): { request: ReadableSpan; job: ReadableSpan } {
  const request = spans.find(
    (span) => span.kind === SpanKind.SERVER && span.attributes['url.path'] === uploadPath,
  );
  expect(request).toBeDefined();
  expect(request!.attributes['http.request.method']).toBe('PUT');
  expect(request!.attributes['http.response.status_code']).toBe(200);
  const job = spans.find((span) => span.name === 'job media.probe');
  expect(job).toBeDefined();
  expect(job!.kind).toBe(SpanKind.CONSUMER);
  expect(job!.attributes['messaging.system']).toBe(process.env.REDIS_URL ? 'bullmq' : 'in-process');
  expect(job!.spanContext().traceId).toBe(request!.spanContext().traceId);
  expect(ancestorsOf(job!, spans)).toContain(request);
  return { request: request!, job: job! };
}

/**
 * One trace from an upload request through its processing job
 * (docs/decisions/0123-traces-and-job-metrics.md). The request's
 * server span, the job's span (a descendant of it, on whichever queue runs it) and what the job
 * does (SQL, Redis, S3 over HTTP) share one trace id; `traceparent` goes out with the S3 calls.
 */
(FFMPEG_PRESENT ? describe : describe.skip)('traces: an upload request through its processing job', () => {
  let t: MediaTestApp;
  let s3: S3TestServer;
  let onS3: MediaTestApp;

  beforeAll(async () => {
    t = await bootMedia();
    s3 = await startS3Server();
    onS3 = await bootMedia({ env: s3.env });
  });

  afterAll(async () => {
    await t?.close();
    await onS3?.close();
    await s3?.close();
    await stopInMemoryTracing();
  });

  it('carries the upload request’s trace into the media.probe job, and into its SQL', async () => {
    const { spans, uploadPath } = await uploadTraced(t);
    const { request, job } = requestAndJob(spans, uploadPath);
    const inJob = spans.filter((span) => ancestorsOf(span, spans).includes(job));
    expect(inJob.some((span) => span.attributes['db.system.name'] === 'postgresql')).toBe(true);
    expect(inJob.every((span) => span.spanContext().traceId === request.spanContext().traceId)).toBe(true);
    // Redis spans name the command only: its arguments (keys, values) are not exported.
    for (const span of spans.filter((candidate) => candidate.attributes['db.system.name'] === 'redis')) {
      expect(String(span.attributes['db.query.text'])).toMatch(/^\w+$/);
    }
  });

  it('names a request that came without a trace by the trace it starts (X-Request-Id, as its log lines)', async () => {
    finishedSpans.reset();
    const answer = await supertest(t.http).get('/v1/spaces');
    expect(answer.status).toBe(200);
    const served = finishedSpans
      .getFinishedSpans()
      .find((span) => span.kind === SpanKind.SERVER && span.attributes['url.path'] === '/v1/spaces');
    expect(answer.headers['x-request-id']).toBe(served!.spanContext().traceId);

    // A caller's trace still wins, and the request's span continues it.
    const callerTrace = '4bf92f3577b34da6a3ce929d0e0e4736';
    const continued = await supertest(t.http)
      .get('/v1/spaces')
      .set('traceparent', `00-${callerTrace}-00f067aa0ba902b7-01`);
    expect(continued.headers['x-request-id']).toBe(callerTrace);
    const span = finishedSpans
      .getFinishedSpans()
      .find(
        (candidate) => candidate.kind === SpanKind.SERVER && candidate.spanContext().traceId === callerTrace,
      );
    expect(span?.parentSpanContext?.spanId).toBe('00f067aa0ba902b7');
  });

  it('carries it into the S3 calls of the request and of the job (traceparent sent to the store)', async () => {
    const { spans, uploadPath } = await uploadTraced(onS3);
    const { request, job } = requestAndJob(spans, uploadPath);
    const s3Host = new URL(s3.env.MEDIA_S3_ENDPOINT).host;
    const toS3 = (under: ReadableSpan) =>
      spans.filter(
        (span) =>
          span.kind === SpanKind.CLIENT &&
          String(span.attributes['url.full']).includes(s3Host) &&
          ancestorsOf(span, spans).includes(under),
      );
    // The request stores the bytes; the job reads them to probe them.
    expect(toS3(request).some((span) => span.attributes['http.request.method'] === 'PUT')).toBe(true);
    expect(toS3(job).some((span) => span.attributes['http.request.method'] === 'GET')).toBe(true);
    // The store received the trace context: its own server spans (same process here) continue the trace.
    for (const call of [...toS3(request), ...toS3(job)]) {
      const served = spans.find(
        (span) =>
          span.kind === SpanKind.SERVER && span.parentSpanContext?.spanId === call.spanContext().spanId,
      );
      expect(served?.spanContext().traceId).toBe(request.spanContext().traceId);
    }
  });
});
