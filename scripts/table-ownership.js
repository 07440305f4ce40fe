// Module boundaries in SQL (docs/architecture.md): SQL text in a module names only its own tables
// (from its @Entity declarations) and the views other modules publish for joins. dependency-cruiser
// checks imports; this checks what imports cannot show. Exits 1 on any violation.
const { existsSync, readdirSync, readFileSync, statSync } = require('node:fs');
const { join, relative } = require('node:path');

const rootArgument = process.argv.indexOf('--root');
const root = rootArgument > 0 ? process.argv[rootArgument + 1] : join(__dirname, '..');
const src = join(root, 'src');
/**
 * Views a module publishes as its SQL read API, by owner: each module declares its own in its
 * index.ts (`export const PUBLISHED_VIEWS = ['live_posts'] as const;`), so publishing a view edits
 * nothing outside the module (docs/decisions/0132-adding-a-module.md). Its migrations create them.
 */
function publishedViews() {
  const views = {};
  for (const module of readdirSync(src).sort()) {
    const index = join(src, module, 'index.ts');
    if (!existsSync(index)) continue;
    const declared = /^export const PUBLISHED_VIEWS\s*=\s*\[([^\]]*)\]/m.exec(readFileSync(index, 'utf8'));
    if (declared) views[module] = [...declared[1].matchAll(/'([a-z_][a-z0-9_]*)'/g)].map((match) => match[1]);
  }
  return views;
}
const PUBLISHED_VIEWS = publishedViews();
/** Views the migrations create (none outside a repository with db/migrations). */
function createdViews() {
  const dir = join(root, 'db', 'migrations');
  if (!existsSync(dir)) return null;
  const created = new Set();
  for (const name of readdirSync(dir)) {
    for (const match of readFileSync(join(dir, name), 'utf8').matchAll(
      /CREATE (?:OR REPLACE )?VIEW \\?"?([a-z_][a-z0-9_]*)/gi,
    )) {
      created.add(match[1]);
    }
  }
  return created;
}
const SQL_NAME = /\b(?:FROM|JOIN|UPDATE|INTO|TABLE)\s+"?([a-z_][a-z0-9_]*)"?/gi;

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

const moduleOf = (path) => relative(src, path).split('/')[0];
const owners = new Map();
for (const path of files(src)) {
  for (const match of readFileSync(path, 'utf8').matchAll(/@Entity\(\{\s*name:\s*'([a-z0-9_]+)'/g)) {
    owners.set(match[1], moduleOf(path));
  }
}

const violations = [];
for (const path of files(src)) {
  const module = moduleOf(path);
  const text = readFileSync(path, 'utf8');
  // SQL lives in string and template literals.
  for (const literal of text.matchAll(/`[^`]*`|'(?:[^'\\\n]|\\.)*'/g)) {
    for (const match of literal[0].matchAll(SQL_NAME)) {
      const table = match[1];
      const owner = owners.get(table);
      if (owner && owner !== module) violations.push(`${relative(root, path)} names ${table} (${owner})`);
    }
  }
}
const created = createdViews();
const publishers = new Map();
for (const [module, views] of Object.entries(PUBLISHED_VIEWS)) {
  for (const view of views) {
    if (publishers.has(view))
      violations.push(`src/${module}/index.ts publishes ${view}, as does ${publishers.get(view)}`);
    publishers.set(view, module);
    if (created && !created.has(view))
      violations.push(`src/${module}/index.ts publishes ${view}, which no migration creates`);
  }
}
const unique = [...new Set(violations)].sort();
for (const line of unique) console.error(`error table-ownership: ${line}`);
if (unique.length > 0) process.exit(1);
console.log(`table-ownership: no violations (published views: ${JSON.stringify(PUBLISHED_VIEWS)})`);
