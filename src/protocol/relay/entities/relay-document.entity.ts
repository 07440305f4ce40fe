import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * Public documents the relay serves as content blobs, held per content chain: a row belongs to the
 * chain whose operation brought it (docs/decisions/0120-relay-documents-per-chain.md). Only the origin's
 * own public content brings documents, and a chain holds at most its head document: superseded and
 * retracted documents are deleted with the operation that moves the head.
 *
 * `doc_schema` and `display_name` are the index projections (WEB-RELAY.md "Well-Known
 * Projections"), kept as columns so the index filters use indexes
 * (docs/decisions/0121-relay-index-filters.md).
 */
@Entity({ name: 'relay_documents' })
// The trigram index behind nameContains/titleContains; TypeORM cannot express operator classes.
@Index('idx_relay_documents_display_name_trgm', { synchronize: false })
export class RelayDocument {
  @PrimaryColumn({ name: 'content_id', type: 'varchar', length: 64, collation: 'C' })
  contentId: string;

  @PrimaryColumn({ name: 'document_cid', type: 'varchar', length: 64, collation: 'C' })
  documentCid: string;

  @Column({ type: 'jsonb' })
  document: Record<string, unknown>;

  /** The document's `$schema` when it is a string. */
  @Index('idx_relay_documents_schema')
  @Column({ name: 'doc_schema', type: 'text', nullable: true })
  docSchema: string | null;

  /** The display-name registry's field for that schema (profile name, post title), non-empty. */
  @Column({ name: 'display_name', type: 'text', nullable: true })
  displayName: string | null;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 3, default: () => 'now()' })
  createdAt: Date;
}
