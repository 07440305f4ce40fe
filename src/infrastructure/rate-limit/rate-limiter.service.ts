import { HttpStatus, Inject, Injectable, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ApiError, serviceUnavailable } from '../../common/errors/api-error';
import { AppConfig } from '../../config/app-config';
import { Metrics } from '../metrics/metrics';
import { Budget, BudgetTable } from './budgets';
import { Classification, routedPath } from './rate-limit-class';
import { RateLimitRoutes } from './rate-limit-routes';
import { clientIp } from './client-ip';
import { RATE_LIMIT_STORE, RateLimitHit, RateLimitRecord, RateLimitStore } from './rate-limit-store';

/** One budget charged for a request, as it stood after the charge. */
interface Charge {
  budget: Budget;
  remaining: number;
  msToExpire: number;
  exceeded: boolean;
}

interface RequestState extends Classification {
  ip: string;
  /** Charges shown in RateLimit-* headers, every stage so far. */
  advertised: Charge[];
}

/** The limiter's state of a request, on the request itself (a WeakMap entry per request cost more). */
const STATE = Symbol('rateLimitState');
type LimitedRequest = Request & { [STATE]?: RequestState };

/**
 * A stage's outcome: nothing when the store answered at once (memory), else the promise of its
 * answer (Redis). The memory limiter so adds no promise, no microtask, to a request.
 */
export type Charged = void | Promise<void>;

const HEADERS = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'] as const;

/**
 * Charges the budgets of design.md §6 in three stages:
 * 1. per IP, before routing (RateLimitMiddleware): the all-requests budget and the class budget;
 * 2. `pop-capture`, per IP, before a request proof is verified (AuthenticationHooks);
 * 3. per grant, once the proof verified (AuthenticationHooks);
 * and, where work is counted per item, the rest of a batch once its size is known (chargePerItem).
 * Budgets are keyed by tracker only, never by route, so they span the whole API. Every budget of
 * a stage is charged (one store step: one Redis command for all of them) even when one of them
 * refuses; a refused request does not reach the next stage.
 */
@Injectable()
export class RateLimiter {
  private readonly logger = new Logger('RateLimit');
  private lastFailureLog = 0;
  private readonly refusals;
  readonly enabled: boolean;

  constructor(
    private readonly config: AppConfig,
    private readonly budgets: BudgetTable,
    @Inject(RATE_LIMIT_STORE) private readonly store: RateLimitStore,
    private readonly routes: RateLimitRoutes,
    metrics: Metrics,
  ) {
    this.enabled = !config.RATE_LIMIT_DISABLED;
    this.refusals = metrics.counter('rate_limit_refusals_total', 'Requests refused with 429, per scope', [
      'scope',
    ]);
  }

  /** What the limiter made of a request: exempt, class, artifact, client IP. */
  stateOf(request: Request): RequestState {
    let state = (request as LimitedRequest)[STATE];
    if (!state) {
      const classification = this.routes.classify(
        request.method,
        routedPath(request.originalUrl ?? request.url),
      );
      const ip = clientIp(
        request.socket?.remoteAddress,
        request.headers['x-forwarded-for'],
        this.config.TRUST_PROXY,
        this.config.RATE_LIMIT_IPV6_PREFIX,
      );
      state = {
        exempt: classification.exempt,
        requestClass: classification.requestClass,
        artifact: classification.artifact,
        ip,
        advertised: [],
      };
      (request as LimitedRequest)[STATE] = state;
    }
    return state;
  }

  /** Stage 1: every request but health probes, whether or not a route matches. */
  chargeIp(request: Request, response: Response): Charged {
    if (!this.enabled) return;
    const state = this.stateOf(request);
    if (state.exempt) return;
    return this.charge(response, state, this.budgets.perIp(state.requestClass), state.ip);
  }

  /** Stage 2: an Authorization header presented to a route that verifies one, before verifying it. */
  chargeProofCapture(request: Request, response: Response): Charged {
    if (!this.enabled || request.headers.authorization === undefined) return;
    const state = this.stateOf(request);
    if (state.exempt) return;
    return this.charge(response, state, [this.budgets.popCapture], state.ip);
  }

  /** Stage 3: the grant (credential CID, or DID of a bare identity proof) of a verified proof. */
  chargeGrant(request: Request, response: Response, grant: string): Charged {
    if (!this.enabled) return;
    const state = this.stateOf(request);
    if (state.exempt) return;
    return this.charge(response, state, this.budgets.perGrant(state.requestClass), grant);
  }

  /**
   * Work counted per item rather than per request (relay ingest: one unit of the per-IP class
   * budget, `create`, per operation), charged once the items are known and before any of them is
   * worked on. Stage 1 charged the request's first unit; this charges the rest. A batch costs at
   * most the whole budget, so one larger than the budget passes only on an untouched window, and
   * spends all of it. The all-requests budget still counts requests.
   */
  chargePerItem(request: Request, response: Response, items: number): Charged {
    if (!this.enabled) return;
    const state = this.stateOf(request);
    if (state.exempt || !state.requestClass) return;
    const [budget] = this.budgets.perIp(state.requestClass);
    const rest = Math.min(items, budget.limit) - 1;
    if (rest <= 0) return;
    // The charge below supersedes what stage 1 recorded for this budget.
    const stale = state.advertised.findIndex((charge) => charge.budget === budget);
    if (stale !== -1) state.advertised.splice(stale, 1);
    return this.charge(response, state, [budget], state.ip, rest);
  }

  private charge(
    response: Response,
    state: RequestState,
    budgets: Budget[],
    tracker: string,
    cost = 1,
  ): Charged {
    const hits: RateLimitHit[] = [];
    for (const budget of budgets) {
      hits.push({ key: `${budget.name}:${tracker}`, ttl: budget.ttl, limit: budget.limit, cost });
    }
    let answered: RateLimitRecord[] | Promise<RateLimitRecord[]>;
    try {
      answered = this.store.incrementAll(hits);
    } catch (error) {
      return this.storeFailed(response, error);
    }
    if (Array.isArray(answered)) return this.settle(response, state, budgets, answered);
    return answered.then(
      (records) => this.settle(response, state, budgets, records),
      (error: unknown) => this.storeFailed(response, error),
    );
  }

  /** Records the stage's charges and throws the 429 of the budget that refuses, if one does. */
  private settle(
    response: Response,
    state: RequestState,
    budgets: Budget[],
    records: RateLimitRecord[],
  ): void {
    // Of several exhausted budgets, the one that stays closed longest: retrying earlier is futile.
    // Budgets are listed most specific first, so a tie names the class budget.
    let blocking: Charge | undefined;
    for (let index = 0; index < records.length; index++) {
      const budget = budgets[index];
      const record = records[index];
      const charge: Charge = {
        budget,
        remaining: Math.max(0, budget.limit - record.totalHits),
        msToExpire: record.msToExpire,
        exceeded: record.isBlocked,
      };
      if (budget.advertised) state.advertised.push(charge);
      if (charge.exceeded && (!blocking || charge.msToExpire > blocking.msToExpire)) blocking = charge;
    }
    if (blocking) {
      this.refusals.inc({ scope: blocking.budget.scope });
      throw refusal(response, blocking);
    }
    setHeaders(response, nearestToRunningOut(state.advertised));
  }

  private storeFailed(response: Response, error: unknown): never {
    this.reportStoreFailure(error);
    clearHeaders(response);
    throw serviceUnavailable('Rate limits cannot be checked right now; retry later');
  }

  private reportStoreFailure(error: unknown): void {
    const now = Date.now();
    if (now - this.lastFailureLog < 10_000) return;
    this.lastFailureLog = now;
    this.logger.warn(`Rate-limit store failed, answering 503: ${(error as Error)?.message ?? String(error)}`);
  }
}

/** The budget with the lowest remaining; of equals, the one that resets last. */
function nearestToRunningOut(charges: Charge[]): Charge {
  return charges.reduce((nearest, charge) =>
    charge.remaining < nearest.remaining ||
    (charge.remaining === nearest.remaining && charge.msToExpire > nearest.msToExpire)
      ? charge
      : nearest,
  );
}

function setHeaders(response: Response, charge: Charge): void {
  response.setHeader('RateLimit-Limit', String(charge.budget.limit));
  response.setHeader('RateLimit-Remaining', String(charge.remaining));
  response.setHeader('RateLimit-Reset', String(Math.ceil(charge.msToExpire / 1000)));
}

function clearHeaders(response: Response): void {
  for (const name of HEADERS) response.removeHeader(name);
}

/**
 * 429 `{code, message, scope, retryAfterMs}` with Retry-After in whole seconds, rounded up. The
 * RateLimit-* headers then describe the refusing budget (so they agree with Retry-After), except
 * for `pop-capture`, whose 429 carries Retry-After only.
 */
function refusal(response: Response, blocking: Charge): ApiError {
  const retryAfterMs = blocking.msToExpire;
  if (blocking.budget.advertised) setHeaders(response, blocking);
  else clearHeaders(response);
  return new ApiError(
    HttpStatus.TOO_MANY_REQUESTS,
    'Too many requests',
    { scope: blocking.budget.scope, retryAfterMs },
    { 'Retry-After': String(Math.ceil(retryAfterMs / 1000)) },
  );
}
