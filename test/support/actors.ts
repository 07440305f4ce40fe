import request, { Response } from 'supertest';
import { issueCredential, PlatIdentity, revokeCredential, signRequestProof } from '../../src/protocol/client';
import type { TestApp } from './app';

/**
 * What an actor talks to: a booted app, or a running service process (`http` is then its base URL,
 * which supertest takes too, and `config` the configuration it was started with).
 */
export interface ServiceTarget {
  http: TestApp['http'] | string;
  config: TestApp['config'];
}

/** Publishes signed operations through the embedded relay and fails the test on any rejection. */
export async function publish(t: ServiceTarget, operations: readonly string[]): Promise<void> {
  const response = await request(t.http).post('/relay/proof/v1/operations').send({ operations });
  const results = (response.body as { results?: { status: string; error?: string }[] }).results;
  if (response.status !== 200 || !results || results.some((result) => result.status === 'rejected')) {
    throw new Error(`relay refused operations: ${response.status} ${JSON.stringify(response.body)}`);
  }
}

export interface SignOptions {
  credential?: string;
  jti?: string | boolean;
  /** Sign for this target but send the request to `path` (tampering tests). */
  signedTarget?: string;
  signedMethod?: string;
  /** Signs `iat` by this time source instead of the actor's (e.g. a test's shifted server clock). */
  clock?: () => Date;
}

export interface ActorOptions {
  /** Publish this identity instead of a new one (its DID is then known before the publish ends). */
  identity?: PlatIdentity;
  /** The time request proofs are signed at; tests that move the server's Clock pass the same one. */
  clock?: () => Date;
}

/**
 * A person (or an app) with a real identity chain on the service's relay, sending requests with
 * request proofs exactly as an independent client would (design.md §3).
 */
export class Actor {
  private constructor(
    private readonly t: ServiceTarget,
    readonly identity: PlatIdentity,
    private readonly clock?: () => Date,
  ) {}

  static async create(t: ServiceTarget, options: ActorOptions = {}): Promise<Actor> {
    const identity = options.identity ?? PlatIdentity.create();
    await publish(t, identity.log);
    return new Actor(t, identity, options.clock);
  }

  get did(): string {
    return this.identity.did;
  }

  headers(method: string, target: string, options: SignOptions = {}): Record<string, string> {
    const proof = signRequestProof({
      identity: this.identity,
      audience: this.t.config.publicHost,
      method: options.signedMethod ?? method,
      target: options.signedTarget ?? target,
      credential: options.credential,
      jti: options.jti,
      clock: options.clock ?? this.clock,
    });
    return {
      Authorization: proof.authorization,
      ...(options.credential !== undefined ? { 'X-Credential': options.credential } : {}),
    };
  }

  send(method: string, path: string, body?: unknown, options: SignOptions = {}): Promise<Response> {
    const agent = request(this.t.http);
    const verb = method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    const call = agent[verb](path).set(this.headers(method, path, options));
    return body === undefined ? call : call.send(body as object);
  }

  get(path: string, options?: SignOptions) {
    return this.send('GET', path, undefined, options);
  }

  post(path: string, body?: unknown, options?: SignOptions) {
    return this.send('POST', path, body ?? {}, options);
  }

  patch(path: string, body?: unknown, options?: SignOptions) {
    return this.send('PATCH', path, body ?? {}, options);
  }

  put(path: string, body?: unknown, options?: SignOptions) {
    return this.send('PUT', path, body ?? {}, options);
  }

  delete(path: string, options?: SignOptions) {
    return this.send('DELETE', path, undefined, options);
  }

  /** Claims an account (POST /users) and returns the response. */
  signUp(handle: string, displayName?: string) {
    return this.post('/users', { handle, ...(displayName ? { displayName } : {}) });
  }

  /** A PlatCredential from this person to `app` for this API. */
  grant(
    app: Actor,
    scopes: string[],
    spaces: string[] = ['*'],
    options: { expiresInSeconds?: number } = {},
  ): string {
    const hasSpaceScope = scopes.some(
      (scope) => !['read:profile', 'read:email', 'read:memberships'].includes(scope),
    );
    return issueCredential(this.identity, {
      audience: app.did,
      host: this.t.config.publicHost,
      scopes,
      spaces: hasSpaceScope ? spaces : [],
      ...options,
    }).token;
  }

  async revoke(credential: string): Promise<void> {
    await publish(this.t, [revokeCredential(this.identity, credential).token]);
  }
}
