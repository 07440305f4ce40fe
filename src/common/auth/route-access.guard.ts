import { CanActivate, ExecutionContext, Inject, Injectable, Optional } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { forbidden } from '../errors/api-error';
import { RequestAuthenticator, RequestPrincipal } from './request-authenticator';
import { ROUTE_ACCESS, RouteAccess } from './route-access';

export type AuthenticatedRequest = Request & { principal?: RequestPrincipal | null };

/**
 * Called around proof verification on routes that verify one (every class but anonymous and
 * key-proof): rate limiting charges its `pop-capture` stage before and the per-grant budgets after.
 */
export interface AuthenticationHooks {
  beforeVerification(request: Request, response: Response): Promise<void>;
  afterVerification(request: Request, response: Response, principal: RequestPrincipal): Promise<void>;
}

export const AUTHENTICATION_HOOKS = Symbol('AuthenticationHooks');

/** Reads each route's declared access class and enforces it; a route that declares none is refused. */
@Injectable()
export class RouteAccessGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly authenticator: RequestAuthenticator,
    @Optional() @Inject(AUTHENTICATION_HOOKS) private readonly hooks?: AuthenticationHooks,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const access = this.reflector.getAllAndOverride<RouteAccess | undefined>(ROUTE_ACCESS, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!access) throw forbidden('Route has no declared access class');
    if (access.kind === 'anonymous' || access.kind === 'key-proof') return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const response = context.switchToHttp().getResponse<Response>();
    await this.hooks?.beforeVerification(request, response);
    request.principal = await this.authenticator.authenticate(request, access, async (principal) => {
      await this.hooks?.afterVerification(request, response, principal);
    });
    return true;
  }
}
