import { loopbackFetch } from '../../../db/seed/demo/loopback';

describe('loopbackFetch (the demo seed reaching its in-process app)', () => {
  const sent: string[] = [];
  const send = ((input: string | URL | Request) => {
    sent.push(String(input));
    return Promise.resolve(new Response(null, { status: 204 }));
  }) as typeof fetch;
  const through = loopbackFetch('http://localhost:3000', 'http://127.0.0.1:41234', send);

  beforeEach(() => sent.splice(0));

  it('sends the public origin to the loopback port, path and query kept', async () => {
    await through('http://localhost:3000/relay/proof/v1/operations');
    await through(new URL('http://localhost:3000/v1/feed?limit=5'));
    expect(sent).toEqual([
      'http://127.0.0.1:41234/relay/proof/v1/operations',
      'http://127.0.0.1:41234/v1/feed?limit=5',
    ]);
  });

  it('leaves every other origin alone (an external relay, a look-alike host)', async () => {
    await through('https://relay.example/proof/v1/operations');
    await through('http://localhost:30001/v1/profile');
    await through('http://localhost:3000.evil.example/v1/profile');
    expect(sent).toEqual([
      'https://relay.example/proof/v1/operations',
      'http://localhost:30001/v1/profile',
      'http://localhost:3000.evil.example/v1/profile',
    ]);
  });
});
