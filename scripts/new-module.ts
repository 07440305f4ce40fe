import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { format, resolveConfig } from 'prettier';
import { DefaultNamingStrategy } from 'typeorm';

/**
 * `npm run new:module -- <name> [--entity <singular>]`: writes the skeleton of a feature module in
 * the module shape (docs/architecture.md, docs/adding-a-module.md) with one complete route, its
 * table, its migration and a passing e2e test, and registers the module in src/app.module.ts, the
 * one file outside its folder it edits (docs/decisions/0132-adding-a-module.md). Every file it
 * writes is prettier-formatted. Runs in the current directory (the repository root).
 */

export interface ModuleNames {
  /** kebab-case: the folder, the route path, the OpenAPI tag (`reading-lists`). */
  name: string;
  /** `ReadingLists`: the module, service, repository and controller classes. */
  pascal: string;
  /** `READING_LISTS`: the statements constant. */
  constant: string;
  /** `reading_lists`: the table. */
  table: string;
  /** kebab-case singular: the entity's file (`reading-list`). */
  entity: string;
  /** `ReadingList`: the entity and its DTO classes. */
  entityPascal: string;
  /** `readingList`: a variable holding one. */
  entityCamel: string;
  /** `reading_list`: the wire prefix of its ids. */
  prefix: string;
}

const KEBAB = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;

const pascalOf = (kebab: string) =>
  kebab
    .split('-')
    .map((word) => word[0].toUpperCase() + word.slice(1))
    .join('');
const snakeOf = (kebab: string) => kebab.replace(/-/g, '_');

/** The names of a module; the entity's singular is `--entity`, else the name without a final "s". */
export function moduleNames(name: string, entity?: string): ModuleNames {
  if (!KEBAB.test(name)) throw new Error(`"${name}" is not kebab-case (e.g. bookmarks, reading-lists)`);
  const singular = entity ?? (/[^s]s$/.test(name) ? name.slice(0, -1) : name);
  if (!KEBAB.test(singular)) throw new Error(`--entity "${singular}" is not kebab-case`);
  return {
    name,
    pascal: pascalOf(name),
    constant: snakeOf(name).toUpperCase(),
    table: snakeOf(name),
    entity: singular,
    entityPascal: pascalOf(singular),
    entityCamel: pascalOf(singular)[0].toLowerCase() + pascalOf(singular).slice(1),
    prefix: snakeOf(singular),
  };
}

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** Why `names` cannot be added to the repository at `root`, if it cannot. */
export function refusal(root: string, names: ModuleNames): string | null {
  if (existsSync(join(root, 'src', names.name))) return `src/${names.name} exists`;
  if (existsSync(join(root, 'test', 'e2e', names.name))) return `test/e2e/${names.name} exists`;
  const sources = files(join(root, 'src')).map((path) => readFileSync(path, 'utf8'));
  if (sources.some((text) => text.includes(`@Entity({ name: '${names.table}'`))) {
    return `the table ${names.table} is another module's`;
  }
  const migrations = join(root, 'db', 'migrations');
  const views = readdirSync(migrations).map((file) => readFileSync(join(migrations, file), 'utf8'));
  if (views.some((text) => new RegExp(`VIEW \\\\?"?${names.table}\\b`).test(text))) {
    return `${names.table} is a view of another module`;
  }
  const taken = (pattern: RegExp) => sources.some((text) => pattern.test(text));
  if (taken(new RegExp(`\\bclass (?:${names.pascal}Module|${names.entityPascal})\\b`))) {
    return `a class ${names.pascal}Module or ${names.entityPascal} exists`;
  }
  // The handler name is the operationId, unique across the API.
  if (taken(new RegExp(`^\\s+list${names.pascal}\\(`, 'm'))) return `a handler list${names.pascal} exists`;
  if (taken(new RegExp(`^\\s+${names.prefix}: true;`, 'm'))) return `the id prefix ${names.prefix} is taken`;
  return null;
}

/** The migration's timestamp: now, and later than every committed migration. */
function migrationTimestamp(root: string): number {
  const latest = Math.max(
    0,
    ...readdirSync(join(root, 'db', 'migrations')).map((file) => Number(/^(\d+)-/.exec(file)?.[1] ?? 0)),
  );
  return Math.max(Date.now(), latest + 1);
}

/** Every file of the skeleton, by path from the repository root. */
export function skeleton(names: ModuleNames, timestamp: number): Map<string, string> {
  const { name, pascal, constant, table, entity, entityPascal, entityCamel, prefix } = names;
  const words = name.replace(/-/g, ' ');
  const primaryKey = new DefaultNamingStrategy().primaryKeyName(table, ['id']);
  const ownerIndex = `idx_${table}_owner`;
  const migration = `${pascal}${timestamp}`;
  const m = `src/${name}`;
  return new Map([
    [
      `${m}/${name}.module.ts`,
      `import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PaginationModule } from '../common/pagination/pagination.module';
import { ${pascal}Controller } from './controllers/${name}.controller';
import { ${entityPascal} } from './entities/${entity}.entity';
import { ${pascal}Repository } from './${name}.repository';
import { ${pascal}Service } from './services/${name}.service';

/** The ${words} module (docs/adding-a-module.md): say here what it owns and offers. */
@Module({
  imports: [TypeOrmModule.forFeature([${entityPascal}]), PaginationModule],
  controllers: [${pascal}Controller],
  providers: [${pascal}Service, ${pascal}Repository],
})
export class ${pascal}Module {}
`,
    ],
    [
      `${m}/index.ts`,
      `/**
 * The public API of the \`${name}\` module: what other modules may import (docs/architecture.md
 * "Module shape"); the boundary lint refuses any other path into the module. Export a service
 * here when another module needs it (and add it to the module's \`exports\`). To let others join
 * a view of its tables, create the view in a migration and declare it here:
 * \`export const PUBLISHED_VIEWS = ['${table}_view'] as const;\` (scripts/table-ownership.js).
 */
export { ${pascal}Module } from './${name}.module';
`,
    ],
    [
      `${m}/${name}.repository.ts`,
      `import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { KeysetSeek } from '../common/pagination/keyset';
import { defineStatements } from '../infrastructure/database/statements';
import { ${entityPascal} } from './entities/${entity}.entity';

/**
 * The ${words} module's fixed SQL (docs/decisions/0131-a-repository-per-module.md), written to
 * docs/queries/${name}.sql by \`npm run build && npm run queries:write\`.
 */
export const ${constant}_STATEMENTS = defineStatements('${pascal}Repository', {
  /** A page of an owner's rows, newest first ($1 owner, $2 rows to read, $3 the cursor's id). */
  pageOfOwner: {
    first: 'SELECT id, owner_did, created_at FROM ${table} WHERE owner_did = $1 ORDER BY id DESC LIMIT $2',
    after:
      'SELECT id, owner_did, created_at FROM ${table} WHERE owner_did = $1 AND id < $3 ORDER BY id DESC LIMIT $2',
    before:
      'SELECT id, owner_did, created_at FROM ${table} WHERE owner_did = $1 AND id > $3 ORDER BY id ASC LIMIT $2',
  },
});

interface ${entityPascal}Row {
  id: string;
  owner_did: string;
  created_at: Date;
}

const ${entityCamel}Of = (row: ${entityPascal}Row): ${entityPascal} => ({
  id: row.id,
  ownerDid: row.owner_did,
  createdAt: row.created_at,
});

/** Every statement on \`${table}\`; methods take the caller's transaction as their last argument. */
@Injectable()
export class ${pascal}Repository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** One row by its key: TypeORM's repository API (record 0131). */
  async insert(row: ${entityPascal}, runner: EntityManager = this.dataSource.manager): Promise<void> {
    await runner.insert(${entityPascal}, row);
  }

  /** The rows of a keyset page (common/pagination/keyset.ts) of \`ownerDid\`'s rows. */
  async pageOfOwner(
    ownerDid: string,
    seek: KeysetSeek,
    runner: EntityManager = this.dataSource.manager,
  ): Promise<${entityPascal}[]> {
    const { pageOfOwner } = ${constant}_STATEMENTS;
    const rows = seek.values
      ? await runner.query<${entityPascal}Row[]>(seek.backward ? pageOfOwner.before : pageOfOwner.after, [
          ownerDid,
          seek.take,
          seek.values[0],
        ])
      : await runner.query<${entityPascal}Row[]>(pageOfOwner.first, [ownerDid, seek.take]);
    return rows.map(${entityCamel}Of);
  }
}
`,
    ],
    [
      `${m}/entities/${entity}.entity.ts`,
      `import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

declare module '../../common/ids/entity-id' {
  interface EntityPrefixes {
    /** \`${prefix}_<32 hex>\` on the wire. */
    ${prefix}: true;
  }
}

/** One row of \`${table}\`, the ${words} module's own table (its migration creates it). */
@Entity({ name: '${table}' })
@Index('${ownerIndex}', ['ownerDid', 'id'])
export class ${entityPascal} {
  /** A UUIDv7 (\`newUuid()\`): time-ordered, so listings page by it. */
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  /** Who it belongs to. */
  @Column({ name: 'owner_did', type: 'varchar', length: 64 })
  ownerDid: string;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;
}
`,
    ],
    [
      `${m}/dto/${entity}.dto.ts`,
      `import { ApiProperty } from '@nestjs/swagger';
import { PageEnvelope } from '../../common/pagination/page-envelope.dto';

export class ${entityPascal}Record {
  @ApiProperty({ example: '${prefix}_0196f0a2c4d87e3f9b1a5c6d7e8f9012' })
  id: string;

  @ApiProperty({ example: '2026-03-01T12:00:00.000Z' })
  createdAt: string;
}

export class ${entityPascal}Listing extends PageEnvelope {
  @ApiProperty({ type: [${entityPascal}Record] })
  items: ${entityPascal}Record[];
}
`,
    ],
    [
      `${m}/services/${name}.service.ts`,
      `import { Injectable } from '@nestjs/common';
import { CursorCodec } from '../../common/pagination/cursor-codec';
import { closeKeysetPage, KeysetColumn, openKeysetPage } from '../../common/pagination/keyset';
import { PaginationQueryDto } from '../../common/pagination/pagination-query.dto';
import { ${entityPascal}Listing } from '../dto/${entity}.dto';
import { ${entityPascal} } from '../entities/${entity}.entity';
import { ${pascal}Repository } from '../${name}.repository';
import { present${entityPascal} } from './${name}.presenter';

/** Newest first: ids are UUIDv7. */
const ORDER: KeysetColumn[] = [{ expression: 'id', direction: 'DESC' }];

/** The ${words} module's use cases. */
@Injectable()
export class ${pascal}Service {
  constructor(
    private readonly repository: ${pascal}Repository,
    private readonly cursors: CursorCodec,
  ) {}

  /** A page of the caller's ${words}. */
  async list(ownerDid: string, query: PaginationQueryDto): Promise<${entityPascal}Listing> {
    const keyset = {
      listing: '${name}',
      columns: ORDER,
      keyOf: (row: ${entityPascal}) => [row.id],
      page: query,
      cursors: this.cursors,
    };
    const seek = openKeysetPage(keyset);
    const page = closeKeysetPage(seek, await this.repository.pageOfOwner(ownerDid, seek), keyset);
    return {
      items: page.rows.map(present${entityPascal}),
      nextCursor: page.nextCursor,
      previousCursor: page.previousCursor,
    };
  }
}
`,
    ],
    [
      `${m}/services/${name}.presenter.ts`,
      `import { formatEntityId } from '../../common/ids/entity-id';
import { ${entityPascal}Record } from '../dto/${entity}.dto';
import { ${entityPascal} } from '../entities/${entity}.entity';

/** A row as clients see it: the wire id, ISO timestamps. */
export function present${entityPascal}(row: ${entityPascal}): ${entityPascal}Record {
  return { id: formatEntityId('${prefix}', row.id), createdAt: row.createdAt.toISOString() };
}
`,
    ],
    [
      `${m}/controllers/${name}.controller.ts`,
      `import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdentityProof } from '../../common/auth/access.decorators';
import { Principal } from '../../common/auth/principal.decorator';
import type { RequestPrincipal } from '../../common/auth/request-authenticator';
import { PaginationQueryDto } from '../../common/pagination/pagination-query.dto';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';
import { ${entityPascal}Listing } from '../dto/${entity}.dto';
import { ${pascal}Service } from '../services/${name}.service';

/**
 * The ${words} resource. Each route declares, where it is written, its path (the full prefix is
 * the controller's), its rate-limit class (read, action, create, sensitive: by cost), its access
 * class (@Anonymous, @OptionalAuth, @Gated, @IdentityProof) and its OpenAPI description.
 */
@ApiTags('${name}')
@Controller('v1/${name}')
export class ${pascal}Controller {
  constructor(private readonly service: ${pascal}Service) {}

  @Get()
  @RateLimitClass('read')
  @IdentityProof()
  @ApiOperation({ summary: 'The caller’s ${words}, newest first' })
  @ApiOkResponse({ type: ${entityPascal}Listing })
  list${pascal}(
    @Principal() principal: RequestPrincipal,
    @Query() query: PaginationQueryDto,
  ): Promise<${entityPascal}Listing> {
    return this.service.list(principal.did, query);
  }
}
`,
    ],
    [
      `${m}/events/README.md`,
      `# Events of the \`${name}\` module

Domain events this module emits go in \`${name}.events.ts\` (one class per event, emitted with
\`DomainEvents.emit(manager, new SomethingHappened(...))\` inside the write's transaction; export
the classes others subscribe to from \`../index.ts\`). Handlers of its own or other modules' events,
and its job kinds, go in \`${name}.subscriber.ts\`. See docs/architecture.md "Domain events".
`,
    ],
    [
      `db/migrations/${timestamp}-${pascal}.ts`,
      `import { MigrationInterface, QueryRunner } from 'typeorm';

/** \`${table}\`: the ${words} module's table (src/${name}/entities/${entity}.entity.ts). */
export class ${migration} implements MigrationInterface {
  name = '${migration}';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "${table}" ("id" uuid NOT NULL, "owner_did" character varying(64) NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "${primaryKey}" PRIMARY KEY ("id"))',
    );
    await queryRunner.query('CREATE INDEX "${ownerIndex}" ON "${table}" ("owner_did", "id") ');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "public"."${ownerIndex}"');
    await queryRunner.query('DROP TABLE "${table}"');
  }
}
`,
    ],
    [
      `test/e2e/${name}/${name}.e2e-spec.ts`,
      `import request from 'supertest';
import { DataSource } from 'typeorm';
import { formatEntityId, newUuid } from '../../../src/common/ids/entity-id';
import { schemaDrift } from '../../../src/infrastructure/database/schema-drift';
import { ${pascal}Repository } from '../../../src/${name}/${name}.repository';
import { Actor } from '../../support/actors';
import { bootApp, TestApp } from '../../support/app';

/** The ${words} module in the real AppModule on a fresh database. */
describe('${words} (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await bootApp();
  });

  afterAll(async () => {
    await t.close();
  });

  it('GET /v1/${name} needs an identity proof', async () => {
    const response = await request(t.http).get('/v1/${name}');
    expect(response.status).toBe(401);
  });

  it('GET /v1/${name} pages through the caller’s ${words}, newest first, and only theirs', async () => {
    const [owner, other] = await Promise.all([Actor.create(t), Actor.create(t)]);
    const repository = t.app.get(${pascal}Repository);
    const ids: string[] = [];
    for (const ownerDid of [owner.did, other.did, owner.did, owner.did]) {
      const id = newUuid();
      await repository.insert({ id, ownerDid, createdAt: new Date() });
      if (ownerDid === owner.did) ids.unshift(formatEntityId('${prefix}', id));
    }
    const first = await owner.send('GET', '/v1/${name}?limit=2');
    expect(first.status).toBe(200);
    expect(first.body.items.map((item: { id: string }) => item.id)).toEqual(ids.slice(0, 2));
    const second = await owner.send('GET', \`/v1/${name}?limit=2&after=\${first.body.nextCursor}\`);
    expect(second.status).toBe(200);
    expect(second.body.items.map((item: { id: string }) => item.id)).toEqual(ids.slice(2));
    expect(second.body.nextCursor).toBeNull();
  });

  it('has a migration that creates exactly what its entity declares', async () => {
    expect((await schemaDrift(t.app.get(DataSource))).up).toEqual([]);
  });
});
`,
    ],
  ]);
}

/** src/app.module.ts with the module imported and added last to AppModule's imports. */
export function registered(appModule: string, names: ModuleNames): string {
  const imports = [...appModule.matchAll(/^import .*;$/gm)];
  const last = imports[imports.length - 1];
  if (!last || last.index === undefined) throw new Error('src/app.module.ts: no import to follow');
  const at = last.index + last[0].length;
  const withImport = `${appModule.slice(0, at)}\nimport { ${names.pascal}Module } from './${names.name}/${names.name}.module';${appModule.slice(at)}`;
  const list = /(\n(\s*)imports: \[\n[\s\S]*?)(\n\s*\],)/.exec(withImport);
  if (!list) throw new Error('src/app.module.ts: no `imports: [` list in forRoot');
  const entry = `${list[2]}  ${names.pascal}Module,`;
  return withImport.replace(list[0], `${list[1]}\n${entry}${list[3]}`);
}

async function write(root: string, path: string, text: string): Promise<void> {
  const full = join(root, path);
  mkdirSync(dirname(full), { recursive: true });
  const options = await resolveConfig(full);
  writeFileSync(full, await format(text, { ...options, filepath: full }));
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const entityFlag = args.indexOf('--entity');
  const entity = entityFlag >= 0 ? args[entityFlag + 1] : undefined;
  const name = args.find((arg, index) => !arg.startsWith('--') && args[index - 1] !== '--entity');
  if (!name) throw new Error('usage: npm run new:module -- <kebab-name> [--entity <kebab-singular>]');
  const root = process.cwd();
  const names = moduleNames(name, entity);
  const refused = refusal(root, names);
  if (refused) throw new Error(`refused: ${refused}`);
  const written = skeleton(names, migrationTimestamp(root));
  for (const [path, text] of written) await write(root, path, text);
  const appModule = join(root, 'src', 'app.module.ts');
  await write(root, 'src/app.module.ts', registered(readFileSync(appModule, 'utf8'), names));
  process.stdout.write(
    [
      `new:module: wrote ${[...written.keys()].join(', ')}; registered ${names.pascal}Module in src/app.module.ts.`,
      'Next (docs/adding-a-module.md):',
      `  npx jest test/e2e/${name}`,
      '  npm run build && npm run queries:write && npm run openapi:write   # docs/queries, docs/openapi.json',
      '  npm run lint && npm run typecheck',
      '',
    ].join('\n'),
  );
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`new:module: ${(error as Error)?.message ?? String(error)}\n`);
    process.exit(1);
  });
}
