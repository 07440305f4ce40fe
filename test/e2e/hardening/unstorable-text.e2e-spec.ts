import request from 'supertest';
import { Actor } from '../../support/actors';
import { bootApp, TestApp } from '../../support/app';

const NOT_FOUND = '{"code":"E_NOT_FOUND","message":"Not found"}';

/**
 * Text PostgreSQL cannot store never reaches it (docs/decisions/0017-deny-by-default-and-no-unstorable-text.md): a lone UTF-16 surrogate in any
 * body member is a 400 with nothing stored (it used to be a 500 after the profile row committed,
 * or from the e-mail validator), and NUL in a path parameter is the constant 404 (it was a 500).
 */
describe('text the database cannot store (e2e)', () => {
  let t: TestApp;
  let person: Actor;

  beforeAll(async () => {
    t = await bootApp();
    person = await Actor.create(t);
    expect((await person.signUp('surrogates', 'Sam')).status).toBe(201);
  });

  afterAll(() => t.close());

  it.each([
    ['displayName', { displayName: 'Sam \ud800' }],
    ['bio', { bio: 'low \udc00 alone' }],
    ['email', { email: 'sam\ud83d@example.com' }],
    ['links.0.label', { links: [{ url: 'https://example.com', label: '\udfff' }] }],
  ])('refuses a lone surrogate in %s with 400 and stores nothing', async (path, body) => {
    const response = await person.patch('/profile', body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      code: 'E_INVALID_REQUEST',
      message: 'Invalid request',
      details: [{ path, message: `${path} must be well-formed Unicode (no lone surrogates)` }],
    });
    const profile = await person.get('/v1/profile');
    expect(profile.body).toMatchObject({ displayName: 'Sam', bio: null });
  });

  it('accepts a well-formed pair (an emoji)', async () => {
    const response = await person.patch('/profile', { bio: 'waves \ud83d\udc4b' });
    expect(response.status).toBe(200);
    expect((await person.get('/v1/profile')).body.bio).toBe('waves \ud83d\udc4b');
  });

  it.each(['/v1/users/did:plat:%00', '/v1/users/a%00b/spaces', '/v1/spaces/%00'])(
    'answers %s, NUL in a path parameter, with the constant 404',
    async (path) => {
      const response = await request(t.http).get(path);
      expect(response.status).toBe(404);
      expect(response.text).toBe(NOT_FOUND);
    },
  );
});
