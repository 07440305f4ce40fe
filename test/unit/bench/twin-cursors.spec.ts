import { TwinCursors } from '../../../bench/twin/cursors';
import { CursorCodec } from '../../../src/common/pagination/cursor-codec';
import type { AppConfig } from '../../../src/config/app-config';

describe('the bare twin cursors', () => {
  const secret = 'plat-bench-cursor-secret-not-for-production';
  const twin = new TwinCursors(secret);
  const app = new CursorCodec({ CURSOR_SECRET: secret } as AppConfig);
  const keyset = ['2026-01-01T00:00:00.000Z', '0190a0a0-0000-7000-8000-000000000000'];

  it('opens what the app seals and the app opens what the twin seals (one page on both sides)', () => {
    expect(twin.decode('space-posts:DESC', app.encode('space-posts:DESC', keyset))).toEqual(keyset);
    expect(app.decode('space-posts:DESC', twin.encode('space-posts:DESC', keyset))).toEqual(keyset);
  });

  it('refuses another listing, another secret, a flipped byte, a truncated cursor', () => {
    const cursor = twin.encode('feed', keyset);
    expect(twin.decode('public-spaces', cursor)).toBeNull();
    expect(new TwinCursors('another secret').decode('feed', cursor)).toBeNull();
    const bytes = Buffer.from(cursor, 'base64url');
    bytes[14] ^= 1;
    expect(twin.decode('feed', bytes.toString('base64url'))).toBeNull();
    expect(twin.decode('feed', cursor.slice(0, 20))).toBeNull();
    expect(twin.decode('feed', `${cursor}.extra`)).toBeNull();
  });
});
