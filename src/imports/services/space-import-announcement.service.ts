import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../../common/clock/clock';
import { formatEntityId } from '../../common/ids/entity-id';
import { AppConfig } from '../../config/app-config';
import { readSpaceArchive } from '../../exports';
import { JobAttempt } from '../../infrastructure/jobs/job-queue';
import { ImportArchivesService } from '../../media';
import { RelayIngestService, type ExportedContentChain, type ExportedIdentityChain } from '../../protocol';
import { ImportsRepository } from '../imports.repository';

/** The relay's ingest batch bound (WEB-RELAY.md "Operation Ingestion"). */
const BATCH = 100;
const MAX_ENTRIES = 20_000;

interface Batch {
  tokens: string[];
  documents: Record<string, unknown>[];
}

/**
 * The `imports.announce` job (docs/decisions/0236): once an import is done, the archive's source
 * chains, verified before its first write (0235), are ingested into this instance's relay as they
 * are, through its ingest (the path `POST /relay/proof/v1/operations` takes, which verifies each
 * operation again): the identity chains first (the space's, then the other signers'), then the
 * content chains with their current documents. So the relay serves them under their own ids and
 * CIDs. Idempotent: an operation already held is a duplicate. A refused operation is counted in
 * the audit line, not retried; a fault throws, and the job is retried (JobOutbox).
 */
@Injectable()
export class SpaceImportAnnouncementService {
  private readonly logger = new Logger('ImportsAudit');

  constructor(
    private readonly repository: ImportsRepository,
    private readonly ingestion: RelayIngestService,
    private readonly archives: ImportArchivesService,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  async announce(importId: string, attempt: JobAttempt): Promise<void> {
    const pending = await this.repository.announced(importId);
    if (!pending) return;
    const archive = await this.archives.open(pending.archiveKey);
    // No object under the key any more: nothing left to announce.
    if (!archive) return this.repository.releaseArchive(importId);
    const read = await readSpaceArchive(archive, {
      maxEntries: MAX_ENTRIES,
      maxEntryBytes: this.config.IMPORT_MAX_FILE_BYTES,
      maxTotalBytes: 4 * this.config.IMPORT_MAX_FILE_BYTES,
    });
    const counts = { new: 0, duplicate: 0, rejected: 0 };
    let firstRejection: string | null = null;
    if (read.has('chains/identity.json')) {
      const identities = [
        read.get('chains/identity.json') as ExportedIdentityChain,
        ...(read.get('chains/signers.json') as ExportedIdentityChain[]),
      ];
      const content = read.get('chains/content.json') as ExportedContentChain[];
      for (const batch of [...batchesOf(identities, () => null), ...batchesOf(content, (c) => c.document)]) {
        const results = await this.ingestion.ingest(batch.tokens, { documents: batch.documents });
        for (const result of results) {
          counts[result.status] += 1;
          if (result.status === 'rejected') firstRejection ??= `${result.cid}: ${result.error ?? ''}`;
        }
      }
    }
    await this.repository.releaseArchive(importId);
    await this.archives.remove(pending.archiveKey);
    this.logger.log(
      {
        audit: 'import.announced',
        import: formatEntityId('import', importId),
        owner: pending.ownerDid,
        at: this.clock.now().toISOString(),
        attempt: attempt.attempt,
        operations: counts,
        ...(firstRejection ? { firstRejection } : {}),
      },
      'space import announced',
    );
  }
}

/** The chains' operations in order, a relay batch at a time, each with the documents of its chains. */
function batchesOf<T extends { operations: { jwsToken: string }[] }>(
  chains: readonly T[],
  documentOf: (chain: T) => Record<string, unknown> | null,
): Batch[] {
  const batches: Batch[] = [];
  let current: Batch = { tokens: [], documents: [] };
  for (const chain of chains) {
    const document = documentOf(chain);
    let documented = false;
    for (const operation of chain.operations) {
      if (current.tokens.length === BATCH) {
        batches.push(current);
        current = { tokens: [], documents: [] };
        documented = false;
      }
      current.tokens.push(operation.jwsToken);
      if (document && !documented) {
        current.documents.push(document);
        documented = true;
      }
    }
  }
  if (current.tokens.length > 0) batches.push(current);
  return batches;
}
