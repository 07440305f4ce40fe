import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../../../common/clock/clock';
import { AppConfig } from '../../../config/app-config';
import {
  base64urlDecode,
  computeCid,
  createKeySigner,
  didUrl,
  documentCid,
  formatCreatedAt,
  generateKeySigner,
  multikeyEntry,
  nextCreatedAt,
  PLAT_BRAND,
  PLAT_ORIGIN_SERVICE_TYPE,
  signContentOperation,
  signIdentityOperation,
  signJws,
  type ContentOperation,
  type IdentityOperation,
  type IdentityState,
  type KeySigner,
  type ServiceEntry,
} from '../../core';
import {
  ContentPublisher,
  PROFILE_SCHEMA,
  type PublishedContent,
} from '../../publishing/domain/content-publisher';
import { OriginIdentities, type IssuedIdentity } from '../../publishing/domain/origin-identities';
import { RelayChainsRepository } from '../repositories/relay-chains.repository';
import { RelayOperationsRepository } from '../repositories/relay-operations.repository';
import { RelayOriginRepository } from '../repositories/relay-origin.repository';
import { IdentityCacheBusService } from './identity-cache-bus.service';
import { IdentityStateService } from './identity-state.service';
import { RelayIngestService, type IngestResult } from './relay-ingest.service';

/** Serializes origin bootstrap across replicas starting together (any constant, same everywhere). */
const ORIGIN_LOCK_KEY = 7_316_552;
/** Two identical geneses signed in one millisecond are one operation: retry a few ms later. */
export const MAX_GENESIS_ATTEMPTS = 5;

export class OriginIdentityError extends Error {
  override readonly name = 'OriginIdentityError';
}

/**
 * The service's own identity (design.md §1): an identity chain whose genesis is signed by the
 * origin key (ORIGIN_KEY, else a key generated and stored on first start), with the service entries
 * `PlatOrigin` (the API base URL) and `PlatRelay` (the relay URL). It signs the identity chains of
 * spaces and groups and the content chains of public content, and ingests them into the relay.
 */
@Injectable()
export class OriginIdentityService extends OriginIdentities implements ContentPublisher, OnModuleInit {
  private readonly logger = new Logger(OriginIdentityService.name);
  private origin?: { did: string; signer: KeySigner; profile: string };

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly ingestion: RelayIngestService,
    private readonly identities: IdentityStateService,
    private readonly bus: IdentityCacheBusService,
    // Injected; the defaults serve a replica a test constructs by hand with the data source.
    private readonly originKeys: RelayOriginRepository = new RelayOriginRepository(dataSource),
    private readonly chains: RelayChainsRepository = new RelayChainsRepository(dataSource),
    private readonly operations: RelayOperationsRepository = new RelayOperationsRepository(dataSource),
  ) {
    super();
  }

  async onModuleInit(): Promise<void> {
    await this.bootstrap();
  }

  /** The origin identity's DID. */
  get did(): string {
    return this.require().did;
  }

  /** The origin key (a controller, auth and assert key of the origin identity). */
  get signer(): KeySigner {
    return this.require().signer;
  }

  /** The relay profile artifact (WEB-RELAY.md "Relay Profile"), signed by the origin identity. */
  get profileArtifact(): string {
    return this.require().profile;
  }

  /** The origin identity's service entries, as configured. */
  originServices(): ServiceEntry[] {
    return [
      { id: 'origin', type: PLAT_ORIGIN_SERVICE_TYPE, endpoint: this.config.publicBaseUrl },
      { id: 'relay', type: PLAT_BRAND.relayServiceType, endpoint: this.config.relayUrl },
    ];
  }

  // ---------------------------------------------------------------------------------------------
  // identity chains of the service's entities (spaces, groups)

  /**
   * A new identity chain whose genesis is signed by the origin key, which holds every role in it.
   * `services` defaults to a PlatRelay entry naming this relay (the chain's order authority).
   */
  async createIdentityFor(options: { services?: ServiceEntry[] } = {}): Promise<IssuedIdentity> {
    const services = options.services ?? [
      { id: 'relay', type: PLAT_BRAND.relayServiceType, endpoint: this.config.relayUrl },
    ];
    const key = multikeyEntry(this.signer);
    for (let attempt = 0; attempt < MAX_GENESIS_ATTEMPTS; attempt++) {
      const createdAt = formatCreatedAt(new Date(this.clock.now().getTime() + attempt));
      const signed = signIdentityOperation(
        {
          version: 1,
          type: 'create',
          authKeys: [key],
          assertKeys: [key],
          controllerKeys: [key],
          ...(services.length > 0 ? { services } : {}),
          createdAt,
        },
        this.signer,
      );
      const [result] = await this.ingestion.ingest([signed.jws]);
      if (result.status === 'new') return { did: signed.did, headCid: signed.cid };
      if (result.status === 'rejected') throw refused('identity genesis', result);
    }
    throw new OriginIdentityError('could not create a distinct identity genesis');
  }

  /** The publishing port's detached signature by the origin key. */
  signAsOrigin(message: Uint8Array): { did: string; signature: Uint8Array } {
    return { did: this.did, signature: this.signer.sign(message) };
  }

  /** The entity interface of the publishing port. */
  async createIdentity(): Promise<IssuedIdentity> {
    return this.createIdentityFor();
  }

  /** Replaces the services of an origin-signed identity (an update signed by the origin key). */
  async updateIdentityServices(did: string, services: ServiceEntry[]): Promise<IssuedIdentity> {
    const state = await this.controlledState(did);
    return this.extendIdentity(did, state, {
      version: 1,
      type: 'update',
      previousOperationCID: state.headCid,
      authKeys: state.authKeys,
      assertKeys: state.assertKeys,
      controllerKeys: state.controllerKeys,
      ...(services.length > 0 ? { services } : {}),
      createdAt: this.after(state.lastCreatedAt),
    });
  }

  /** Deletes an origin-signed identity (e.g. a deleted space). */
  async deleteIdentity(did: string): Promise<IssuedIdentity> {
    const state = await this.controlledState(did);
    return this.extendIdentity(did, state, {
      version: 1,
      type: 'delete',
      previousOperationCID: state.headCid,
      createdAt: this.after(state.lastCreatedAt),
    });
  }

  /** The current head of an identity chain (e.g. a space's `protocol.headOpCid`). */
  async headOf(did: string): Promise<string | null> {
    return (await this.identities.current(did))?.headCid ?? null;
  }

  // ---------------------------------------------------------------------------------------------
  // public content chains signed by the origin identity

  /**
   * Publishes a public document: a new content chain (no `previous`), or an update of the chain at
   * `previous.headCid`. The relay keeps the document with the operation, under that chain only, and
   * serves it as the chain's blob while it is the head's.
   */
  async publishContent(
    document: Record<string, unknown>,
    previous: PublishedContent | null = null,
  ): Promise<PublishedContent> {
    const documentCID = documentCid(document);
    if (previous) {
      const createdAt = this.after(await this.createdAtOf(previous.headCid));
      const result = await this.ingestContent(
        {
          version: 1,
          type: 'update',
          did: this.did,
          previousOperationCID: previous.headCid,
          documentCID,
          baseDocumentCID: null,
          createdAt,
        },
        document,
      );
      return { contentId: previous.contentId, headCid: result.cid };
    }
    for (let attempt = 0; attempt < MAX_GENESIS_ATTEMPTS; attempt++) {
      const createdAt = formatCreatedAt(new Date(this.clock.now().getTime() + attempt));
      const signed = signContentOperation(
        { version: 1, type: 'create', did: this.did, documentCID, baseDocumentCID: null, createdAt },
        this.signer,
      );
      const [result] = await this.ingestion.ingest([signed.jws], { documents: [document] });
      if (result.status === 'new') return { contentId: result.chainId!, headCid: result.cid };
      if (result.status === 'rejected') throw refused('content genesis', result);
    }
    throw new OriginIdentityError('could not create a distinct content genesis');
  }

  /** ContentPublisher port: creates the chain (previous null) or appends an update. */
  publish(previous: PublishedContent | null, document: Record<string, unknown>): Promise<PublishedContent> {
    return this.publishContent(document, previous);
  }

  /** Appends a delete: the chain no longer has a current document. */
  async retract(previous: PublishedContent): Promise<void> {
    await this.ingestContent({
      version: 1,
      type: 'delete',
      did: this.did,
      previousOperationCID: previous.headCid,
      createdAt: this.after(await this.createdAtOf(previous.headCid)),
    });
  }

  // ---------------------------------------------------------------------------------------------
  // bootstrap

  /**
   * Creates the origin identity on first start, or brings its service entries in line with the
   * configuration. An advisory lock makes replicas that start together do it once.
   */
  private async bootstrap(): Promise<void> {
    let changed: string[] = [];
    const origin = await this.dataSource.transaction(async (manager) => {
      await this.originKeys.lockBootstrap(ORIGIN_LOCK_KEY, manager);
      const { signer, seed } = await this.originKey(manager);
      const storedDid = await this.originKeys.didOfKey(signer.multikey, manager);
      const services = this.originServices();
      if (storedDid === null) {
        const key = multikeyEntry(signer);
        const genesis = signIdentityOperation(
          {
            version: 1,
            type: 'create',
            authKeys: [key],
            assertKeys: [key],
            controllerKeys: [key],
            services,
            createdAt: formatCreatedAt(this.clock.now()),
          },
          signer,
        );
        changed = await this.ingestWithin(manager, genesis.jws, 'origin identity genesis');
        await this.originKeys.insert(
          { publicKey: signer.multikey, keyId: signer.keyId, did: genesis.did, seed },
          manager,
        );
        this.logger.log(`origin identity ${genesis.did} created`);
        return { did: genesis.did, signer };
      }
      const chain = await this.chains.findIdentityChain(storedDid, manager);
      if (!chain) throw new OriginIdentityError(`origin identity ${storedDid} has no chain in the relay`);
      const state = chain.state;
      if (state.isDeleted) throw new OriginIdentityError(`origin identity ${storedDid} is deleted`);
      if (JSON.stringify(state.services) !== JSON.stringify(services)) {
        const update = signIdentityOperation(
          {
            version: 1,
            type: 'update',
            previousOperationCID: state.headCid,
            authKeys: state.authKeys,
            assertKeys: state.assertKeys,
            controllerKeys: state.controllerKeys,
            services,
            createdAt: this.after(state.lastCreatedAt),
          },
          signer,
          { did: storedDid },
        );
        changed = await this.ingestWithin(manager, update.jws, 'origin service update');
        this.logger.log(`origin identity ${storedDid}: service entries updated`);
      }
      return { did: storedDid, signer };
    });
    await this.bus.publish(changed);
    this.origin = { ...origin, profile: this.signProfile(origin.did, origin.signer) };
  }

  /** ORIGIN_KEY, else the generated key stored on an earlier start, else a new one (not in production). */
  private async originKey(manager: EntityManager): Promise<{ signer: KeySigner; seed: Buffer | null }> {
    if (this.config.ORIGIN_KEY) {
      return { signer: createKeySigner(base64urlDecode(this.config.ORIGIN_KEY, 'ORIGIN_KEY')), seed: null };
    }
    const generated = await this.originKeys.firstGenerated(manager);
    if (generated?.seed)
      return { signer: createKeySigner(new Uint8Array(generated.seed)), seed: generated.seed };
    if (this.config.NODE_ENV === 'production') {
      throw new OriginIdentityError(
        'ORIGIN_KEY is required in production: the service will not generate its origin key there',
      );
    }
    const { privateKey, ...signer } = generateKeySigner();
    return { signer, seed: Buffer.from(privateKey) };
  }

  private signProfile(did: string, signer: KeySigner): string {
    const payload = {
      version: 1,
      type: 'artifact',
      did,
      content: {
        $schema: PROFILE_SCHEMA,
        name: this.config.publicHost,
        description: 'PLAT relay embedded in the platform API',
        links: [{ uri: this.config.publicBaseUrl, label: 'origin' }],
      },
      createdAt: formatCreatedAt(this.clock.now()),
    };
    const { cid } = computeCid(payload);
    return signJws(
      { typ: `${PLAT_BRAND.didPrefix}artifact`, kid: didUrl(did, signer.keyId), cid },
      payload,
      signer,
    );
  }

  // ---------------------------------------------------------------------------------------------

  private require() {
    if (!this.origin) throw new OriginIdentityError('the origin identity is not initialized yet');
    return this.origin;
  }

  /** A createdAt strictly after `previous` (now, or previous + 1 ms). */
  private after(previous: string): string {
    return nextCreatedAt(previous, () => this.clock.now());
  }

  private async createdAtOf(cid: string): Promise<string> {
    const row = await this.operations.findCreatedAt(cid);
    if (!row) throw new OriginIdentityError(`operation ${cid} is not in the relay`);
    return row.createdAt;
  }

  private async controlledState(did: string): Promise<IdentityState> {
    const state = await this.identities.current(did);
    if (!state) throw new OriginIdentityError(`unknown identity ${did}`);
    if (!state.controllerKeys.some((key) => key.publicKeyMultibase === this.signer.multikey)) {
      throw new OriginIdentityError(`the origin key does not control ${did}`);
    }
    return state;
  }

  private async extendIdentity(did: string, state: IdentityState, operation: IdentityOperation) {
    const keyId = state.controllerKeys.find((key) => key.publicKeyMultibase === this.signer.multikey)!.id;
    const signer = keyId === this.signer.keyId ? this.signer : { ...this.signer, keyId };
    const signed = signIdentityOperation(operation, signer, { did });
    const [result] = await this.ingestion.ingest([signed.jws]);
    if (result.status === 'rejected') throw refused(`identity ${operation.type}`, result);
    return { did, headCid: signed.cid };
  }

  private async ingestContent(
    operation: ContentOperation,
    document?: Record<string, unknown>,
  ): Promise<IngestResult> {
    const signed = signContentOperation(operation, this.signer);
    const [result] = await this.ingestion.ingest([signed.jws], { documents: document ? [document] : [] });
    if (result.status === 'rejected') throw refused(`content ${operation.type}`, result);
    return result;
  }

  private async ingestWithin(manager: EntityManager, jws: string, what: string): Promise<string[]> {
    const { results, changedIdentities } = await this.ingestion.ingestWithin(manager, [jws]);
    if (results[0].status !== 'new') throw refused(what, results[0]);
    return changedIdentities;
  }
}

function refused(what: string, result: IngestResult): OriginIdentityError {
  return new OriginIdentityError(`${what} refused by the relay: ${result.error ?? result.status}`);
}
