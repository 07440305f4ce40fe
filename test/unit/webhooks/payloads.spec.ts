import { scrubbed } from '../../../src/webhooks/domain/payloads';

/** A payload is a projection (docs/decisions/0161-webhook-events-and-payloads.md): no signed URL, no viewer block. */
describe('webhook payload scrubbing', () => {
  it('drops every member holding a signed URL, however deep inside, and the reader’s own viewer block', () => {
    const card = {
      id: 'post_1',
      title: 'Photos',
      viewer: { upvoted: true, canEdit: true },
      cover: { url: 'https://api.example.com/media/m1?exp=1700000000&sig=abc', width: 10 },
      links: ['https://example.com/a?sig=not-ours-but-dropped', 'https://example.com/b'],
      author: { did: 'did:plat:x', avatarUrl: 'https://api.example.com/media/a?exp=1&sig=z' },
      media: [{ id: 'm2', url: 'https://api.example.com/media/m2?exp=1&sig=y' }, { id: 'm3' }],
    };
    // A member holding one anywhere inside goes whole (the card's own shape is not guessed at).
    expect(scrubbed({ ...card, tags: ['a', 'b'], space: { id: 'space_1' } })).toEqual({
      id: 'post_1',
      title: 'Photos',
      tags: ['a', 'b'],
      space: { id: 'space_1' },
    });
    expect(JSON.stringify(scrubbed(card))).not.toMatch(/sig=|viewer/);
  });
});
