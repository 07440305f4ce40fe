import { mentionedIdentities, renderMentions } from '../../../src/spaces/domain/page-mentions';

const A = 'identity_0190f1a2b3c4d5e6f708192a3b4c5d6e';
const B = 'identity_0190f1a2b3c4d5e6f708192a3b4c5d6f';
const uuidOf = (id: string) => {
  const hex = id.slice('identity_'.length);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

describe('page mentions (api-spec.md "Page")', () => {
  const body = `Hi [@ada](mention:${A}) and [bob](mention:${B}), [@ada](mention:${A}) again; [x](https://e.example)`;

  it('finds each well-formed identity mentioned, once', () => {
    expect(mentionedIdentities(body)).toEqual([uuidOf(A), uuidOf(B)]);
    expect(mentionedIdentities('[@x](mention:identity_nope) [y](mention:did:plat:abc)')).toEqual([]);
    expect(mentionedIdentities('no mentions [a](https://a.example)')).toEqual([]);
  });

  it('keeps links to public profiles and turns the others into @name text', () => {
    expect(renderMentions(body, new Set([uuidOf(A)]))).toBe(
      `Hi [@ada](mention:${A}) and @bob, [@ada](mention:${A}) again; [x](https://e.example)`,
    );
    expect(renderMentions(body, new Set())).toBe('Hi @ada and @bob, @ada again; [x](https://e.example)');
    expect(renderMentions('[@x](mention:identity_nope) [ @@y ](mention:)', new Set())).toBe('@x @y');
  });

  it('takes the innermost bracket as the label, and stays linear on unclosed brackets', () => {
    expect(renderMentions(`[see [@ada](mention:${B})]`, new Set())).toBe('[see @ada]');
    const unclosed = '['.repeat(100_000);
    expect(renderMentions(unclosed, new Set())).toBe(unclosed);
    const dangling = '[a](mention:'.repeat(8_000);
    expect(mentionedIdentities(dangling)).toEqual([]);
  });
});
