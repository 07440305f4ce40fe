import SwaggerParser from '@apidevtools/swagger-parser';
import { PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService } from '@nestjs/core';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { load } from 'js-yaml';
import { DataSource } from 'typeorm';
import { schemaDrift } from '../../src/infrastructure/database/schema-drift';
import { bootApp, TestApp } from '../support/app';

/** Names of every controller method that Nest routes (carries path metadata). */
function routeHandlerNames(discovery: DiscoveryService): Set<string> {
  const names = new Set<string>();
  for (const wrapper of discovery.getControllers()) {
    const prototype = (wrapper.metatype as { prototype?: Record<string, unknown> } | null)?.prototype;
    if (!prototype) continue;
    for (const name of Object.getOwnPropertyNames(prototype)) {
      const member = prototype[name];
      if (
        name !== 'constructor' &&
        typeof member === 'function' &&
        Reflect.hasMetadata(PATH_METADATA, member)
      ) {
        names.add(name);
      }
    }
  }
  return names;
}

/** JSON paths of the objects whose keys are not in sorted order. */
function unsortedObjects(value: unknown, path: string): string[] {
  if (Array.isArray(value)) return value.flatMap((item, index) => unsortedObjects(item, `${path}[${index}]`));
  if (!value || typeof value !== 'object') return [];
  const keys = Object.keys(value);
  const own = keys.join('\n') === [...keys].sort().join('\n') ? [] : [path];
  return [
    ...own,
    ...keys.flatMap((key) => unsortedObjects((value as Record<string, unknown>)[key], `${path}.${key}`)),
  ];
}

describe('static artifacts and schema (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await bootApp();
  });

  afterAll(async () => {
    await t.close();
  });

  it.each(['/openapi.json', '/v1/openapi.json'])(
    '%s is a valid OpenAPI document, cached publicly',
    async (path) => {
      const response = await request(t.http).get(path);
      expect(response.status).toBe(200);
      expect(response.headers['cache-control']).toBe('public, s-maxage=300');
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      const document = JSON.parse(response.text);
      await expect(SwaggerParser.validate(structuredClone(document))).resolves.toBeDefined();
      expect(document.info.version).toBe('1.0.0-beta');
    },
  );

  it.each(['/openapi.yaml', '/v1/openapi.yaml'])('%s carries the same document as YAML', async (path) => {
    const response = await request(t.http).get(path);
    expect(response.status).toBe(200);
    expect(response.headers['cache-control']).toBe('public, s-maxage=300');
    expect(response.headers['content-type']).toBe('application/yaml; charset=utf-8');
    const json = (await request(t.http).get('/openapi.json')).text;
    expect(load(response.text)).toEqual(JSON.parse(json));
  });

  it.each(['/llms.txt', '/v1/llms.txt'])('%s is plain text generated from the routes', async (path) => {
    const response = await request(t.http).get(path);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(response.headers['cache-control']).toBe('public, s-maxage=300');
    expect(response.text).toContain('# PLAT community platform API');
    const document = JSON.parse((await request(t.http).get('/openapi.json')).text);
    for (const path of Object.keys(document.paths)) expect(response.text).toContain(` ${path}`);
  });

  it.each(['/openapi.json', '/v1/openapi.yaml', '/llms.txt'])(
    'HEAD %s has the GET headers, no body',
    async (path) => {
      const get = await request(t.http).get(path);
      const head = await request(t.http).head(path);
      expect(head.status).toBe(200);
      expect(head.text ?? '').toBe('');
      expect(head.headers['cache-control']).toBe('public, s-maxage=300');
      expect(head.headers['content-type']).toBe(get.headers['content-type']);
      expect(head.headers['content-length']).toBe(get.headers['content-length']);
    },
  );

  it.each(['/v2/openapi.json', '/openapi.yml', '/v1/llms.md'])(
    'a near-miss %s is the constant 404, not cached publicly',
    async (path) => {
      const response = await request(t.http).get(path);
      expect(response.status).toBe(404);
      expect(response.text).toBe('{"code":"E_NOT_FOUND","message":"Not found"}');
      expect(response.headers['cache-control']).toBe('no-store');
    },
  );

  it('is deterministic: operationIds are unique handler names, keys sorted at every depth', async () => {
    const text = (await request(t.http).get('/openapi.json')).text;
    const document = JSON.parse(text);
    const ids: string[] = [];
    for (const item of Object.values(document.paths) as Record<string, { operationId?: string }>[]) {
      for (const operation of Object.values(item)) if (operation.operationId) ids.push(operation.operationId);
    }
    expect(ids.length).toBeGreaterThan(0);
    expect(new Set(ids).size).toBe(ids.length);
    const handlers = routeHandlerNames(t.app.get(DiscoveryService, { strict: false }));
    expect(ids.filter((id) => !handlers.has(id))).toEqual([]);
    expect(unsortedObjects(document, '$')).toEqual([]);
  });

  it('describes the error responses a client meets on each operation', async () => {
    const document = JSON.parse((await request(t.http).get('/openapi.json')).text);
    const statuses = (path: string, method: string) => Object.keys(document.paths[path][method].responses);
    // A proof-signed write with a body and a path id: every error of design.md §5 that can occur.
    expect(statuses('/spaces/{space}', 'put')).toEqual([
      '200',
      '400',
      '401',
      '403',
      '404',
      '409',
      '413',
      '429',
      '500',
      '503',
    ]);
    // An anonymous listing: input errors and the limiter, nothing about proofs or ids.
    expect(statuses('/v1/spaces', 'get')).toEqual(['200', '400', '429', '500', '503']);
    // The relay keeps its own `{error}` bodies.
    expect(
      document.paths['/relay/proof/v1/log'].get.responses['400'].content['application/json'].schema,
    ).toEqual({
      $ref: '#/components/schemas/RelayErrorResponse',
    });
    expect(document.paths['/v1/spaces'].get.responses['429']).toEqual({
      $ref: '#/components/responses/TooManyRequests',
    });
    expect(Object.keys(document.paths['/v1/spaces'].get.responses['200'].headers)).toEqual([
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
    ]);
    // An open set (api-spec.md "Errors"): documented, never a closed enum clients would enforce.
    const scope = document.components.schemas.RateLimitedBody.properties.scope;
    expect(scope).not.toHaveProperty('enum');
    for (const known of [
      'global',
      'query',
      'action',
      'create',
      'sensitive',
      'authenticated',
      'pop-capture',
    ]) {
      expect(scope.description).toContain(known);
    }
    const limit = document.paths['/v1/spaces'].get.parameters.find(
      (parameter: { name: string }) => parameter.name === 'limit',
    );
    expect(limit.schema).toEqual({ type: 'integer', minimum: 1, maximum: 100, default: 20 });
    expect(document.components.schemas.ErrorBody.required).toEqual(['code', 'message']);
  });

  it('declares Idempotency-Key on the writes that verify a proof, and only there', async () => {
    const document = JSON.parse((await request(t.http).get('/openapi.json')).text);
    const keyed = (path: string, method: string) =>
      (document.paths[path][method].parameters ?? []).some(
        (parameter: { $ref?: string }) => parameter.$ref === '#/components/parameters/IdempotencyKey',
      );
    expect(keyed('/v1/spaces/{space}/posts', 'post')).toBe(true);
    expect(keyed('/spaces/{space}', 'put')).toBe(true);
    expect(keyed('/v1/spaces/{space}/posts', 'get')).toBe(false);
    expect(keyed('/relay/proof/v1/operations', 'post')).toBe(false);
    expect(document.components.parameters.IdempotencyKey).toMatchObject({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    });
    expect(document.paths['/v1/spaces/{space}/posts'].post.responses['201'].headers).toHaveProperty(
      'Idempotent-Replayed',
    );
  });

  it('matches the committed docs/openapi.json (run `npm run openapi:write` after route changes)', async () => {
    const committed = readFileSync(join(__dirname, '..', '..', 'docs', 'openapi.json'), 'utf8');
    expect((await request(t.http).get('/openapi.json')).text).toBe(committed);
  });

  it('has migrations that match the entities (run `npm run migration:generate -- Name`)', async () => {
    const drift = await schemaDrift(t.app.get(DataSource));
    expect(drift.up).toEqual([]);
  });
});
