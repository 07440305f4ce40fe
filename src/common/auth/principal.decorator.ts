import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { AuthenticatedRequest } from './route-access.guard';
import { RequestPrincipal } from './request-authenticator';

/**
 * The verified caller of a route that requires one (set by the route access guard). On
 * optional-auth routes use `@OptionalPrincipal()`: null for an anonymous caller.
 */
export const Principal = createParamDecorator(
  (_data: unknown, context: ExecutionContext): RequestPrincipal => {
    const principal = context.switchToHttp().getRequest<AuthenticatedRequest>().principal;
    // The guard refuses unauthenticated requests to such routes before any handler runs.
    if (!principal) throw new Error('@Principal() on a route that does not authenticate');
    return principal;
  },
);

export const OptionalPrincipal = createParamDecorator(
  (_data: unknown, context: ExecutionContext): RequestPrincipal | null =>
    context.switchToHttp().getRequest<AuthenticatedRequest>().principal ?? null,
);
