import { seededRng, type Rng } from '../db/seed/spaces';
import { displayTitleOf, excerptOf, slugOf } from '../src/posts/domain/post-text';

/**
 * The post texts of the seed: a fixed set of (title, body) variants, each with the card text and
 * slug the app's own functions compute for it (so a seeded row is what a create would have
 * written). Posts pick a variant by number; the SQL seed joins them in.
 */
export interface PostText {
  variant: number;
  title: string | null;
  body: string;
  slug: string;
  excerpt: string | null;
  displayTitle: string | null;
  /** Whether the body has bare URLs and markdown links (the single-post scenario wants one). */
  rich: boolean;
}

export const TEXT_VARIANTS = 128;

const WORDS = (
  'community garden harbor workshop library circle studio guild meeting notes update release ' +
  'weekend event photos recipe question answer idea proposal draft review thanks welcome ' +
  'schedule volunteer project budget report summary design music book travel science'
).split(' ');

/**
 * Rarer words for search (bench/suites/search.ts): variant v names `RARE_WORDS[v]` and
 * `RARE_WORDS[(5v + 1) % 128]` above its fold, so each appears in two variants of 128 (about 1.6%
 * of posts), where every word of WORDS is in most posts.
 */
export const RARE_WORDS = (
  'lantern orchard pottery kayak meadow bakery compost telescope violin quilt harvest lighthouse ' +
  'canoe pasta glacier beekeeping mosaic sourdough tandem ferry vineyard origami chess puppet ' +
  'marathon hammock falcon bonfire carnival embroidery fossil greenhouse hiking jazz kiln lagoon ' +
  'mural noodle opera pancake quarry rowing sailboat tapestry ukulele velvet waffle yoga zucchini ' +
  'acorn banjo cello dumpling espresso fiddle gondola harmonica igloo juggling kite lavender ' +
  'mandolin nectar oboe paddle quince radish saffron tulip umbrella vintage walnut xylophone yarn ' +
  'zither almond bicycle cinnamon dahlia elderberry flute granola hazelnut iris jasmine kombucha ' +
  'lemonade mango nutmeg olive peony quinoa rhubarb sunflower thyme unicycle vanilla wisteria ' +
  'anchor blossom cobblestone driftwood evergreen firefly gazebo hedgehog ivy juniper kestrel ' +
  'lichen maple nightingale otter pinecone quail reef sparrow tortoise upland valley willow ' +
  'aurora basil clover dune ember fern grove'
).split(' ');

const pick = <T>(rng: Rng, values: readonly T[]): T => values[Math.floor(rng() * values.length)];

function sentence(rng: Rng, words: number): string {
  const parts = Array.from({ length: words }, () => pick(rng, WORDS));
  const text = parts.join(' ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

function paragraph(rng: Rng, sentences: number, variant: number, rich: boolean): string {
  const out: string[] = [];
  for (let i = 0; i < sentences; i++) {
    let s = sentence(rng, 6 + Math.floor(rng() * 10));
    if (rich && i === 0) s += ` See [the notes](https://example.com/notes/${variant}) and **bold** bits.`;
    if (rich && i === 1) s += ` More at https://example.org/v/${variant}/${i} for details.`;
    if (!rich && rng() < 0.15) s = `*${s}*`;
    out.push(s);
  }
  return out.join(' ');
}

/** The variants, deterministic (same texts on every machine). */
export function postTexts(): PostText[] {
  const rng = seededRng(12_012);
  const texts: PostText[] = [];
  for (let variant = 0; variant < TEXT_VARIANTS; variant++) {
    const long = variant % 5 < 2;
    const rich = variant % 8 === 3;
    const title = long ? sentence(rng, 3 + Math.floor(rng() * 6)).replace(/\.$/, '') : null;
    const paragraphs = long ? 2 + Math.floor(rng() * 4) : 1;
    const parts: string[] = [];
    if (long && variant % 3 === 0) parts.push(`## ${sentence(rng, 3)}`);
    for (let p = 0; p < paragraphs; p++)
      parts.push(paragraph(rng, long ? 3 + Math.floor(rng() * 4) : 1 + Math.floor(rng() * 3), variant, rich));
    parts[0] += ` About ${RARE_WORDS[variant % 128]} and ${RARE_WORDS[(variant * 5 + 1) % 128]}.`;
    // Some long posts hold part of their body below the fold (api-spec.md "Full post").
    if (long && variant % 4 === 1) parts.splice(1, 0, '<!--fold-->');
    const body = parts.join('\n\n');
    texts.push({
      variant,
      title,
      body,
      slug: slugOf(title, body),
      excerpt: excerptOf(body),
      displayTitle: displayTitleOf(title, body),
      rich,
    });
  }
  return texts;
}
