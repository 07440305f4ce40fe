import { RequestMethod, SetMetadata } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { MetadataScanner } from '@nestjs/core';
import { parse as parseUrl } from 'node:url';
import { RequestClass } from './budgets';

/**
 * What a route costs the per-IP stage, declared on the route (docs/decisions/0130-rate-limit-class-on-the-route.md):
 * `read`, `action` (upvotes), `create` (posts, comments, media, accounts, spaces, relay ingest),
 * `sensitive` (key-proof present); `ordinary` is charged the all-requests budget only, `exempt`
 * (health probes) nothing.
 */
export type RateLimitClassName = 'read' | 'action' | 'create' | 'sensitive' | 'ordinary' | 'exempt';

export interface RateLimitClassOptions {
  /** The OpenAPI document and llms.txt: their refusals are plain text, outside the error envelope. */
  plainTextRefusal?: boolean;
}

export const RATE_LIMIT_CLASS = 'plat:rate-limit-class';

interface RateLimitDeclaration {
  name: RateLimitClassName;
  plainTextRefusal: boolean;
}

/** Every route declares one; boot fails on a route without (RateLimitRoutes). */
export const RateLimitClass = (name: RateLimitClassName, options: RateLimitClassOptions = {}) =>
  SetMetadata(RATE_LIMIT_CLASS, {
    name,
    plainTextRefusal: options.plainTextRefusal ?? false,
  } satisfies RateLimitDeclaration);

/** How the limiter treats one request, from its method and path alone (the route may not exist). */
export interface Classification {
  /** Health probes are never charged. */
  exempt: boolean;
  requestClass: RequestClass | null;
  /** The OpenAPI spec and llms.txt: refusals are plain text, outside the error envelope. */
  artifact: boolean;
}

/** The budgets of design.md §6 keep their internal names; the route names its class by cost. */
const BUDGET_CLASS: Record<RateLimitClassName, RequestClass | null> = {
  read: 'read',
  action: 'upvote',
  create: 'post',
  sensitive: 'key-proof-present',
  ordinary: null,
  exempt: null,
};

/** One route of the table: its method, its path template compiled, and what it costs. */
interface RateLimitRoute {
  method: string;
  template: string;
  pattern: RegExp;
  classification: Classification;
}

/** A route read from controller metadata. */
export interface DeclaredRoute {
  /** `Controller.handler`, for the boot error. */
  name: string;
  method: string;
  templates: string[];
  declaration: RateLimitDeclaration | undefined;
}

const UNROUTED_READ: Classification = { exempt: false, requestClass: 'read', artifact: false };
const UNROUTED_OTHER: Classification = { exempt: false, requestClass: null, artifact: false };
const EXEMPT: Classification = { exempt: true, requestClass: null, artifact: false };

/**
 * A path template as Express matches it: case-insensitive, one optional trailing slash, `:param`
 * one segment. Otherwise `POST /V1/Spaces/x/Posts/` would reach the posts route charged as an
 * ordinary request.
 */
function compile(template: string): RegExp {
  const source = template
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}/?$`, 'i');
}

/** Joins a controller path and a handler path as Nest does: one slash between, none at the end. */
function joinPath(controllerPath: string, handlerPath: string): string {
  const joined = `/${controllerPath}/${handlerPath}`.replace(/\/+/g, '/');
  return joined.length > 1 ? joined.replace(/\/$/, '') : joined;
}

const asList = (value: unknown): string[] =>
  value === undefined ? [''] : Array.isArray(value) ? (value as string[]) : [value as string];

/** The routes of controller classes, with their declared class (method-level over class-level). */
export function declaredRoutes(controllers: Array<new (...args: never[]) => object>): DeclaredRoute[] {
  const scanner = new MetadataScanner();
  const routes: DeclaredRoute[] = [];
  for (const controller of controllers) {
    const controllerPaths = asList(Reflect.getMetadata(PATH_METADATA, controller));
    const prototype = controller.prototype as Record<string, unknown>;
    for (const name of scanner.getAllMethodNames(prototype)) {
      const handler = prototype[name] as object;
      const handlerPath: unknown = Reflect.getMetadata(PATH_METADATA, handler);
      if (handlerPath === undefined) continue;
      const verb = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod;
      const templates = controllerPaths.flatMap((base) =>
        asList(handlerPath).map((path) => joinPath(base, path)),
      );
      routes.push({
        name: `${controller.name}.${name}`,
        method: RequestMethod[verb] ?? 'ALL',
        templates,
        declaration: (Reflect.getMetadata(RATE_LIMIT_CLASS, handler) ??
          Reflect.getMetadata(RATE_LIMIT_CLASS, controller)) as RateLimitDeclaration | undefined,
      });
    }
  }
  return routes;
}

/**
 * The per-IP stage's table, built at boot from the routes' declarations. It classifies from the
 * method and routed path alone, before routing, so a path that matches no route is classed too:
 * GET and HEAD as reads (the all-requests and read budgets), any other method with the
 * all-requests budget only. A health route is exempt whatever the method.
 */
export class RateLimitTable {
  private readonly exempt: RegExp[] = [];
  private readonly routes: RateLimitRoute[] = [];

  constructor(declared: DeclaredRoute[]) {
    const undeclared = declared.filter((route) => !route.declaration).map((route) => route.name);
    if (undeclared.length > 0) {
      throw new Error(`Routes without a rate-limit class (@RateLimitClass): ${undeclared.join(', ')}`);
    }
    for (const route of declared) {
      const declaration = route.declaration as RateLimitDeclaration;
      for (const template of route.templates) {
        const pattern = compile(template);
        if (declaration.name === 'exempt') {
          this.exempt.push(pattern);
          continue;
        }
        const classification: Classification = {
          exempt: false,
          requestClass: BUDGET_CLASS[declaration.name],
          artifact: declaration.plainTextRefusal,
        };
        // A route charged as an unrouted request of its method would only add a test to every
        // request: the table keeps the few that differ (creates, actions, key-proof, artifacts).
        if (route.method !== 'ALL' && sameCharge(classification, unrouted(route.method))) continue;
        this.routes.push({ method: route.method, template, pattern, classification });
      }
    }
  }

  classify(method: string, path: string): Classification {
    if (this.exempt.some((pattern) => pattern.test(path))) return EXEMPT;
    const verb = method.toUpperCase();
    // Express answers HEAD with the GET route.
    const routed = verb === 'HEAD' ? 'GET' : verb;
    for (const route of this.routes) {
      if ((route.method === routed || route.method === 'ALL') && route.pattern.test(path)) {
        return route.classification;
      }
    }
    return unrouted(routed);
  }
}

/** How a request of `method` that matches no route of the table is charged. */
function unrouted(method: string): Classification {
  return method === 'GET' || method === 'HEAD' ? UNROUTED_READ : UNROUTED_OTHER;
}

function sameCharge(a: Classification, b: Classification): boolean {
  return a.exempt === b.exempt && a.requestClass === b.requestClass && a.artifact === b.artifact;
}

/** Characters for which `parseurl` leaves its fast path. */
const NEEDS_FULL_PARSE = /[\t\n\f\r #\u00a0\ufeff]/;

/**
 * The path Express routes a request target by, so classification sees what the router sees: the
 * pathname of `parseurl` (Express's parser): up to the first `?` for a plain origin-form target,
 * else Node's legacy `url.parse` (absolute-form targets, `#`, whitespace, where backslashes become
 * slashes). Otherwise `POST /v1/spaces/s/posts#x` would reach the posts route unclassified.
 */
export function routedPath(target: string): string {
  if (target.charCodeAt(0) === 0x2f && !NEEDS_FULL_PARSE.test(target)) {
    const query = target.indexOf('?');
    return query === -1 ? target : target.slice(0, query);
  }
  return parseUrl(target).pathname ?? '';
}
