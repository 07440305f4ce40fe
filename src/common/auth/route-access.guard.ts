import { CanActivate, ExecutionContext, Inject, Injectable, Optional } from '@nestjs/common';
import { ModuleRef, Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { CredentialRefused, forbidden, notFound } from '../errors/api-error';
import { WriteIdempotency } from '../idempotency/write-idempotency';
import { PublicSpaceProbe } from './public-space-probe';
import { RequestAuthenticator, RequestPrincipal } from './request-authenticator';
import { ALLOWED_WHILE_ERASURE_PENDING, ROUTE_ACCESS, RouteAccess } from './route-access';

export type AuthenticatedRequest = Request & { principal?: RequestPrincipal | null };

/**
 * Called around proof verification on routes that verify one (every class but anonymous and
 * key-proof): rate limiting charges its `pop-capture` stage before and the per-grant budgets after.
 */
export interface AuthenticationHooks {
  /** Nothing when done at once, else a promise (awaiting a plain value would cost a microtask). */
  beforeVerification(request: Request, response: Response): void | Promise<void>;
  afterVerification(request: Request, response: Response, principal: RequestPrincipal): void | Promise<void>;
}

export const AUTHENTICATION_HOOKS = Symbol('AuthenticationHooks');

/** Reads each route's declared access class and enforces it; a route that declares none is refused. */
@Injectable()
export class RouteAccessGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly authenticator: RequestAuthenticator,
    private readonly modules: ModuleRef,
    @Optional() @Inject(AUTHENTICATION_HOOKS) private readonly hooks?: AuthenticationHooks,
    @Optional() private readonly idempotency?: WriteIdempotency,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const access = this.reflector.getAllAndOverride<RouteAccess | undefined>(ROUTE_ACCESS, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!access) throw forbidden('Route has no declared access class');
    if (access.kind === 'anonymous' || access.kind === 'key-proof') return true;
    const whileErasurePending =
      this.reflector.getAllAndOverride<boolean | undefined>(ALLOWED_WHILE_ERASURE_PENDING, [
        context.getHandler(),
        context.getClass(),
      ]) === true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const response = context.switchToHttp().getResponse<Response>();
    const captured = this.hooks?.beforeVerification(request, response);
    if (captured) await captured;
    try {
      request.principal = await this.authenticator.authenticate(
        request,
        access,
        (principal) => this.hooks?.afterVerification(request, response, principal),
        { whileErasurePending },
      );
    } catch (error) {
      if (error instanceof CredentialRefused && access.kind === 'gated' && access.spaceParam) {
        const reference = request.params[access.spaceParam];
        await this.hideUnlessPublic(typeof reference === 'string' ? reference : undefined);
      }
      throw error;
    }
    // Last, once every check passed: a retry is authenticated like the first request.
    if (request.principal) await this.idempotency?.begin(request, response, request.principal);
    return true;
  }

  /** A refused credential on a private or missing space is that space's 404, not a 403. */
  private async hideUnlessPublic(reference: string | undefined): Promise<void> {
    const probe = this.modules.get(PublicSpaceProbe, { strict: false });
    if (reference === undefined || !(await probe.isPublic(reference))) throw notFound();
  }
}
