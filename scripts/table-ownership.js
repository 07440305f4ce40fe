// Module boundaries in SQL (docs/architecture.md): SQL text in a module names only its own tables
// (from its @Entity declarations) and the views other modules publish for joins. dependency-cruiser
// checks imports; this checks what imports cannot show. Exits 1 on any violation.
const { readdirSync, readFileSync, statSync } = require('node:fs');
const { join, relative } = require('node:path');

const rootArgument = process.argv.indexOf('--root');
const root = rootArgument > 0 ? process.argv[rootArgument + 1] : join(__dirname, '..');
const src = join(root, 'src');
/** Views a module publishes as its SQL read API (db/migrations), by owner. */
const PUBLISHED_VIEWS = {
  spaces: [
    'live_spaces',
    'space_member_standings',
    'active_space_members',
    'live_space_topics',
    'discoverable_spaces',
  ],
  users: ['public_users', 'author_records'],
  'legacy-spaces': ['space_applicants'],
  memberships: ['space_group_ids', 'group_members'],
  posts: ['live_posts'],
};
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
const unique = [...new Set(violations)].sort();
for (const line of unique) console.error(`error table-ownership: ${line}`);
if (unique.length > 0) process.exit(1);
console.log(`table-ownership: no violations (published views: ${JSON.stringify(PUBLISHED_VIEWS)})`);
