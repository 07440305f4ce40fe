import { LinkPreviewView } from './link-preview-view';
import { normalizeLinkUrl } from './normalize-link-url';

/** Entries kept at most; past it the oldest goes first. */
export const RECENT_LINK_PREVIEWS_KEPT = 10_000;

interface RecentView {
  view: LinkPreviewView;
  /** Clock ms after which the entry is not served. */
  until: number;
}

/**
 * The views of link previews a process read lately, so the cards of a hot post are served without
 * a round trip (docs/decisions/0158-recent-link-previews-in-memory.md). An entry is served for
 * `keepMs` at most and never past its record's expiry, so an expired record is read again and its
 * refresh queued as before; a resolution recorded by this process drops its entry at once. Pure:
 * the caller gives the time. The bench's twin keeps the same one.
 */
export class RecentLinkPreviews {
  /** URL as written → its normalized key (null: never resolved); normalization is pure. */
  private readonly keys = new Map<string, string | null>();
  private readonly views = new Map<string, RecentView>();

  constructor(
    private readonly keepMs: number,
    private readonly capacity = RECENT_LINK_PREVIEWS_KEPT,
  ) {}

  /** `normalizeLinkUrl(url)`, remembered. */
  keyOf(url: string): string | null {
    let key = this.keys.get(url);
    if (key === undefined) {
      key = normalizeLinkUrl(url);
      bounded(this.keys, this.capacity);
      this.keys.set(url, key);
    }
    return key;
  }

  /** The view kept for a normalized URL, if still to be served at `now`. */
  get(key: string, now: number): LinkPreviewView | undefined {
    const entry = this.views.get(key);
    if (entry === undefined) return undefined;
    if (entry.until > now) return entry.view;
    this.views.delete(key);
    return undefined;
  }

  /** Keeps the view of a record read at `now` that expires at `expiresAt` (clock ms). */
  keep(key: string, view: LinkPreviewView, expiresAt: number, now: number): void {
    if (this.keepMs <= 0 || expiresAt <= now) return;
    this.views.delete(key);
    bounded(this.views, this.capacity);
    this.views.set(key, { view, until: Math.min(now + this.keepMs, expiresAt) });
  }

  /** A new resolution of this normalized URL was recorded: its next read goes to the table. */
  forget(key: string): void {
    this.views.delete(key);
  }
}

/** Makes room for one entry: a Map iterates in insertion order, so the first key is the oldest. */
function bounded<V>(map: Map<string, V>, capacity: number): void {
  if (map.size < capacity) return;
  const oldest = map.keys().next();
  if (!oldest.done) map.delete(oldest.value);
}
