import request from 'supertest';
import { bootApp, TestApp } from '../../support/app';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_ID = '00f067aa0ba902b7';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * A W3C `traceparent` names the request (docs/decisions/0064-observability-metrics-traceparent-and-hpa.md): its trace id becomes the request id,
 * echoed as X-Request-Id and on every log line (test/unit/common/request-logging.spec.ts shows the
 * lines); an invalid one is ignored and the request is named as before.
 */
describe('traceparent-aware request ids (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await bootApp();
  });

  afterAll(async () => {
    await t.close();
  });

  it.each([
    ['a 200', '/v1/spaces', 200],
    ['the constant 404', '/no/such/route', 404],
  ])('takes the trace id of a valid traceparent as the request id, on %s', async (_case, path, status) => {
    const response = await request(t.http)
      .get(path)
      .set('traceparent', `00-${TRACE_ID}-${PARENT_ID}-01`)
      .set('X-Request-Id', 'caller-chosen');
    expect(response.status).toBe(status);
    expect(response.headers['x-request-id']).toBe(TRACE_ID);
  });

  it.each([
    ['an all-zero trace id', `00-${'0'.repeat(32)}-${PARENT_ID}-01`],
    ['an all-zero parent id', `00-${TRACE_ID}-${'0'.repeat(16)}-01`],
    ['another version', `01-${TRACE_ID}-${PARENT_ID}-01`],
    ['version ff', `ff-${TRACE_ID}-${PARENT_ID}-01`],
    ['upper-case hex', `00-${TRACE_ID.toUpperCase()}-${PARENT_ID}-01`],
    ['a short trace id', `00-${TRACE_ID.slice(1)}-${PARENT_ID}-01`],
    ['trailing data', `00-${TRACE_ID}-${PARENT_ID}-01-extra`],
    ['garbage', 'not a traceparent'],
  ])('ignores a traceparent with %s, falling back to X-Request-Id or a UUID', async (_case, traceparent) => {
    const withId = await request(t.http)
      .get('/v1/spaces')
      .set('traceparent', traceparent)
      .set('X-Request-Id', 'fallback-1');
    expect(withId.status).toBe(200);
    expect(withId.headers['x-request-id']).toBe('fallback-1');
    const without = await request(t.http).get('/v1/spaces').set('traceparent', traceparent);
    expect(without.status).toBe(200);
    expect(without.headers['x-request-id']).toMatch(UUID);
  });

  it('ignores a repeated traceparent (W3C: invalid; Node joins the lines with a comma)', async () => {
    const response = await request(t.http)
      .get('/v1/spaces')
      .set('traceparent', `00-${TRACE_ID}-${PARENT_ID}-01, 00-${TRACE_ID}-${PARENT_ID}-00`);
    expect(response.status).toBe(200);
    expect(response.headers['x-request-id']).toMatch(UUID);
  });
});
