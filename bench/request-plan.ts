import { readFileSync } from 'node:fs';
import { PlatIdentity, signRequestProof, type KeyFileJson } from '../src/protocol/client';
import { isDeletedPost, postId } from './seed-plan';

/**
 * What a scenario sends, as plain data: the load generator (its own process, bench/load-worker.ts)
 * and the verify step build every request from it the same way, so both sides of a pair and the
 * byte comparison see the same requests.
 *
 * - `proof`: an actor's request proof in Authorization. Reads sign one proof per phase (no jti,
 *   300 s, replayed by every request: design.md §3 lets reads omit the jti); writes sign every
 *   request with a fresh jti (the service refuses a replayed write), rotating over the actors.
 * - `rotate`: `{post}` in the path names a different post of a space per request, so writes never
 *   pile on one row and an upvote is never a repeat: request i of a phase is number k = start + i,
 *   the (k mod count)-th live post, signed by actor floor(k / count) mod actors (rotating writes
 *   only). Every (actor, post) pair comes once while k < actors × count; the harness hands every
 *   phase its own `start` past the previous phase's last request.
 * - `paths`: request i of a phase goes to `list[start + i]`, each path once (signed upload URLs,
 *   good for one upload each); the harness hands out `start` as for `rotate`.
 * - `bodyFile`: the body is this file's bytes (read once by whoever builds the requests: a
 *   megabytes-long body does not travel in the plan).
 */
export interface RequestPlan {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path and query, sent verbatim; may hold `{post}` (see `rotate`). */
  path: string;
  headers?: Record<string, string>;
  /** Sent as is (JSON text for JSON bodies: set content-type in headers). */
  body?: string;
  /** With `credential`, the X-Credential the proofs present (bound through `ath`). */
  proof?: { actors: KeyFileJson[]; perRequest: boolean; audience: string; credential?: string };
  rotate?: { space: number; start: number; count: number };
  paths?: { list: string[]; start: number };
  bodyFile?: string;
}

export interface BuiltRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

/** Proofs of reads live this long; a phase (warm-up plus measured run) must be shorter. */
export const READ_PROOF_SECONDS = 300;

/** The requests of one phase, request by request (`index` counts from 0 per phase). */
export class RequestFactory {
  private readonly actors: PlatIdentity[];
  private phaseProofs: string[] = [];
  private readonly body: string | Buffer | undefined;

  constructor(private readonly plan: RequestPlan) {
    this.actors = (plan.proof?.actors ?? []).map((file) => PlatIdentity.fromKeyFile(file));
    this.body = plan.bodyFile === undefined ? plan.body : readFileSync(plan.bodyFile);
    this.newPhase();
  }

  /** Signs the phase's read proofs afresh (call before each phase). */
  newPhase(): void {
    const { proof } = this.plan;
    if (!proof || proof.perRequest) {
      this.phaseProofs = [];
      return;
    }
    this.phaseProofs = this.actors.map((identity) =>
      this.sign(identity, this.plan.path, { jti: false, lifetimeSeconds: READ_PROOF_SECONDS }),
    );
  }

  request(index: number): BuiltRequest {
    const { plan } = this;
    const k = (plan.rotate?.start ?? 0) + index;
    const count = plan.rotate?.count ?? 1;
    const actor = this.actors.length > 0 ? (plan.rotate ? Math.floor(k / count) : k) % this.actors.length : 0;
    const path = plan.rotate
      ? plan.path.replace('{post}', wirePostId(plan.rotate.space, liveNumber(k % count)))
      : plan.paths
        ? (plan.paths.list[plan.paths.start + index] ?? plan.path)
        : plan.path;
    const headers: Record<string, string> = { ...plan.headers };
    if (plan.proof?.credential) headers['x-credential'] = plan.proof.credential;
    if (plan.proof) {
      headers.authorization = plan.proof.perRequest
        ? this.sign(this.actors[actor], path, { jti: true, lifetimeSeconds: 60 })
        : this.phaseProofs[actor];
    }
    return { method: plan.method, path, headers, ...(this.body === undefined ? {} : { body: this.body }) };
  }

  private sign(
    identity: PlatIdentity,
    target: string,
    options: { jti: boolean; lifetimeSeconds: number },
  ): string {
    return signRequestProof({
      identity,
      audience: this.plan.proof!.audience,
      method: this.plan.method,
      target,
      jti: options.jti,
      lifetimeSeconds: options.lifetimeSeconds,
      ...(this.plan.proof!.credential ? { credential: this.plan.proof!.credential } : {}),
    }).authorization;
  }
}

/** How many of a bench space's first `posts` numbers are live. */
export function liveCount(posts: number): number {
  return Math.floor(posts / 100) * 99 + Math.min(posts % 100, 99);
}

/** The k-th live (not soft-deleted) post number of a bench space: 99 of every 100 numbers. */
export function liveNumber(k: number): number {
  const n = Math.floor(k / 99) * 100 + (k % 99);
  return isDeletedPost(n) ? n + 1 : n;
}

export function wirePostId(space: number, n: number): string {
  return `post_${postId(space, n).replace(/-/g, '')}`;
}
