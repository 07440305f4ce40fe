/** What a card shows of one URL; every field null while unresolved or when the page had none. */
export interface LinkPreviewView {
  title: string | null;
  description: string | null;
  siteName: string | null;
  /** Our permanent public CDN URL (`/cdn/<id>/<name>`), never the remote one. */
  imageUrl: string | null;
  /** Idem. */
  faviconUrl: string | null;
}

/** The view of a URL nothing is known of yet. */
export const EMPTY_LINK_PREVIEW: Readonly<LinkPreviewView> = Object.freeze({
  title: null,
  description: null,
  siteName: null,
  imageUrl: null,
  faviconUrl: null,
});
