import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { ROUTE_ACCESS } from './route-access';

/** Deny by default, enforced at boot: the service refuses to start while any route lacks an access class. */
@Injectable()
export class RouteAccessAudit implements OnApplicationBootstrap {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
  ) {}

  onApplicationBootstrap(): void {
    const undeclared: string[] = [];
    for (const wrapper of this.discovery.getControllers()) {
      const controller = wrapper.metatype as (new (...args: never[]) => object) | undefined;
      if (!controller) continue;
      const prototype = controller.prototype as Record<string, unknown>;
      for (const name of this.scanner.getAllMethodNames(prototype)) {
        const handler = prototype[name] as (...args: unknown[]) => unknown;
        if (Reflect.getMetadata(PATH_METADATA, handler) === undefined) continue;
        if (!this.reflector.getAllAndOverride(ROUTE_ACCESS, [handler, controller])) {
          undeclared.push(`${controller.name}.${name}`);
        }
      }
    }
    if (undeclared.length > 0) {
      throw new Error(`Routes without an access class (@Anonymous, @Gated, ...): ${undeclared.join(', ')}`);
    }
  }
}
