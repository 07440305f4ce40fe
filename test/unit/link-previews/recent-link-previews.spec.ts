import { EMPTY_LINK_PREVIEW, LinkPreviewView } from '../../../src/link-previews/domain/link-preview-view';
import { RecentLinkPreviews } from '../../../src/link-previews/domain/recent-link-previews';

const view = (title: string): LinkPreviewView => ({ ...EMPTY_LINK_PREVIEW, title });
const KEY = 'https://a.example/';

describe('RecentLinkPreviews (docs/decisions/0158-recent-link-previews-in-memory.md)', () => {
  it('serves a kept view for keepMs, then no more', () => {
    const recent = new RecentLinkPreviews(60_000);
    recent.keep(KEY, view('A'), 10_000_000, 1_000);
    expect(recent.get(KEY, 1_000)).toEqual(view('A'));
    expect(recent.get(KEY, 60_999)).toEqual(view('A'));
    expect(recent.get(KEY, 61_000)).toBeUndefined();
    expect(recent.get(KEY, 1_000)).toBeUndefined();
  });

  it("never serves past the record's expiry, and keeps nothing already expired", () => {
    const recent = new RecentLinkPreviews(60_000);
    recent.keep(KEY, view('A'), 5_000, 1_000);
    expect(recent.get(KEY, 4_999)).toEqual(view('A'));
    expect(recent.get(KEY, 5_000)).toBeUndefined();
    recent.keep(KEY, view('B'), 5_000, 5_000);
    expect(recent.get(KEY, 5_000)).toBeUndefined();
  });

  it('forgets a URL at once, and keeps nothing when keepMs is 0', () => {
    const recent = new RecentLinkPreviews(60_000);
    recent.keep(KEY, view('A'), 10_000_000, 0);
    recent.forget(KEY);
    expect(recent.get(KEY, 0)).toBeUndefined();
    const off = new RecentLinkPreviews(0);
    off.keep(KEY, view('A'), 10_000_000, 0);
    expect(off.get(KEY, 0)).toBeUndefined();
  });

  it('holds at most its capacity, dropping the oldest first', () => {
    const recent = new RecentLinkPreviews(60_000, 2);
    recent.keep('https://1.example/', view('1'), 1e9, 0);
    recent.keep('https://2.example/', view('2'), 1e9, 0);
    recent.keep('https://3.example/', view('3'), 1e9, 0);
    expect(recent.get('https://1.example/', 0)).toBeUndefined();
    expect(recent.get('https://2.example/', 0)).toEqual(view('2'));
    expect(recent.get('https://3.example/', 0)).toEqual(view('3'));
  });

  it('remembers the normalized key of a URL as written', () => {
    const recent = new RecentLinkPreviews(60_000);
    expect(recent.keyOf('https://Cards.Example:443/b#frag')).toBe('https://cards.example/b');
    expect(recent.keyOf('ftp://x.example/')).toBeNull();
    expect(recent.keyOf('ftp://x.example/')).toBeNull();
  });
});
