import { ArgumentMetadata } from '@nestjs/common';
import { AppConfig } from '../../../src/config/app-config';
import { ApiError } from '../../../src/common/errors/api-error';
import { formatEntityId, newUuid, parseEntityId } from '../../../src/common/ids/entity-id';
import { CursorCodec } from '../../../src/common/pagination/cursor-codec';
import { PaginationQueryDto } from '../../../src/common/pagination/pagination-query.dto';
import { wordedSummary } from '../../../src/common/summaries/worded-summary';
import { createValidationPipe } from '../../../src/common/validation.pipe';

describe('entity ids', () => {
  it('round-trips a generated id through its wire form', () => {
    const uuid = newUuid();
    const wire = formatEntityId('space', uuid);
    expect(wire).toMatch(/^space_[0-9a-f]{32}$/);
    expect(parseEntityId('space', wire)).toBe(uuid);
  });

  it.each([
    ['another type', 'post_0190f1a2b3c4d5e6f708192a3b4c5d6e'],
    ['a longer prefix', 'space_invite_0190f1a2b3c4d5e6f708192a3b4c5d6e'],
    ['upper case', 'space_0190F1A2B3C4D5E6F708192A3B4C5D6E'],
    ['too short', 'space_0190f1a2'],
    ['no prefix', '0190f1a2b3c4d5e6f708192a3b4c5d6e'],
    ['sql', "space_' OR 1=1 --"],
    ['not a string', 42],
  ])('refuses %s (the caller answers 404)', (_case, raw) => {
    expect(parseEntityId('space', raw)).toBeNull();
  });

  it('generates time-ordered ids', () => {
    const first = newUuid();
    const second = newUuid();
    expect(second > first).toBe(true);
  });
});

describe('worded summaries (design.md §8)', () => {
  it.each([
    [0, 'no members'],
    [1, 'a handful of members'],
    [9, 'a handful of members'],
    [10, 'dozens of members'],
    [99, 'dozens of members'],
    [100, 'hundreds of members'],
    [999, 'hundreds of members'],
    [1000, 'thousands of members'],
    [999_999, 'thousands of members'],
    [1_000_000, 'millions of members'],
  ])('%i → %s', (count, expected) => {
    expect(wordedSummary(count, 'members')).toBe(expected);
  });

  it('keeps the noun as given', () => {
    expect(wordedSummary(0, 'private posts')).toBe('no private posts');
  });
});

describe('cursor codec (design.md §7)', () => {
  const codec = new CursorCodec(Object.assign(new AppConfig(), { CURSOR_SECRET: 'x'.repeat(32) }));

  it('round-trips keyset values', () => {
    const cursor = codec.encode('spaces', ['2026-01-01T00:00:00.000Z', 'abc', 3]);
    expect(codec.decode('spaces', cursor)).toEqual(['2026-01-01T00:00:00.000Z', 'abc', 3]);
  });

  it('is opaque (no plain values visible)', () => {
    expect(codec.encode('spaces', ['secret-position'])).not.toContain('secret-position');
  });

  const expect400 = (fn: () => unknown) => {
    try {
      fn();
    } catch (error) {
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).getStatus()).toBe(400);
      expect((error as ApiError).body).toEqual({
        code: 'E_INVALID_REQUEST',
        message: 'Invalid cursor',
        details: [{ path: 'after', message: 'after is not a cursor of this listing' }],
      });
      return;
    }
    throw new Error('expected a 400');
  };

  it('refuses a tampered payload', () => {
    const [, mac] = codec.encode('spaces', [1]).split('.');
    const forged = `${Buffer.from('[2]').toString('base64url')}.${mac}`;
    expect400(() => codec.decode('spaces', forged));
  });

  it('refuses a cursor of another listing', () => {
    expect400(() => codec.decode('topics', codec.encode('spaces', [1])));
  });

  it('refuses a cursor signed under another secret', () => {
    const other = new CursorCodec(Object.assign(new AppConfig(), { CURSOR_SECRET: 'y'.repeat(32) }));
    expect400(() => codec.decode('spaces', other.encode('spaces', [1])));
  });

  it.each(['', 'garbage', 'a.b.c', '.', 'e30.'])('refuses %j', (cursor) => {
    expect400(() => codec.decode('spaces', cursor));
  });
});

describe('pagination input', () => {
  const pipe = createValidationPipe(new AppConfig());
  const metadata: ArgumentMetadata = { type: 'query', metatype: PaginationQueryDto };

  it('defaults limit to 20', async () => {
    await expect(pipe.transform({}, metadata)).resolves.toMatchObject({ limit: 20 });
  });

  it.each(['1', '100'])('accepts limit=%s', async (limit) => {
    await expect(pipe.transform({ limit }, metadata)).resolves.toMatchObject({ limit: Number(limit) });
  });

  it.each(['0', '101', '1.5', 'abc', '-1', '', '1e1', '0x10', '+5', ' 10', ['1', '2']])(
    'refuses limit=%j with a 400 and details',
    async (limit) => {
      const error = await pipe.transform({ limit }, metadata).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).getStatus()).toBe(400);
      expect((error as ApiError).body).toMatchObject({
        code: 'E_INVALID_REQUEST',
        details: [{ path: 'limit', message: 'limit must be an integer from 1 to 100' }],
      });
    },
  );

  it.each([{ after: '' }, { before: '' }, { after: ['a', 'b'] }])(
    'refuses the cursor in %j',
    async (query) => {
      const error = (await pipe.transform(query, metadata).catch((e: unknown) => e)) as ApiError;
      const name = Object.keys(query)[0];
      expect(error.body).toEqual({
        code: 'E_INVALID_REQUEST',
        message: 'Invalid request',
        details: [{ path: name, message: `${name} must be one cursor string` }],
      });
    },
  );

  it('refuses unknown query members', async () => {
    const error = (await pipe.transform({ offset: '10' }, metadata).catch((e: unknown) => e)) as ApiError;
    expect(error.body).toMatchObject({ details: [{ path: 'offset' }] });
  });
});
