// ESM-only dependencies (@nestjs/*, multiformats, @ipld/dag-cbor, ...) are compiled to CommonJS by swc,
// because Jest's module loader cannot use Node's require(esm). See docs/decisions/0005-esm-only-libraries-under-jest.md.
const esmOnly = [
  '@nestjs',
  'uuid',
  '@apidevtools',
  'multiformats',
  '@ipld',
  'cborg',
  'uint8arrays',
  'file-type',
  // file-type's own ESM-only dependencies.
  'strtok3',
  'token-types',
  '@tokenizer',
  '@borewit',
  'uint8array-extras',
];
const swc = ['@swc/jest', { swcrc: false, ...require('./jest.swc.js') }];

module.exports = {
  rootDir: '.',
  testEnvironment: 'node',
  resolver: '<rootDir>/test/support/jest-resolver.js',
  setupFiles: ['reflect-metadata'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  testMatch: ['<rootDir>/test/**/*.spec.ts', '<rootDir>/test/**/*.e2e-spec.ts'],
  transform: { '^.+\\.(t|j)s$': swc },
  transformIgnorePatterns: [`/node_modules/(?!(${esmOnly.join('|')})/)`],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  testTimeout: 60000,
  maxWorkers: 2,
  // Each suite loads the whole service into a fresh module registry, and some of every registry
  // stays reachable (process listeners, agents): a worker's heap grows by ~40 MB a suite, to
  // several GB over a run, and its collections slow every later suite. A worker whose heap has
  // passed this after a suite is replaced (a second or so); 40 mid-sized e2e suites ran 13-16%
  // faster with it.
  workerIdleMemoryLimit: '600MB',
};
