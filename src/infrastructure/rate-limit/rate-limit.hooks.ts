import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { RequestPrincipal } from '../../common/auth/request-authenticator';
import { AuthenticationHooks } from '../../common/auth/route-access.guard';
import { Charged, RateLimiter } from './rate-limiter.service';

/** The limiter's stages around proof verification (see RouteAccessGuard). */
@Injectable()
export class RateLimitAuthenticationHooks implements AuthenticationHooks {
  constructor(private readonly limiter: RateLimiter) {}

  beforeVerification(request: Request, response: Response): Charged {
    return this.limiter.chargeProofCapture(request, response);
  }

  afterVerification(request: Request, response: Response, principal: RequestPrincipal): Charged {
    return this.limiter.chargeGrant(request, response, principal.grant);
  }
}
