import { documentCid } from '../../../src/protocol/core';
import type { ChainOwner, ChainState, StoredHead } from '../../../src/protocol/publishing/domain/chain-owner';
import {
  ContentChainSyncService,
  MAX_SYNC_ROUNDS,
} from '../../../src/protocol/publishing/services/content-chain-sync.service';
import {
  ContentPublisher,
  type PublishedContent,
} from '../../../src/protocol/publishing/domain/content-publisher';

/** Records publishes and retracts; each publish answers a new head (a new chain when previous is null). */
class FakePublisher extends ContentPublisher {
  readonly calls: string[] = [];
  private operations = 0;

  publish(previous: PublishedContent | null, document: Record<string, unknown>): Promise<PublishedContent> {
    const headCid = `op-${++this.operations}`;
    this.calls.push(`publish ${previous?.headCid ?? 'genesis'} ${String(document.name)} -> ${headCid}`);
    return Promise.resolve({ contentId: previous?.contentId ?? `chain-${headCid}`, headCid });
  }

  retract(previous: PublishedContent): Promise<void> {
    this.calls.push(`retract ${previous.headCid}`);
    return Promise.resolve();
  }
}

/**
 * Content in memory: one stored head per id, one document for all. `otherWriters` moves the stored
 * head before that many compare-and-sets, as writers on other replicas would.
 */
class FakeOwner implements ChainOwner {
  readonly stored = new Map<string, StoredHead | null>();
  document: Record<string, unknown> | null = { name: 'first' };
  otherWriters = 0;
  readonly events: string[] = [];
  private gate: Promise<void> | null = null;

  chainName(id: string): string {
    return `the chain of ${id}`;
  }

  /** Holds state reads until the returned function is called. */
  hold(): () => void {
    let release!: () => void;
    this.gate = new Promise((resolve) => (release = resolve));
    return () => {
      this.gate = null;
      release();
    };
  }

  async state(id: string): Promise<ChainState | null> {
    this.events.push(`state ${id}`);
    if (this.gate) await this.gate;
    const stored = this.stored.get(id) ?? null;
    return {
      head: stored && { contentId: stored.contentId, headCid: stored.headCid },
      headDocumentCid: stored?.documentCid ?? null,
      document: this.document,
    };
  }

  storeHead(id: string, expected: PublishedContent | null, next: StoredHead | null): Promise<boolean> {
    this.events.push(`store ${id}`);
    if (this.otherWriters > 0) {
      this.otherWriters -= 1;
      this.stored.set(id, {
        contentId: 'chain-other',
        headCid: `other-${this.otherWriters}`,
        documentCid: 'x',
      });
      return Promise.resolve(false);
    }
    if ((this.stored.get(id)?.headCid ?? null) !== (expected?.headCid ?? null)) return Promise.resolve(false);
    this.stored.set(id, next);
    return Promise.resolve(true);
  }
}

describe('ContentChainSyncService', () => {
  let publisher: FakePublisher;
  let owner: FakeOwner;
  let chains: ContentChainSyncService;

  beforeEach(() => {
    publisher = new FakePublisher();
    owner = new FakeOwner();
    chains = new ContentChainSyncService(publisher);
  });

  it('starts a chain, appends a changed document, skips an unchanged one, retracts when not public', async () => {
    await chains.sync(owner, 'a');
    expect(owner.stored.get('a')).toEqual({
      contentId: 'chain-op-1',
      headCid: 'op-1',
      documentCid: documentCid({ name: 'first' }),
    });
    await chains.sync(owner, 'a');
    owner.document = { name: 'second' };
    await chains.sync(owner, 'a');
    owner.document = null;
    await chains.sync(owner, 'a');
    await chains.sync(owner, 'a');
    expect(publisher.calls).toEqual([
      'publish genesis first -> op-1',
      'publish op-1 second -> op-2',
      'retract op-2',
    ]);
    expect(owner.stored.get('a')).toBeNull();
  });

  it('retracts the chain and starts a new one when asked to', async () => {
    await chains.sync(owner, 'a');
    owner.document = { name: 'reformatted' };
    await chains.sync(owner, 'a', { startNewChain: true });
    expect(publisher.calls).toEqual([
      'publish genesis first -> op-1',
      'retract op-1',
      'publish genesis reformatted -> op-2',
    ]);
    expect(owner.stored.get('a')?.contentId).toBe('chain-op-2');
  });

  it('retracts its stray operation after a lost compare-and-set and appends again on the winner’s head', async () => {
    owner.otherWriters = 1;
    await chains.sync(owner, 'a');
    expect(publisher.calls).toEqual([
      'publish genesis first -> op-1',
      'retract op-1',
      'publish other-0 first -> op-2',
    ]);
    expect(owner.stored.get('a')).toEqual({
      contentId: 'chain-other',
      headCid: 'op-2',
      documentCid: documentCid({ name: 'first' }),
    });
  });

  it(`gives up after ${MAX_SYNC_ROUNDS} lost rounds and rejects`, async () => {
    owner.otherWriters = MAX_SYNC_ROUNDS;
    await expect(chains.sync(owner, 'a')).rejects.toThrow('the chain of a kept moving');
    expect(owner.events.filter((event) => event === 'store a')).toHaveLength(MAX_SYNC_ROUNDS);
    // Every stray operation but the last was retracted before the next round.
    expect(publisher.calls.filter((call) => call.startsWith('retract'))).toHaveLength(MAX_SYNC_ROUNDS - 1);
  });

  it('runs the syncs of one chain one at a time, other chains alongside, and goes on after a failure', async () => {
    const release = owner.hold();
    const first = chains.sync(owner, 'a');
    const second = chains.sync(owner, 'a');
    const other = chains.sync(owner, 'b');
    await new Promise((resolve) => setImmediate(resolve));
    expect(owner.events).toEqual(['state a', 'state b']);
    release();
    await Promise.all([first, second, other]);
    expect(owner.events.indexOf('state a', 1)).toBeGreaterThan(owner.events.indexOf('store a'));

    owner.otherWriters = MAX_SYNC_ROUNDS;
    const failing = chains.sync(owner, 'c');
    const after = chains.sync(owner, 'c');
    await expect(failing).rejects.toThrow('kept moving');
    await expect(after).resolves.toBeUndefined();
  });
});
