import { ApiError } from '../../../src/common/errors/api-error';
import { CursorCodec } from '../../../src/common/pagination/cursor-codec';
import { loadConfig } from '../../../src/config/app-config';

/** Cursors hide what the API hides (docs/decisions/0016-request-ids-and-cursors.md): encrypted, authenticated, bound to a listing. */
describe('cursor secrecy', () => {
  const codec = new CursorCodec(
    loadConfig({ NODE_ENV: 'test', CURSOR_SECRET: 'test-cursor-secret-test-cursor-secret' }),
  );
  const lastActivity = '2026-11-24T17:03:12.345Z';
  const position = [lastActivity, '0190f1a2-b3c4-7d5e-8f70-8192a3b4c5d6'];

  it('round-trips the position', () => {
    expect(codec.decode('spaces', codec.encode('spaces', position))).toEqual(position);
  });

  it('reveals nothing of the position, and differs every time', () => {
    const cursor = codec.encode('spaces', position);
    const bytes = Buffer.from(cursor, 'base64url').toString('latin1');
    expect(bytes).not.toContain('2026');
    expect(bytes).not.toContain('0190f1a2');
    expect(codec.encode('spaces', position)).not.toBe(cursor);
  });

  it('refuses a changed byte, another listing, another secret and a truncated cursor', () => {
    const cursor = codec.encode('spaces', position);
    const bytes = Buffer.from(cursor, 'base64url');
    bytes[20] ^= 1;
    const other = new CursorCodec(
      loadConfig({ NODE_ENV: 'test', CURSOR_SECRET: 'another-cursor-secret-another-secret' }),
    );
    for (const attempt of [
      () => codec.decode('spaces', bytes.toString('base64url')),
      () => codec.decode('user-spaces:x', cursor),
      () => other.decode('spaces', cursor),
      () => codec.decode('spaces', cursor.slice(0, 30)),
      () => codec.decode('spaces', `${cursor}.x`),
    ]) {
      expect(attempt).toThrow(ApiError);
    }
  });
});
