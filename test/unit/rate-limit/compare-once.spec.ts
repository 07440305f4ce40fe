import { classify } from '../../../src/infrastructure/rate-limit/classify';
import { declaredRoutes, RateLimitTable } from '../../../src/infrastructure/rate-limit/rate-limit-class';
import { appControllers } from '../../support/app-controllers';

// One-off check (issue 31 item 3): the table from @RateLimitClass classes every route as classify() did.
describe('rate-limit table against classify()', () => {
  const routes = declaredRoutes(appControllers());
  const table = new RateLimitTable(routes);
  const samples = routes.flatMap((route) =>
    route.templates.flatMap((template) => {
      const path = template.replace(/:[A-Za-z0-9_]+/g, 's');
      const methods =
        route.method === 'GET'
          ? ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']
          : [route.method, 'GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
      return methods.flatMap((method) =>
        [path, path.toUpperCase() + '/', path + '/'].map((p) => [method, p] as const),
      );
    }),
  );
  it('has the routes', () => {
    expect(routes.length).toBeGreaterThan(130);
    console.log(`routes ${routes.length}, samples ${samples.length}`);
  });
  it.each(samples)('%s %s', (method, path) => {
    expect(table.classify(method, path)).toEqual(classify(method, path));
  });
  it.each([
    ['GET', '/anything'],
    ['POST', '/anything'],
    ['POST', '/health/live'],
    ['DELETE', '/v1/spaces/s/posts/p/upvote/'],
    ['GET', '/v1/openapi.json'],
    ['HEAD', '/LLMS.TXT'],
  ])('extra %s %s', (m, p) => {
    expect(table.classify(m, p)).toEqual(classify(m, p));
  });
});
