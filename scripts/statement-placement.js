// Statements live in repositories (docs/decisions/0131-a-repository-per-module.md): under src/,
// only a repository file (`*.repository.ts`, or a file under a `repositories/` folder) runs SQL or
// TypeORM's entity methods. A call counts when the method it calls is declared by TypeORM
// (DataSource, EntityManager, Repository, QueryRunner, or a type picked from them) and is one that
// reaches the database: `query` (and the `sql` tag), `createQueryBuilder`, `getRepository`, `find…`,
// `insert`, `update`, `delete`, `save`, `upsert`, `exists…`, `count…` and the like. `transaction`,
// `create` and `merge` do not count (a service opens the transaction; create and merge build
// objects). Found with the TypeScript checker, so a repository injected under any name counts. The
// database plumbing (src/infrastructure/database/, src/infrastructure/health/) is exempt.
//
// Exits 1 on any offending file; `--root <dir>` is for tests.
const { existsSync, readdirSync, statSync } = require('node:fs');
const { dirname, join, relative, sep } = require('node:path');
const ts = require('typescript');

const option = (name) => {
  const index = process.argv.indexOf(name);
  return index > 0 ? process.argv[index + 1] : undefined;
};
const root = option('--root') ?? join(__dirname, '..');
const src = join(root, 'src');

/** Database plumbing: the data source, migrations, the pool's health. */
const EXEMPT = ['src/infrastructure/database/', 'src/infrastructure/health/'];
/** TypeORM methods that run a statement (or hand out something that does). */
const STATEMENT_METHODS = new Set([
  'query',
  'createQueryBuilder',
  'getRepository',
  'getTreeRepository',
  'getMongoRepository',
  'withRepository',
  'find',
  'findBy',
  'findOne',
  'findOneBy',
  'findOneOrFail',
  'findOneByOrFail',
  'findAndCount',
  'findAndCountBy',
  'findByIds',
  'exist',
  'exists',
  'existsBy',
  'count',
  'countBy',
  'sum',
  'average',
  'minimum',
  'maximum',
  'insert',
  'update',
  'updateAll',
  'delete',
  'deleteAll',
  'save',
  'remove',
  'softDelete',
  'softRemove',
  'restore',
  'recover',
  'upsert',
  'increment',
  'decrement',
  'clear',
  'preload',
  'sql',
]);
const TYPEORM = `${sep}node_modules${sep}typeorm${sep}`;

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return path.endsWith('.ts') && !path.endsWith('.d.ts') ? [path] : [];
  });
}

const isRepository = (file) => file.endsWith('.repository.ts') || file.split('/').includes('repositories');

function compilerOptions() {
  const configPath = join(root, 'tsconfig.json');
  if (!existsSync(configPath)) return { strict: true };
  const { config } = ts.readConfigFile(configPath, ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, dirname(configPath));
  return { ...options, types: ['node'], noEmit: true };
}

const sources = files(src);
const program = ts.createProgram(sources, compilerOptions());
const checker = program.getTypeChecker();

/** Whether `symbol` (a method called) is declared by TypeORM. */
function fromTypeorm(symbol) {
  const resolved = symbol && symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  return (resolved?.declarations ?? []).some((declaration) =>
    declaration.getSourceFile().fileName.split('/').join(sep).includes(TYPEORM),
  );
}

/** `file:line method` for each statement call in `sourceFile`. */
function statementCalls(sourceFile, file) {
  const calls = [];
  const visit = (node) => {
    if (ts.isCallExpression(node) || ts.isTaggedTemplateExpression(node)) {
      const callee = ts.isCallExpression(node) ? node.expression : node.tag;
      const name = ts.isPropertyAccessExpression(callee)
        ? callee.name
        : ts.isIdentifier(callee)
          ? callee
          : undefined;
      if (name && STATEMENT_METHODS.has(name.text) && fromTypeorm(checker.getSymbolAtLocation(name))) {
        const { line } = sourceFile.getLineAndCharacterOfPosition(name.getStart(sourceFile));
        calls.push(`${file}:${line + 1} ${name.text}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return calls;
}

const offenders = new Map();
for (const path of sources) {
  const file = relative(root, path).split(sep).join('/');
  if (isRepository(file) || EXEMPT.some((prefix) => file.startsWith(prefix))) continue;
  const calls = statementCalls(program.getSourceFile(path), file);
  if (calls.length > 0) offenders.set(file, calls);
}
const offending = [...offenders.keys()].sort();

for (const file of offending) {
  for (const call of offenders.get(file))
    console.error(`error statement-placement: ${call}: a statement outside a repository`);
}
if (offending.length > 0) process.exit(1);
console.log('statement-placement: every statement is in a repository');
