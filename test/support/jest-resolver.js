// Resolve CommonJS builds first; fall back to the ESM build for packages that ship only ESM
// (those are then compiled to CommonJS by swc, see transformIgnorePatterns in jest.config.js).
const cjs = ['require', 'node', 'default'];
const esm = ['import', 'module-sync', 'node', 'default'];

module.exports = (request, options) => {
  try {
    return options.defaultResolver(request, { ...options, conditions: cjs });
  } catch {
    return options.defaultResolver(request, { ...options, conditions: esm });
  }
};
