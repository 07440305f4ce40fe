/**
 * Module boundaries (docs/architecture.md): a feature module's entities are its own, and no file
 * under src/ is part of an import cycle. `npm run lint` runs this after eslint.
 */
const entity = ['/entities/', '[.]entity[.]ts$'];

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
