import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';

/**
 * Every feature module has the one shape of docs/architecture.md "Module shape"
 * (0133-one-module-shape-and-one-vocabulary): at its top only its module file(s), its repository
 * and its index.ts; below, only the shape's folders; a file named for a role holds the class of
 * that name.
 */
const root = join(__dirname, '../../..');
/** Shared code and libraries, not feature modules; `protocol` is one module of four Nest sub-modules. */
const SHARED = ['common', 'config', 'infrastructure', 'api-docs', 'cli'];
const PROTOCOL_PARTS = ['auth', 'relay', 'publishing', 'credentials'];
const isFolder = (path: string): boolean => statSync(path).isDirectory();
const MODULES = readdirSync(join(root, 'src'))
  .filter((name) => isFolder(join(root, 'src', name)) && !SHARED.includes(name))
  .flatMap((name) => (name === 'protocol' ? PROTOCOL_PARTS.map((part) => `protocol/${part}`) : [name]))
  .sort();
const FOLDERS = ['controllers', 'dto', 'entities', 'services', 'events', 'domain', 'repositories'];
const ROLES: Record<string, string> = {
  service: 'Service',
  repository: 'Repository',
  controller: 'Controller',
  presenter: 'Presenter',
  subscriber: 'Subscriber',
};

const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
const pascal = (kebab: string): string =>
  kebab
    .split('-')
    .map((word) => word[0].toUpperCase() + word.slice(1))
    .join('');

describe('module shape', () => {
  it('finds the feature modules, and every part of protocol besides its libraries', () => {
    expect(MODULES).toContain('posts');
    const protocol = readdirSync(join(root, 'src/protocol')).filter((name) =>
      isFolder(join(root, 'src/protocol', name)),
    );
    expect(protocol.sort()).toEqual([...PROTOCOL_PARTS, 'client', 'core'].sort());
  });

  it.each(MODULES)('%s keeps only its module file, repository and index.ts at its top', (module) => {
    const dir = join(root, 'src', module);
    const misplaced = readdirSync(dir).filter((name) =>
      isFolder(join(dir, name))
        ? !FOLDERS.includes(name)
        : !(name === 'index.ts' || name.endsWith('.module.ts') || name.endsWith('.repository.ts')),
    );
    expect(misplaced).toEqual([]);
  });

  it.each(MODULES)('%s names each role file after the class it holds', (module) => {
    const disagreeing: string[] = [];
    for (const path of files(join(root, 'src', module))) {
      const role = /^(.*)\.(service|repository|controller|presenter|subscriber)\.ts$/.exec(basename(path));
      if (!role) continue;
      const text = readFileSync(path, 'utf8');
      const classes = [...text.matchAll(/export (?:abstract )?class (\w+)/g)].map((match) => match[1]);
      // A presenter may be plain mapping functions; a class in it is named after the file.
      if (role[2] === 'presenter' && classes.length === 0) continue;
      const expected = pascal(role[1]) + ROLES[role[2]];
      if (!classes.includes(expected))
        disagreeing.push(`${relative(root, path)} holds ${classes.join(', ')}`);
    }
    expect(disagreeing).toEqual([]);
  });
});
