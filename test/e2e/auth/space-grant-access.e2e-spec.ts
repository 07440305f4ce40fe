import { ApiError } from '../../../src/common/errors/api-error';
import { CredentialGrant, RequestPrincipal } from '../../../src/common/auth/request-authenticator';
import { SpaceGrantAccessService } from '../../../src/spaces/services/space-grant-access.service';
import { Actor } from '../../support/actors';
import { bootApp, TestApp } from '../../support/app';

/**
 * api-spec.md "Authentication" items 6–8 as the reusable access service applies them, with real
 * spaces and memberships made through the legacy routes by real identities.
 */
describe('space access for credentials (e2e)', () => {
  let t: TestApp;
  let access: SpaceGrantAccessService;
  let owner: Actor;
  let member: Actor;
  let outsider: Actor;
  let publicSpace: { id: string; did: string };
  let privateSpace: { id: string; did: string };

  const bare = (actor: Actor): RequestPrincipal => ({ did: actor.did, grant: actor.did });
  const viaCredential = (actor: Actor, spaces: { space: string; scopes: string[] }[]): RequestPrincipal => {
    const credential: CredentialGrant = {
      cid: `bafyrei-test-${actor.did.slice(-6)}`,
      issuer: actor.did,
      audience: 'did:plat:2222222222222222222222222222222',
      host: t.config.publicHost,
      issuedAt: 0,
      expiresAt: 4102444800,
      spaces: spaces.some((entry) => entry.space === '*') ? 'all' : spaces.map((entry) => entry.space),
      spaceGrants: spaces as CredentialGrant['spaceGrants'],
      spaceScopes: [...new Set(spaces.flatMap((entry) => entry.scopes))] as CredentialGrant['spaceScopes'],
      accountScopes: [],
    };
    return { did: actor.did, grant: credential.cid, credential };
  };
  const status = async (promise: Promise<unknown>) =>
    promise.then(
      () => 200,
      (error: unknown) => (error instanceof ApiError ? error.getStatus() : 500),
    );

  beforeAll(async () => {
    t = await bootApp();
    access = t.app.get(SpaceGrantAccessService);
    [owner, member, outsider] = await Promise.all([Actor.create(t), Actor.create(t), Actor.create(t)]);
    const created = async (name: string) =>
      (await owner.post('/spaces', { displayName: name, description: 'd' })).body;
    publicSpace = await created('Public');
    privateSpace = await created('Private');
    expect(
      (await owner.put(`/spaces/${publicSpace.id}/public-config`, { isPublic: true, joinMode: 'open' }))
        .status,
    ).toBe(200);
    expect((await member.post(`/spaces/${publicSpace.id}/join`, {})).status).toBe(200);
    const invite = await owner.post(`/spaces/${privateSpace.id}/my-invite`, {});
    expect((await member.post(`/spaces/join/${invite.body.inviteCode}`, {})).status).toBe(200);
  });

  afterAll(async () => {
    await t.close();
  });

  describe('reads', () => {
    it('gives a signed-in never-member the visitor view and everyone else not covered as a member the anonymous projection (item 6)', async () => {
      const anonymous = { kind: 'anonymous' };
      await expect(access.forRead(null, publicSpace.id)).resolves.toMatchObject(anonymous);
      await expect(access.forRead(bare(outsider), publicSpace.id)).resolves.toMatchObject({
        kind: 'visitor',
        did: outsider.did,
      });
      await expect(
        access.forRead(
          viaCredential(member, [{ space: privateSpace.did, scopes: ['read:posts'] }]),
          publicSpace.id,
        ),
      ).resolves.toMatchObject(anonymous);
      await expect(
        access.forRead(viaCredential(member, [{ space: '*', scopes: ['write:posts'] }]), publicSpace.did),
      ).resolves.toMatchObject(anonymous);
    });

    it('gives the member view to a covering grant of an active member', async () => {
      const view = { kind: 'member', did: member.did, role: 'member' };
      await expect(access.forRead(bare(member), publicSpace.id)).resolves.toMatchObject(view);
      await expect(
        access.forRead(viaCredential(member, [{ space: '*', scopes: ['read:posts'] }]), publicSpace.did),
      ).resolves.toMatchObject(view);
      await expect(
        access.forRead(
          viaCredential(member, [{ space: privateSpace.did, scopes: ['read:posts'] }]),
          privateSpace.id,
        ),
      ).resolves.toMatchObject(view);
      await expect(access.forRead(bare(owner), privateSpace.id)).resolves.toMatchObject({
        kind: 'member',
        role: 'owner',
      });
    });

    it('hides a private space from everyone else with the 404 (item 7)', async () => {
      expect(await status(access.forRead(null, privateSpace.id))).toBe(404);
      expect(await status(access.forRead(bare(outsider), privateSpace.id))).toBe(404);
      expect(
        await status(
          access.forRead(
            viaCredential(member, [{ space: publicSpace.did, scopes: ['read:posts'] }]),
            privateSpace.id,
          ),
        ),
      ).toBe(404);
    });

    it.each([
      'space_zz',
      'space_0190f1a2b3c4d5e6f708192a3b4c5d6e',
      'did:plat:2222222222222222222222222222222',
      'no-such-space',
    ])('answers %s with the 404', async (reference) => {
      expect(await status(access.forRead(bare(member), reference))).toBe(404);
    });
  });

  describe('writes (item 8)', () => {
    it('lets a covering grant of a member write', async () => {
      await expect(access.forWrite(bare(member), publicSpace.id, 'write:posts')).resolves.toMatchObject({
        did: member.did,
        role: 'member',
      });
      await expect(
        access.forWrite(
          viaCredential(member, [{ space: privateSpace.did, scopes: ['write:comments'] }]),
          privateSpace.id,
          'write:comments',
        ),
      ).resolves.toMatchObject({ role: 'member' });
    });

    it('refuses a public space with 403 (non-member, or grant not covering it)', async () => {
      expect(await status(access.forWrite(bare(outsider), publicSpace.id, 'write:posts'))).toBe(403);
      expect(
        await status(
          access.forWrite(
            viaCredential(member, [{ space: '*', scopes: ['read:posts'] }]),
            publicSpace.id,
            'write:posts',
          ),
        ),
      ).toBe(403);
    });

    it('refuses a private space with the 404 in the same cases', async () => {
      expect(await status(access.forWrite(bare(outsider), privateSpace.id, 'write:posts'))).toBe(404);
      expect(
        await status(
          access.forWrite(
            viaCredential(member, [{ space: publicSpace.did, scopes: ['write:posts'] }]),
            privateSpace.id,
            'write:posts',
          ),
        ),
      ).toBe(404);
    });

    it('stops covering a member who left', async () => {
      const leaver = await Actor.create(t);
      expect((await leaver.post(`/spaces/${publicSpace.id}/join`, {})).status).toBe(200);
      expect(await status(access.forWrite(bare(leaver), publicSpace.id, 'write:posts'))).toBe(200);
      expect((await leaver.delete(`/spaces/${publicSpace.id}/membership`)).status).toBe(204);
      expect(await status(access.forWrite(bare(leaver), publicSpace.id, 'write:posts'))).toBe(403);
      await expect(access.forRead(bare(leaver), publicSpace.id)).resolves.toMatchObject({
        kind: 'anonymous',
      });
    });
  });
});
