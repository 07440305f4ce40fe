import type { Scenario } from '../scenario-kit';

/**
 * People: the directory of public profiles (10,000 seeded users, half public, each pinning the
 * public spaces they own) and the caller's own profile with a bare identity proof (the bench
 * reader's account).
 */
export const peopleScenarios: Scenario[] = [
  {
    name: 'users directory',
    group: 'read',
    request: () => ({ method: 'GET', path: '/v1/users?limit=100' }),
    against: { kind: 'twin', handler: 'users directory' },
    target: { ratio: 0.6 },
  },
  {
    name: 'own profile with a request proof',
    group: 'authenticated read',
    request: (context) => ({
      method: 'GET',
      path: '/v1/profile',
      proof: { actors: [context.actors.reader], perRequest: false, audience: context.audience },
    }),
    against: { kind: 'twin', handler: 'profile' },
    target: { ratio: 0.5 },
  },
];
