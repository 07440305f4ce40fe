import { AppConfig } from '../../config/app-config';

/** The `scope` a 429 names (api-spec.md "Errors"; design.md §6). */
export const RATE_LIMIT_SCOPES = [
  'global',
  'query',
  'action',
  'create',
  'sensitive',
  'authenticated',
  'pop-capture',
] as const;
export type RateLimitScope = (typeof RATE_LIMIT_SCOPES)[number];

/** What a request is, for the class budgets of design.md §6 (`null`: only the all-requests budgets). */
export type RequestClass = 'read' | 'upvote' | 'post' | 'key-proof-present';

/** One budget: `limit` requests per `ttl` milliseconds for one tracker (an IP or a grant). */
export interface Budget {
  /** Storage key segment, unique per budget (`ip:all`, `grant:reads`, ...). */
  readonly name: string;
  readonly scope: RateLimitScope;
  readonly limit: number;
  /** Window length in milliseconds. */
  readonly ttl: number;
  /** Shown in RateLimit-* headers (every budget but `pop-capture`). */
  readonly advertised: boolean;
}

/** Every budget of api-spec.md "Limits", with its numbers from the configuration. */
export class BudgetTable {
  readonly ipAll: Budget;
  readonly popCapture: Budget;
  readonly grantAll: Budget;
  private readonly ipClass: Record<RequestClass, Budget>;
  private readonly grantClass: Partial<Record<RequestClass, Budget>>;

  constructor(config: AppConfig) {
    const ttl = config.RATE_LIMIT_WINDOW_MS;
    const budget = (name: string, scope: RateLimitScope, limit: number, advertised = true): Budget => ({
      name,
      scope,
      limit,
      ttl,
      advertised,
    });
    this.ipAll = budget('ip:all', 'global', config.RATE_LIMIT_IP_ALL);
    this.ipClass = {
      read: budget('ip:reads', 'query', config.RATE_LIMIT_IP_READS),
      upvote: budget('ip:upvotes', 'action', config.RATE_LIMIT_IP_UPVOTES),
      post: budget('ip:posts', 'create', config.RATE_LIMIT_IP_POSTS),
      'key-proof-present': budget('ip:key-proof', 'sensitive', config.RATE_LIMIT_IP_KEY_PROOF),
    };
    this.popCapture = budget('ip:pop-capture', 'pop-capture', config.RATE_LIMIT_POP_CAPTURE, false);
    this.grantAll = budget('grant:all', 'authenticated', config.RATE_LIMIT_GRANT_ALL);
    this.grantClass = {
      read: budget('grant:reads', 'query', config.RATE_LIMIT_GRANT_READS),
      upvote: budget('grant:upvotes', 'action', config.RATE_LIMIT_GRANT_UPVOTES),
      post: budget('grant:posts', 'create', config.RATE_LIMIT_GRANT_POSTS),
    };
  }

  /** Per-IP stage: the class budget (most specific first, see RateLimiter) and the all-requests one. */
  perIp(requestClass: RequestClass | null): Budget[] {
    return requestClass ? [this.ipClass[requestClass], this.ipAll] : [this.ipAll];
  }

  /** Per-grant stage, once the proof verified. Key-proof present has no per-grant budget. */
  perGrant(requestClass: RequestClass | null): Budget[] {
    const specific = requestClass ? this.grantClass[requestClass] : undefined;
    return specific ? [specific, this.grantAll] : [this.grantAll];
  }
}
