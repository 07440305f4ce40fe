/** A content chain of public content, signed by the service's origin identity (design.md §1). */
export interface PublishedContent {
  contentId: string;
  headCid: string;
}

/**
 * Publishes public projections as content chains through the embedded relay. Modules call it when
 * content becomes or stays public, and retract it when the content stops being public.
 */
export abstract class ContentPublisher {
  /** Creates the chain (previous null) or appends an update with the new document. */
  abstract publish(
    previous: PublishedContent | null,
    document: Record<string, unknown>,
  ): Promise<PublishedContent>;
  /** Appends a delete: the chain no longer serves a current document. */
  abstract retract(previous: PublishedContent): Promise<void>;
}

export const PROFILE_SCHEMA = 'https://schemas.dfos.com/profile/v1';
