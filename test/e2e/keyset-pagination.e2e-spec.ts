import { Controller, Get, Query } from '@nestjs/common';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { Anonymous } from '../../src/common/auth/access.decorators';
import { RateLimitClass } from '../../src/infrastructure/rate-limit/rate-limit-class';
import { Page } from '../../src/common/pagination/page';
import { CursorCodec } from '../../src/common/pagination/cursor-codec';
import { KeysetColumn, paginateKeyset } from '../../src/common/pagination/keyset';
import { PaginationQueryDto } from '../../src/common/pagination/pagination-query.dto';
import { bootApp, TestApp } from '../support/app';

interface Row {
  id: number;
  score: number;
  name: string;
}

/** A test-only listing over `keyset_probe`, so the whole HTTP pipeline (pipe, filter) is exercised. */
@Controller('test-probe')
@Anonymous()
@RateLimitClass('read')
class ProbeListingController {
  constructor(
    private readonly dataSource: DataSource,
    private readonly cursors: CursorCodec,
  ) {}

  @Get(['a', 'b'])
  async list(@Query() query: PaginationQueryDto): Promise<Page<Row>> {
    return this.page('probe-a', query);
  }

  @Get('other')
  async other(@Query() query: PaginationQueryDto): Promise<Page<Row>> {
    return this.page('probe-other', query);
  }

  private async page(listing: string, query: PaginationQueryDto): Promise<Page<Row>> {
    const result = await paginateKeyset(
      this.dataSource.createQueryBuilder().select('p.id', 'id').from('keyset_probe', 'p'),
      {
        listing,
        columns: [{ expression: 'p.id', direction: 'ASC' }],
        keyOf: (row: Row) => [row.id],
        page: query,
        cursors: this.cursors,
      },
      (q) => q.getRawMany<Row>(),
    );
    return { items: result.rows, nextCursor: result.nextCursor, previousCursor: result.previousCursor };
  }
}

describe('keyset pagination on PostgreSQL (e2e)', () => {
  let t: TestApp;
  let dataSource: DataSource;
  let cursors: CursorCodec;
  const ROWS = 53;

  beforeAll(async () => {
    t = await bootApp({ controllers: [ProbeListingController] });
    dataSource = t.app.get(DataSource);
    cursors = t.app.get(CursorCodec);
    await dataSource.query(
      'CREATE TABLE keyset_probe (id int PRIMARY KEY, score int NOT NULL, name text NOT NULL)',
    );
    // Many equal scores, so the id tiebreak matters.
    const values = Array.from({ length: ROWS }, (_, i) => `(${i + 1}, ${i % 7}, 'n${(i * 37) % ROWS}')`);
    await dataSource.query(`INSERT INTO keyset_probe VALUES ${values.join(', ')}`);
  });

  afterAll(async () => {
    await t.close();
  });

  const page = (limit: number, cursor: { after?: string; before?: string } = {}) =>
    Object.assign(new PaginationQueryDto(), { limit, ...cursor });

  const walk = async (columns: KeysetColumn[], limit: number) => {
    const seen: Row[] = [];
    const cursorsSeen: string[] = [];
    let after: string | undefined;
    for (let guard = 0; guard < 100; guard += 1) {
      const result = await paginateKeyset(
        dataSource.createQueryBuilder().select('*').from('keyset_probe', 'p'),
        {
          listing: 'probe',
          columns,
          keyOf: (row: Row) => columns.map((column) => row[column.expression.slice(2) as keyof Row]),
          page: page(limit, { after }),
          cursors,
        },
        (query) => query.getRawMany<Row>(),
      );
      seen.push(...result.rows);
      if (!result.nextCursor) return { seen, cursorsSeen };
      cursorsSeen.push(result.nextCursor);
      after = result.nextCursor;
    }
    throw new Error('did not terminate');
  };

  it('walks a uniform order to the end without gaps or repeats', async () => {
    const columns: KeysetColumn[] = [
      { expression: 'p.score', direction: 'DESC' },
      { expression: 'p.id', direction: 'DESC' },
    ];
    const { seen } = await walk(columns, 10);
    const expected = await dataSource.query('SELECT * FROM keyset_probe ORDER BY score DESC, id DESC');
    expect(seen).toEqual(expected);
  });

  it('walks a mixed order (score ascending, name descending, id ascending)', async () => {
    const columns: KeysetColumn[] = [
      { expression: 'p.score', direction: 'ASC' },
      { expression: 'p.name', direction: 'DESC' },
      { expression: 'p.id', direction: 'ASC' },
    ];
    const { seen } = await walk(columns, 7);
    const expected = await dataSource.query(
      'SELECT * FROM keyset_probe ORDER BY score ASC, name DESC, id ASC',
    );
    expect(seen).toEqual(expected);
  });

  it('pages backward from a cursor to the same rows as forward', async () => {
    const columns: KeysetColumn[] = [{ expression: 'p.id', direction: 'ASC' }];
    const options = (cursor: { after?: string; before?: string }) => ({
      listing: 'probe',
      columns,
      keyOf: (row: Row) => [row.id],
      page: page(5, cursor),
      cursors,
    });
    const query = () => dataSource.createQueryBuilder().select('*').from('keyset_probe', 'p');
    const raw = (q: ReturnType<typeof query>) => q.getRawMany<Row>();
    const first = await paginateKeyset(query(), options({}), raw);
    const second = await paginateKeyset(query(), options({ after: first.nextCursor! }), raw);
    expect(second.rows.map((row) => row.id)).toEqual([6, 7, 8, 9, 10]);
    expect(first.previousCursor).toBeNull();
    const back = await paginateKeyset(query(), options({ before: second.previousCursor! }), raw);
    expect(back.rows.map((row) => row.id)).toEqual([1, 2, 3, 4, 5]);
    expect(back.previousCursor).toBeNull();
  });

  describe('over HTTP (api-spec.md "Pagination input", "Page envelope"; design.md §7)', () => {
    const get = (path: string) => request(t.http).get(path);
    const ids = (body: { items: { id: number }[] }) => body.items.map((item) => item.id);

    it('defaults limit to 20 and answers the page envelope', async () => {
      const response = await get('/test-probe/a');
      expect(response.status).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(Object.keys(response.body).sort()).toEqual(['items', 'nextCursor', 'previousCursor']);
      expect(ids(response.body)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      expect(typeof response.body.nextCursor).toBe('string');
      expect(response.body.previousCursor).toBeNull();
    });

    it('walks forward to a last page whose nextCursor is null, then back', async () => {
      const seen: number[] = [];
      let response = await get('/test-probe/a?limit=20');
      seen.push(...ids(response.body));
      while (response.body.nextCursor) {
        response = await get(`/test-probe/a?limit=20&after=${encodeURIComponent(response.body.nextCursor)}`);
        expect(response.status).toBe(200);
        seen.push(...ids(response.body));
      }
      expect(seen).toEqual(Array.from({ length: ROWS }, (_, i) => i + 1));
      expect(response.body.nextCursor).toBeNull();
      expect(ids(response.body)).toEqual([41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53]);
      const back = await get(
        `/test-probe/a?limit=20&before=${encodeURIComponent(response.body.previousCursor)}`,
      );
      expect(ids(back.body)).toEqual(Array.from({ length: 20 }, (_, i) => i + 21));
      expect(typeof back.body.previousCursor).toBe('string');
      expect(typeof back.body.nextCursor).toBe('string');
    });

    it('serves 100 rows at limit=100 and one at limit=1', async () => {
      expect(ids((await get('/test-probe/a?limit=100')).body)).toHaveLength(ROWS);
      const one = await get('/test-probe/a?limit=1');
      expect(ids(one.body)).toEqual([1]);
    });

    it('refuses a cursor of another listing, a tampered one and both directions with 400', async () => {
      const first = await get('/test-probe/a?limit=5');
      const cursor: string = first.body.nextCursor;
      const foreign = await get(`/test-probe/other?after=${encodeURIComponent(cursor)}`);
      expect(foreign.status).toBe(400);
      expect(foreign.body).toEqual({
        code: 'E_INVALID_REQUEST',
        message: 'Invalid cursor',
        details: [{ path: 'after', message: 'after is not a cursor of this listing' }],
      });
      expect(foreign.headers['cache-control']).toBe('no-store');
      const [payload, mac] = cursor.split('.');
      const forged = `${Buffer.from('[40]').toString('base64url')}.${mac}`;
      expect(payload).not.toBe(Buffer.from('[40]').toString('base64url'));
      expect((await get(`/test-probe/a?after=${forged}`)).body).toEqual({
        code: 'E_INVALID_REQUEST',
        message: 'Invalid cursor',
        details: [{ path: 'after', message: 'after is not a cursor of this listing' }],
      });
      const both = await get(
        `/test-probe/a?after=${encodeURIComponent(cursor)}&before=${encodeURIComponent(cursor)}`,
      );
      expect(both.status).toBe(400);
      expect(both.body.code).toBe('E_INVALID_REQUEST');
    });

    it.each(['0', '101', 'x'])('refuses limit=%s with 400', async (limit) => {
      const response = await get(`/test-probe/a?limit=${limit}`);
      expect(response.status).toBe(400);
      expect(response.body.details).toEqual([
        { path: 'limit', message: 'limit must be an integer from 1 to 100' },
      ]);
    });
  });
});
