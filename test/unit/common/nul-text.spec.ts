import { ArgumentMetadata } from '@nestjs/common';
import { IsString } from 'class-validator';
import { ApiError } from '../../../src/common/errors/api-error';
import { createValidationPipe } from '../../../src/common/validation.pipe';
import { AppConfig } from '../../../src/config/app-config';
import { nulTextPath } from '../../../src/common/validation/nul-text';

class NamedBody {
  @IsString()
  name: string;
}

describe('text holding NUL (PostgreSQL text cannot store U+0000)', () => {
  it('names the first member holding a NUL in strings, arrays, objects and keys', () => {
    expect(nulTextPath('a\u0000')).toBe('');
    expect(nulTextPath({ links: [{ url: 'x', label: 'b\u0000' }] })).toBe('links.0.label');
    expect(nulTextPath({ 'k\u0000': 'v' })).toBe('k\u0000');
    expect(nulTextPath({ text: 'plain, \\u0000 spelled out', n: 3, ok: true, none: null })).toBeNull();
    expect(nulTextPath(undefined)).toBeNull();
  });

  it('walks a body nested deeper than the call stack without failing', () => {
    let deep: unknown = 'x\u0000';
    for (let depth = 0; depth < 200_000; depth += 1) deep = [deep];
    expect(nulTextPath(deep)).toMatch(/^0(\.0)*$/);
  });

  it('makes the global pipe answer 400 with a detail at that member, bodies and queries alike', async () => {
    const pipe = createValidationPipe(new AppConfig());
    const refusal = async (value: unknown, metadata: ArgumentMetadata) => {
      try {
        await pipe.transform(value, metadata);
      } catch (error) {
        return { status: (error as ApiError).getStatus(), body: (error as ApiError).body };
      }
      return null;
    };
    expect(await refusal({ name: 'Cr\u0000ew' }, { type: 'body', metatype: NamedBody })).toEqual({
      status: 400,
      body: {
        code: 'E_INVALID_REQUEST',
        message: 'Invalid request',
        details: [{ path: 'name', message: 'name must not contain NUL (U+0000) characters' }],
      },
    });
    expect(await refusal('a\u0000', { type: 'query', data: 'category', metatype: String })).toMatchObject({
      status: 400,
      body: { details: [{ path: 'category' }] },
    });
    expect(await refusal({ name: 'Crew' }, { type: 'body', metatype: NamedBody })).toBeNull();
  });
});
