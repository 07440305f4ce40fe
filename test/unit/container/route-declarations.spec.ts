import { Controller, Get, Param } from '@nestjs/common';
import { PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { ApiParam } from '@nestjs/swagger';
import { declaredRoutes } from '../../../src/infrastructure/rate-limit/rate-limit-class';
import { appControllers } from '../../support/app-controllers';

/**
 * How routes are declared (docs/decisions/0133-one-module-shape-and-one-vocabulary.md): one
 * controller per resource with its full prefix, ending at the resource's name
 * (`@Controller('spaces/:space/products')`; never `@Controller()` with full paths in its methods,
 * nor a prefix that stops at `v1` or at a parameter), no prefix split over several controllers, and
 * one name per path parameter across the API, which each `@Param` and `@ApiParam` of a route names
 * as its path does. Read from the controllers' metadata; nothing boots.
 */
const PARAMETER_NAMES = [
  'space',
  'post',
  'comment',
  'topic',
  'page',
  'event',
  'occurrence',
  'product',
  'release',
  'member',
  'group',
  'application',
  'notification',
  'media',
  'user',
  'code',
  'did',
  'cid',
  'content',
  'filename',
  'domain',
  'webhook',
  'delivery',
  'export',
  'import',
];

/** Documents served at the root (`/openapi.json`, `/llms.txt`): no resource, so no prefix. */
const ROOT_DOCUMENTS = ['ApiArtifactsController'];

type ControllerClass = ReturnType<typeof appControllers>[number];

/** The controller's prefix without its slashes, '' when it has none. */
function prefixOf(controller: ControllerClass): string {
  const path: unknown = Reflect.getMetadata(PATH_METADATA, controller);
  const paths = Array.isArray(path) ? (path as string[]) : [path as string | undefined];
  return paths.length === 1 ? (paths[0] ?? '').replace(/^\/+|\/+$/g, '').toLowerCase() : paths.join(',');
}

/** @nestjs/swagger's `DECORATORS.API_PARAMETERS`, which its package does not export. */
const API_PARAMETERS = 'swagger/apiParameters';

const parametersOf = (template: string): string[] =>
  [...template.matchAll(/:([A-Za-z_$][\w$]*)/g)].map((match) => match[1]);

/** The path parameters a handler reads (`@Param('x')`) and documents (`@ApiParam({ name: 'x' })`). */
function readParameters(controller: ControllerClass, handler: string): [label: string, name: string][] {
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, handler) ?? {}) as Record<
    string,
    { data?: unknown }
  >;
  const read = Object.entries(args)
    .filter(([key, arg]) => key.startsWith(`${RouteParamtypes.PARAM}:`) && typeof arg.data === 'string')
    .map(([, arg]): [string, string] => [`@Param('${arg.data as string}')`, arg.data as string]);
  const method = (controller.prototype as Record<string, object>)[handler];
  const documented = ((Reflect.getMetadata(API_PARAMETERS, method) ?? []) as { name: string; in: string }[])
    .filter((parameter) => parameter.in === 'path')
    .map((parameter): [string, string] => [`@ApiParam ${parameter.name}`, parameter.name]);
  return [...read, ...documented];
}

/** Every way the service's controllers break the rules above, one line each. */
function offenses(controllers: ControllerClass[]): string[] {
  const found: string[] = [];
  const byPrefix = new Map<string, ControllerClass[]>();
  for (const controller of controllers) {
    const prefix = prefixOf(controller);
    if (prefix === '') {
      if (!ROOT_DOCUMENTS.includes(controller.name)) found.push(`${controller.name}: no prefix`);
    } else {
      // An item's controller may end at its parameter (`applications/:application`); a prefix of
      // only versions and parameters (`v1`) names no resource: its routes would spell them out.
      const literal = prefix
        .split('/')
        .filter((segment) => !segment.startsWith(':') && !/^v\d+$/.test(segment));
      if (literal.length === 0) found.push(`${controller.name}: prefix ${prefix} names no resource`);
      byPrefix.set(prefix, [...(byPrefix.get(prefix) ?? []), controller]);
    }
    const parameters = new Set<string>();
    for (const route of declaredRoutes([controller])) {
      const own = new Set(route.templates.flatMap(parametersOf));
      own.forEach((parameter) => parameters.add(parameter));
      for (const [label, name] of readParameters(controller, route.name.split('.')[1])) {
        if (!own.has(name)) found.push(`${route.name}: ${label} is not a parameter of its path`);
      }
    }
    for (const parameter of parameters) {
      if (!PARAMETER_NAMES.includes(parameter)) found.push(`${controller.name}: parameter :${parameter}`);
    }
  }
  for (const [prefix, sharing] of byPrefix) {
    if (sharing.length > 1)
      found.push(...sharing.map((controller) => `${controller.name}: prefix ${prefix} shared`));
  }
  return found.sort();
}

describe('route declarations', () => {
  const found = offenses(appControllers());

  it('gives every controller its own full prefix, and every path parameter its one name (in @Param and @ApiParam too)', () => {
    expect(found).toEqual([]);
  });

  it('finds each kind of offense', () => {
    @Controller()
    class RootController {
      @Get('v1/things/:id')
      show() {}
    }
    @Controller('/things/')
    class ThingsController {
      @Get(':thing')
      show() {}
    }
    @Controller('Things')
    class MoreThingsController {
      @Get(':space/notes')
      notes() {}
    }
    @Controller('v1/things/:thing')
    class ThingController {
      @Get()
      @ApiParam({ name: 'item' })
      show(@Param('thing') thing: string, @Param('id') id: string) {
        return [thing, id];
      }
    }
    @Controller('v1')
    class VersionController {
      @Get('things')
      list() {}
    }
    expect(
      offenses([RootController, ThingsController, MoreThingsController, ThingController, VersionController]),
    ).toEqual([
      'MoreThingsController: prefix things shared',
      'RootController: no prefix',
      'RootController: parameter :id',
      'ThingController.show: @ApiParam item is not a parameter of its path',
      "ThingController.show: @Param('id') is not a parameter of its path",
      'ThingController: parameter :thing',
      'ThingsController: parameter :thing',
      'ThingsController: prefix things shared',
      'VersionController: prefix v1 names no resource',
    ]);
  });
});
