import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * Public documents the relay serves as content blobs, addressed by their CID (dag-cbor, sha-256).
 * Only the origin's own public content brings documents; a chain whose document is not held has
 * no blob.
 */
@Entity({ name: 'relay_documents' })
export class RelayDocument {
  @PrimaryColumn({ name: 'document_cid', type: 'varchar', length: 64, collation: 'C' })
  documentCid: string;

  @Column({ type: 'jsonb' })
  document: Record<string, unknown>;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 3, default: () => 'now()' })
  createdAt: Date;
}
