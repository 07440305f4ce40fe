import { Injectable, OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { Classification, declaredRoutes, RateLimitTable } from './rate-limit-class';

/**
 * The per-IP stage's table, built from the routes' @RateLimitClass at boot (as RouteAccessAudit
 * reads the access classes): the service refuses to start while any route lacks a class.
 */
@Injectable()
export class RateLimitRoutes implements OnModuleInit {
  private table?: RateLimitTable;

  constructor(private readonly discovery: DiscoveryService) {}

  onModuleInit(): void {
    const controllers = this.discovery
      .getControllers()
      .map((wrapper) => wrapper.metatype as (new (...args: never[]) => object) | undefined)
      .filter((controller): controller is new (...args: never[]) => object => controller !== undefined);
    this.table = new RateLimitTable(declaredRoutes(controllers));
  }

  classify(method: string, path: string): Classification {
    if (!this.table) throw new Error('Rate-limit table read before boot');
    return this.table.classify(method, path);
  }
}
