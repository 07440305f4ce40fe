/**
 * Module boundaries (docs/architecture.md): a feature module's entities are its own, another
 * module is reached only through its `index.ts` (its public API), and no file under src/ is part
 * of an import cycle. `npm run lint` runs this after eslint.
 */
const entity = ['/entities/', '[.]entity[.]ts$'];
/** Folders under src/ that are shared code, not feature modules: imported by path. */
const shared = ['common', 'infrastructure', 'config', 'api-docs', 'cli'];
/** Pure libraries inside a module (no NestJS): imported through their own index. */
const libraries = ['^src/protocol/core/', '^src/protocol/client/'];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-foreign-entities',
      comment:
        "A module's entities (and so its repositories and tables) are used only inside it: " +
        'other modules call its exported services or subscribe to its events.',
      severity: 'error',
      from: { path: '^src/([^/]+)/' },
      to: { path: entity, pathNot: '^src/$1/' },
    },
    {
      name: 'only-through-index',
      comment:
        "Another feature module is imported only through its index.ts, the module's public API; " +
        'what is not exported there is its own to change.',
      severity: 'error',
      from: { path: '^src/([^/]+)/' },
      to: {
        path: `^src/(?!(?:${shared.join('|')})/)[^/]+/(?!index[.]ts$)`,
        pathNot: ['^src/$1/', ...libraries],
      },
    },
    {
      name: 'no-circular',
      comment: 'No file-level import cycle under src/.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // Type-only imports count: an entity type in another module's signature is still a coupling.
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
