import { tests as specExamples } from 'commonmark-spec';
import { stripMarkdown } from '../../../src/posts/domain/post-text';

/**
 * The card-text scanner (stripMarkdown, behind excerpts, display titles and slugs) checked against
 * every example of the CommonMark 0.31.2 specification: the plain text of the reference HTML must
 * equal what the scanner makes of the markdown, except for the examples listed below with the reason
 * they differ. Listed examples must still differ, so any change of behaviour fails here and the list
 * (and docs/decisions/0129-card-text-scanner-against-commonmark.md) is updated on purpose.
 */

/** Inline elements: their tags are removed without a space (`<em>a</em>b` reads "ab"). */
const INLINE_ELEMENTS = /^(?:a|code|em|strong)$/i;

/**
 * The card text of a reference rendering: images dropped (card text drops them), other tags
 * removed (block tags and raw HTML leave a space), comments, processing instructions and
 * declarations dropped, the four entities commonmark's renderer writes decoded, whitespace
 * collapsed as stripMarkdown collapses it.
 */
function cardTextOfHtml(html: string): string {
  return html
    .replace(/<img\b[^>]*>/gi, ' ')
    .replace(/<\/?([A-Za-z][A-Za-z0-9-]*)\b[^>]*>/g, (_tag, name: string) =>
      INLINE_ELEMENTS.test(name) ? '' : ' ',
    )
    .replace(/<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<![A-Za-z][^>]*>|<!\[CDATA\[[\s\S]*?\]\]>/g, ' ')
    .replace(/&(quot|lt|gt|amp);/g, (_entity, name: 'quot' | 'lt' | 'gt' | 'amp') => DECODED[name])
    .replace(/\s+/g, ' ')
    .trim();
}

const DECODED = { quot: '"', lt: '<', gt: '>', amp: '&' };

/** The specification writes a tab as '→'. */
const withTabs = (text: string) => text.replace(/→/g, '\t');

// Why examples differ (docs/decisions/0129-card-text-scanner-against-commonmark.md explains each).
const EMPHASIS =
  'every flanking run of * or _ is dropped, matched or not; CommonMark keeps unmatched, ' +
  'non-flanking and intraword-closing delimiters as text';
const INDENTED_CODE = 'indented code blocks are not recognised: their text is read as markdown';
const LINE_BLOCKS =
  'block structure is read line by line: leading > markers and one list marker per line are ' +
  'stripped, lines of only = or rule characters are dropped (see the record)';
const HTML_BLOCK =
  'HTML blocks are not recognised: markdown inside is read and only tags and comments are dropped';
const DEFINITION = 'a reference definition is recognised on one line only, by its "[label]:" start';
const CODE_PADDING = 'a code span or an autolink is read with a space on each side (a`b`c reads "a b c")';
const LENIENT_LINK =
  '[text](…) and [text][…] are links whatever the destination or label; CommonMark needs a valid ' +
  'destination or a defined label';
const ANGLE_DESTINATION = 'a <…> destination is not read apart: its parentheses are matched';
const NESTED_LINK = 'a link inside a link text: CommonMark makes the outer brackets text';
const PRECEDENCE =
  'a link text that a tag or autolink cuts in CommonMark is read as a link (constructs are read ' +
  'left to right)';
const LABEL = 'label matching: no Unicode case folding, escapes and brackets in labels not read';
const REFERENCE_IMAGE = 'a reference image ![alt] without a tail is not recognised: "!alt" stays';
const TAG_LIKE = 'text shaped like a tag (<letter… up to >) is dropped even where CommonMark shows it';
const TAG_HOLDING_LT = 'a tag with a "<" inside (here in a quoted attribute) is kept as text';
const EMAIL_AUTOLINK = 'an email autolink is dropped as a tag; CommonMark shows the address';
const HTML_SPECIAL =
  'CDATA, processing instructions and the <!--> and <!---> comments are not read as CommonMark reads them';
const NAMED_ENTITY = 'only the named entities amp, lt, gt, quot, apos and nbsp are decoded';
const NUL_REFERENCE = '&#0; is kept as written; CommonMark replaces it with U+FFFD';
const TRAILING_BACKSLASH = 'a backslash ending a block is dropped; CommonMark keeps it as text';

const DIFFERENCES: Record<number, string> = {
  // Backslash escapes
  14: EMPHASIS,
  18: INDENTED_CODE,
  // Entity and numeric character references
  25: NAMED_ENTITY,
  26: NUL_REFERENCE,
  41: LENIENT_LINK,
  // Precedence
  42: LINE_BLOCKS,
  // Thematic breaks
  45: LINE_BLOCKS,
  48: INDENTED_CODE,
  49: LINE_BLOCKS,
  61: LINE_BLOCKS,
  // Setext headings
  85: INDENTED_CODE,
  87: LINE_BLOCKS,
  88: LINE_BLOCKS,
  90: TRAILING_BACKSLASH,
  91: LINE_BLOCKS,
  93: LINE_BLOCKS,
  97: LINE_BLOCKS,
  // Indented and fenced code blocks
  110: INDENTED_CODE,
  134: INDENTED_CODE,
  // HTML blocks
  ...Object.fromEntries(
    [148, 150, 151, 155, 156, 158, 159, 161, 162, 163, 164, 165, 166, 171, 177, 178, 186, 189].map(
      (number) => [number, HTML_BLOCK],
    ),
  ),
  180: HTML_SPECIAL,
  182: HTML_SPECIAL,
  183: INDENTED_CODE,
  184: INDENTED_CODE,
  191: INDENTED_CODE,
  // Link reference definitions
  ...Object.fromEntries(
    [193, 194, 195, 196, 197, 198, 199, 201, 208, 209, 213, 217].map((number) => [number, DEFINITION]),
  ),
  216: LINE_BLOCKS,
  // Block quotes, list items, lists
  ...Object.fromEntries(
    [238, 254, 263, 285, 286, 287, 288, 289, 290, 292, 293, 298, 299, 300, 304, 312, 313, 318, 324].map(
      (number) => [number, LINE_BLOCKS],
    ),
  ),
  // Inlines, code spans
  ...Object.fromEntries(
    [327, 338, 342, 343, 345, 346, 349, 525, 537].map((number) => [number, CODE_PADDING]),
  ),
  341: EMPHASIS,
  // Emphasis and strong emphasis
  ...Object.fromEntries(
    [
      351, 352, 354, 358, 359, 360, 362, 363, 365, 366, 367, 368, 371, 372, 374, 375, 379, 380, 383, 384, 385,
      386, 388, 391, 392, 397, 398, 400, 401, 412, 417, 438, 441, 442, 443, 444, 445, 446, 447, 450, 453, 454,
      455, 456, 457, 458, 459, 469, 470, 471, 472, 473, 474, 475, 476, 477, 480, 481, 521, 522, 534, 535, 564,
      618,
    ].map((number) => [number, EMPHASIS]),
  ),
  // Links
  ...Object.fromEntries([488, 490, 491, 508, 545, 568, 569, 571].map((number) => [number, LENIENT_LINK])),
  492: ANGLE_DESTINATION,
  493: ANGLE_DESTINATION,
  494: ANGLE_DESTINATION,
  499: ANGLE_DESTINATION,
  518: NESTED_LINK,
  519: NESTED_LINK,
  532: NESTED_LINK,
  533: NESTED_LINK,
  524: PRECEDENCE,
  526: PRECEDENCE,
  536: PRECEDENCE,
  538: PRECEDENCE,
  540: LABEL,
  541: DEFINITION,
  547: LABEL,
  549: LABEL,
  // Images
  ...Object.fromEntries([573, 587, 588, 589, 591].map((number) => [number, REFERENCE_IMAGE])),
  // Autolinks, raw HTML
  ...Object.fromEntries([602, 606, 610, 619, 620, 621, 622, 624, 632].map((number) => [number, TAG_LIKE])),
  616: TAG_HOLDING_LT,
  604: EMAIL_AUTOLINK,
  605: EMAIL_AUTOLINK,
  626: HTML_SPECIAL,
  629: HTML_SPECIAL,
  // Hard line breaks
  644: TRAILING_BACKSLASH,
  646: TRAILING_BACKSLASH,
};

const sections = [...new Set(specExamples.map((example) => example.section))];

describe('stripMarkdown against the CommonMark 0.31.2 examples', () => {
  it('reads all 652 examples of the specification', () => {
    expect(specExamples).toHaveLength(652);
  });

  it('lists only examples that exist', () => {
    const numbers = new Set(specExamples.map((example) => example.number));
    expect(Object.keys(DIFFERENCES).filter((number) => !numbers.has(Number(number)))).toEqual([]);
  });

  describe.each(sections)('%s', (section) => {
    const examples = specExamples.filter((example) => example.section === section);
    const agreeing = examples.filter((example) => DIFFERENCES[example.number] === undefined);
    const differing = examples.filter((example) => DIFFERENCES[example.number] !== undefined);

    if (agreeing.length > 0)
      it.each(agreeing.map((example) => [example.number, example] as const))(
        'example %i gives the text of its HTML',
        (_number, example) => {
          expect(stripMarkdown(withTabs(example.markdown))).toBe(cardTextOfHtml(withTabs(example.html)));
        },
      );

    if (differing.length > 0)
      it.each(differing.map((example) => [example.number, DIFFERENCES[example.number], example] as const))(
        'example %i differs on purpose: %s',
        (_number, _reason, example) => {
          expect(stripMarkdown(withTabs(example.markdown))).not.toBe(cardTextOfHtml(withTabs(example.html)));
        },
      );
  });
});
