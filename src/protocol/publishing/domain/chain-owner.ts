import type { PublishedContent } from './content-publisher';

/** A chain position as its owner stores it: the chain, its head, and the CID of the head's document. */
export interface StoredHead extends PublishedContent {
  documentCid: string;
}

/** What the owner holds now for one piece of content. */
export interface ChainState {
  /** The stored head; null while the owner holds no chain. */
  head: PublishedContent | null;
  /** The CID of the document at the stored head, when known. */
  headDocumentCid: string | null;
  /** The public projection now; null when the content is not public. */
  document: Record<string, unknown> | null;
}

/**
 * The module that owns a kind of public content (its rows, its projection, its table) as seen by
 * ContentChainSyncService: the owner reads and writes its own table, the sync drives the chain.
 */
export interface ChainOwner {
  /** Names the chain of one piece of content, e.g. `the content chain of post <id>`. */
  chainName(id: string): string;
  /** The content's state, or null when the content no longer exists. */
  state(id: string): Promise<ChainState | null>;
  /**
   * Stores `next` (null: no chain) only if the stored head is still `expected` (compare-and-set);
   * true when it was stored.
   */
  storeHead(id: string, expected: PublishedContent | null, next: StoredHead | null): Promise<boolean>;
}
