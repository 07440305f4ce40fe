import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { LinkPreviewsService, LinkPreviewView } from '../../link-previews';
import { MediaLookupService } from '../../media';
import { QueryFailedError } from 'typeorm';
import { RequestPrincipal } from '../../common/auth/request-authenticator';
import { toProfileLinkDto } from '../../common/dto/profile-link.dto';
import { conflict, invalidRequest, notFound } from '../../common/errors/api-error';
import { formatEntityId, newUuid, parseEntityId } from '../../common/ids/entity-id';
import { CursorCodec } from '../../common/pagination/cursor-codec';
import { closeKeysetPage, KeysetColumn, openKeysetPage } from '../../common/pagination/keyset';
import { Page } from '../../common/pagination/page';
import { PaginationQueryDto } from '../../common/pagination/pagination-query.dto';
import { IdentityDirectory, ContentPublisher, PROFILE_SCHEMA } from '../../protocol';
import {
  CreateAccountRequest,
  OwnProfileResponse,
  ProtocolBlock,
  PublicProfileResponse,
  UpdateProfileRequest,
} from '../dto/account.dto';
import { UserDirectoryItem, UserProfileResponse, UserSpaceItem } from '../dto/pins.dto';
import { UserSpacesService } from './user-spaces.service';
import { User } from '../entities/user.entity';
import { UsersRepository } from '../users.repository';

const UNIQUE_VIOLATION = '23505';

/** No resolved link page: a write's answer shows its links as written. */
const NO_PREVIEWS: ReadonlyMap<string, LinkPreviewView> = new Map();

/** The directory's order: earliest account first, id breaking ties (`UsersRepository.publicPage`). */
const PUBLIC_USERS_ORDER: KeysetColumn[] = [
  { expression: 'created_at', direction: 'ASC' },
  { expression: 'id', direction: 'ASC' },
];

/** Accounts and profiles (design.md §2): a platform account claimed for a protocol identity. */
@Injectable()
export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly identities: IdentityDirectory,
    private readonly publisher: ContentPublisher,
    private readonly userSpaces: UserSpacesService,
    private readonly cursors: CursorCodec,
    private readonly media: MediaLookupService,
    private readonly previews: LinkPreviewsService,
  ) {}

  async createAccount(
    principal: RequestPrincipal,
    request: CreateAccountRequest,
  ): Promise<PublicProfileResponse> {
    if (await this.users.accountExists(principal.did)) throw conflict('DID already registered');
    const user = Object.assign(new User(), {
      id: newUuid(),
      did: principal.did,
      handle: request.handle,
      displayName: request.displayName ?? null,
      bio: null,
      avatarId: null,
      links: [],
      isPublic: false,
      email: null,
      verifiedDomain: null,
      profileContentId: null,
      profileHeadCid: null,
      erasureDueAt: null,
    });
    await this.saveUnique(user);
    return this.toPublicProfile(user, NO_PREVIEWS);
  }

  async updateProfile(
    principal: RequestPrincipal,
    request: UpdateProfileRequest,
  ): Promise<OwnProfileResponse> {
    const fields = Object.keys(request).filter(
      (key) => request[key as keyof UpdateProfileRequest] !== undefined,
    );
    if (fields.length === 0)
      throw invalidRequest('Invalid request', [{ path: '', message: 'Name at least one field to change' }]);
    const user = await this.requireAccount(principal.did);
    // A ready image the person uploaded (design.md §11 "Use"); null clears it.
    const avatarId = await this.media.ownImage('avatarId', request.avatarId, principal.did);
    if (request.handle !== undefined) user.handle = request.handle;
    if (request.displayName !== undefined) user.displayName = request.displayName;
    if (request.bio !== undefined) user.bio = request.bio;
    if (avatarId !== undefined) user.avatarId = avatarId;
    if (request.links !== undefined) {
      user.links = request.links.map((link) => ({
        url: link.url,
        label: link.label ?? null,
        description: link.description ?? null,
      }));
    }
    if (request.isPublic !== undefined) user.isPublic = request.isPublic;
    if (request.email !== undefined) user.email = request.email;
    // Stored first: a refused change (handle taken) must not reach the public chain.
    await this.saveUnique(user);
    await this.syncProfileChain(user);
    // After the write: the links' pages are queued for resolution (no statement); the answer
    // shows what was written (docs/decisions/0157-link-resolution-queued-after-the-write.md).
    if (request.links !== undefined && user.links.length > 0)
      this.previews.resolveSoon(user.links.map((link) => link.url));
    return this.toOwnProfile(user, true, NO_PREVIEWS);
  }

  async getOwnProfile(principal: RequestPrincipal): Promise<OwnProfileResponse> {
    const user = await this.requireAccount(principal.did);
    const mayReadEmail = !principal.credential || principal.credential.accountScopes.includes('read:email');
    return this.toOwnProfile(user, mayReadEmail);
  }

  /**
   * The person's own profile with every field (email included), for their export (issue 35 item 3;
   * docs/decisions/0210-personal-export-archive-layout.md); the constant 404 without an account.
   */
  async ownProfileOf(did: string, runner?: EntityManager): Promise<OwnProfileResponse> {
    return this.toOwnProfile(await this.requireAccount(did, runner), true, undefined, runner);
  }

  /** The content id of the person's profile chain, or null (none published), for their export. */
  async profileContentIdOf(did: string, runner?: EntityManager): Promise<string | null> {
    return (await this.requireAccount(did, runner)).profileContentId;
  }

  /** A public profile by handle (any case), identity id or DID; private and missing look the same. */
  async getPublicProfile(reference: string): Promise<UserProfileResponse> {
    const user = await this.requirePublic(reference);
    const [profile, spaces] = await Promise.all([
      this.toPublicProfile(user),
      this.userSpaces.embeddedSpaces(user),
    ]);
    return { ...profile, spaces };
  }

  /** GET /v1/users: public profiles, earliest account first (id breaks ties), with pinned spaces. */
  async listPublicProfiles(query: PaginationQueryDto): Promise<Page<UserDirectoryItem>> {
    const keyset = {
      listing: 'public-users',
      columns: PUBLIC_USERS_ORDER,
      keyOf: (user: User) => [user.createdAt.toISOString(), user.id],
      page: query,
      cursors: this.cursors,
    };
    const seek = openKeysetPage(keyset);
    const page = closeKeysetPage(seek, await this.users.publicPage(seek), keyset);
    const [pinned, avatars, previews] = await Promise.all([
      this.userSpaces.pinnedCards(page.rows),
      this.media.imageUrls(page.rows.map((user) => user.avatarId)),
      this.previewsOf(page.rows),
    ]);
    return {
      items: page.rows.map((user) => ({
        ...this.profileFields(user, avatars, previews),
        pinnedSpaces: pinned.get(user.id) ?? [],
      })),
      nextCursor: page.nextCursor,
      previousCursor: page.previousCursor,
    };
  }

  /** GET /v1/users/{user}/spaces. */
  async listPublicSpaces(reference: string, query: PaginationQueryDto): Promise<Page<UserSpaceItem>> {
    return this.userSpaces.listSpaces(await this.requirePublic(reference), query);
  }

  private async requirePublic(reference: string): Promise<User> {
    const user = await this.findPublicByReference(reference);
    if (!user) throw notFound();
    return user;
  }

  /** Display names of the accounts among these DIDs that have one (one query). */
  async displayNamesOf(dids: string[]): Promise<Map<string, string>> {
    if (dids.length === 0) return new Map();
    return this.users.displayNames([...new Set(dids)]);
  }

  /** The handle of an account, for records that name a person (e.g. credential introspection). */
  async handleOf(did: string): Promise<string | null> {
    return this.users.handleOf(did);
  }

  /**
   * The public profile a reference names; a deactivated identity's is none (the constant 404:
   * docs/decisions/0190-deactivation-follows-the-identity-chain.md).
   */
  private async findPublicByReference(reference: string): Promise<User | null> {
    if (reference.startsWith('did:plat:')) return this.users.publicProfile('did', reference);
    const id = parseEntityId('identity', reference);
    if (id) return this.users.publicProfile('id', id);
    if (!/^[A-Za-z0-9-]{3,30}$/.test(reference)) return null;
    return this.users.publicProfile('handle', reference.toLowerCase());
  }

  private async requireAccount(did: string, runner?: EntityManager): Promise<User> {
    const user = await this.users.account('did', did, runner);
    if (!user) throw notFound();
    return user;
  }

  /** Keeps the public profile content chain in step: written while public, retracted when not. */
  private async syncProfileChain(user: User): Promise<void> {
    const before = { contentId: user.profileContentId, headCid: user.profileHeadCid };
    await this.publishProfile(user);
    if (before.contentId !== user.profileContentId || before.headCid !== user.profileHeadCid) {
      await this.users.updateProfileChain(user.id, {
        profileContentId: user.profileContentId,
        profileHeadCid: user.profileHeadCid,
      });
    }
  }

  private async publishProfile(user: User): Promise<void> {
    const previous =
      user.profileContentId && user.profileHeadCid
        ? { contentId: user.profileContentId, headCid: user.profileHeadCid }
        : null;
    if (user.isPublic) {
      const published = await this.publisher.publish(previous, this.profileDocument(user));
      user.profileContentId = published.contentId;
      user.profileHeadCid = published.headCid;
    } else if (previous) {
      await this.publisher.retract(previous);
      user.profileContentId = null;
      user.profileHeadCid = null;
    }
  }

  private profileDocument(user: User): Record<string, unknown> {
    const document: Record<string, unknown> = { $schema: PROFILE_SCHEMA, did: user.did, handle: user.handle };
    if (user.displayName) document.name = user.displayName;
    if (user.bio) document.description = user.bio;
    if (user.links.length > 0) {
      document.links = user.links.map((link) => ({
        uri: link.url,
        ...(link.label ? { label: link.label } : {}),
        ...(link.description ? { description: link.description } : {}),
      }));
    }
    return document;
  }

  private async saveUnique(user: User): Promise<void> {
    try {
      await this.users.save(user);
    } catch (error) {
      if (
        error instanceof QueryFailedError &&
        (error as QueryFailedError & { code?: string }).code === UNIQUE_VIOLATION
      ) {
        const constraint = (error as QueryFailedError & { constraint?: string }).constraint;
        throw conflict(constraint === 'uq_users_did' ? 'DID already registered' : 'Handle taken');
      }
      throw error;
    }
  }

  /** `previews`: the links' resolved pages, read in one batch; a write's answer passes none. */
  private async toPublicProfile(
    user: User,
    previews?: ReadonlyMap<string, LinkPreviewView>,
    runner?: EntityManager,
  ): Promise<PublicProfileResponse> {
    const [protocol, avatars, resolved] = await Promise.all([
      this.protocolBlock(user),
      this.media.imageUrls([user.avatarId], runner),
      previews ?? this.previewsOf([user]),
    ]);
    return { ...this.profileFields(user, avatars, resolved), ...(protocol ? { protocol } : {}) };
  }

  /** What is resolved of the links of these users' profiles: one batch, nothing without links. */
  private async previewsOf(users: User[]): Promise<ReadonlyMap<string, LinkPreviewView>> {
    const urls = [...new Set(users.flatMap((user) => user.links.map((link) => link.url)))];
    return urls.length > 0 ? this.previews.previewsOf(urls) : NO_PREVIEWS;
  }

  /** The public profile without the protocol block (which only the single fetch carries). */
  private profileFields(
    user: User,
    avatars: Map<string, string>,
    previews: ReadonlyMap<string, LinkPreviewView>,
  ): PublicProfileResponse {
    return {
      id: formatEntityId('identity', user.id),
      did: user.did,
      handle: user.handle,
      displayName: user.displayName,
      avatarUrl: (user.avatarId && avatars.get(user.avatarId)) || null,
      bio: user.bio,
      links: user.links.map((link) => toProfileLinkDto(link, previews.get(link.url))),
      verifiedDomain: user.verifiedDomain,
    };
  }

  private async toOwnProfile(
    user: User,
    includeEmail: boolean,
    previews?: ReadonlyMap<string, LinkPreviewView>,
    runner?: EntityManager,
  ): Promise<OwnProfileResponse> {
    return {
      ...(await this.toPublicProfile(user, previews, runner)),
      isPublic: user.isPublic,
      ...(includeEmail ? { email: user.email } : {}),
      createdAt: user.createdAt.toISOString(),
      updatedAt: user.updatedAt.toISOString(),
    };
  }

  private async protocolBlock(user: User): Promise<ProtocolBlock | undefined> {
    const state = await this.identities.current(user.did);
    if (!state) return undefined;
    const profile =
      user.isPublic && user.profileContentId && user.profileHeadCid
        ? { contentId: user.profileContentId, headOpCid: user.profileHeadCid }
        : undefined;
    return { headOpCid: state.headCid, ...(profile ? { profile } : {}) };
  }
}
