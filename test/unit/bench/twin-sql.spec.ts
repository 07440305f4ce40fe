import * as app from '../../../src/spaces/repositories/spaces.repository';
import * as twinRows from '../../../bench/twin/rows';
import * as twinStore from '../../../bench/twin/store';
import * as appStore from '../../../src/store/repositories/products.repository';
import { POSTS_STATEMENTS } from '../../../src/posts/repositories/posts.repository';
import * as twinMedia from '../../../bench/twin/media';
import * as appMedia from '../../../src/media/media.repository';
import * as twinNotify from '../../../bench/twin/notify';
import { POST_READERS_STATEMENTS } from '../../../src/posts/repositories/post-readers.repository';
import * as twinEvents from '../../../bench/twin/events';
import * as twinSpaces from '../../../bench/twin/spaces';
import * as twinPosts from '../../../bench/twin/posts';
import * as appCards from '../../../src/posts/repositories/post-cards.repository';
import * as appSlots from '../../../src/events/repositories/occurrences.repository';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ts from 'typescript';
import { getMetadataArgsStorage } from 'typeorm';
import { Media } from '../../../src/media/entities/media.entity';

const appPosts = { LIVE_POST_IN_SPACE: POSTS_STATEMENTS.livePostInSpace };
const appAudience = {
  POST_SUBJECT: POST_READERS_STATEMENTS.postSubject,
  READERS_OF_POST: POST_READERS_STATEMENTS.readersOfPost,
};

/**
 * The twins send the app's fixed SQL text where the app has fixed SQL (bench/README.md "Same
 * statements"): a change on the app's side fails here before it makes the comparison unfair.
 */
describe('bench twin statements', () => {
  it("has no SQL of its own: every statement is imported from the app's repositories", () => {
    const twinDir = join(__dirname, '../../../bench/twin');
    // A statement's first keyword, upper case as every statement here is written, or any case
    // when a clause of it follows (`select … from`, `update … set`).
    const statement =
      /^\s*(SELECT|INSERT|UPDATE|DELETE|WITH)\s|^\s*(select|insert|update|delete|with)\s[\s\S]*\b(from|into|set|as)\b/i;
    const found: string[] = [];
    for (const name of readdirSync(twinDir).filter((file) => file.endsWith('.ts'))) {
      const source = ts.createSourceFile(
        name,
        readFileSync(join(twinDir, name), 'utf8'),
        ts.ScriptTarget.Latest,
      );
      const visit = (node: ts.Node): void => {
        const text =
          ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)
            ? node.text
            : ts.isTemplateExpression(node)
              ? node.head.text
              : null;
        // `SELECT 1`: the health routes' pool check, as PoolLiveness sends it.
        if (text !== null && statement.test(text) && text.trim() !== 'SELECT 1') {
          const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
          found.push(`${name}:${line + 1}: ${text.trim().slice(0, 60)}`);
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    expect(found).toEqual([]);
  });

  it('reads topics with the text of space-rows.ts', () => {
    expect(twinRows.TOPICS_OF_SPACES).toBe(app.TOPICS_OF_SPACES);
    expect(twinRows.TOPICS_OF_SPACES_WITH_ACCESS).toBe(app.TOPICS_OF_SPACES_WITH_ACCESS);
    expect(twinRows.TOPIC_OF_SPACE).toBe(app.TOPIC_OF_SPACE);
  });

  it("reads directory pages with directoryPageStatement's text and parameters", () => {
    for (const after of [null, ['2026-11-27T10:00:00.000Z', 'a1b2']]) {
      expect(twinSpaces.directoryPage(after, 101)).toEqual(
        app.directoryPageStatement({}, { values: after, backward: false, take: 101 }),
      );
    }
  });

  it("reads a single post with post-rows.ts' text", () => {
    expect(twinRows.LIVE_POST_IN_SPACE).toBe(appPosts.LIVE_POST_IN_SPACE);
  });

  it("reads public prices, the purchase page's product and its release with store-rows.ts' text", () => {
    expect(twinStore.PUBLIC_PRICES_OF_PRODUCTS).toBe(appStore.PUBLIC_PRICES_OF_PRODUCTS);
    expect(twinStore.PUBLISHED_PRODUCT_BY_SLUG).toBe(appStore.PUBLISHED_PRODUCT_BY_SLUG);
    expect(twinStore.LATEST_RELEASE_OF_PRODUCT).toBe(appStore.LATEST_RELEASE_OF_PRODUCT);
  });

  it("reads product pages with productCardsPageStatement's text and parameters", () => {
    for (const after of [null, [3, 'a1b2']]) {
      expect(twinStore.productPage('s', after, 101)).toEqual(
        appStore.productCardsPageStatement('s', { values: after, backward: false, take: 101 }),
      );
    }
  });

  it("reads a space's posts page with spacePostsPageStatement's text and parameters", () => {
    for (const after of [null, ['2026-11-27T10:00:00.000Z', 'a1b2']]) {
      expect(twinPosts.spacePostsPage('s', ['t1', 't2'], after, 101)).toEqual(
        appCards.spacePostsPageStatement(
          's',
          ['t1', 't2'],
          {},
          { values: after, backward: false, take: 101 },
          'DESC',
        ),
      );
    }
  });

  it('reads a media row with every column of the Media entity, as MediaRows.byId does', () => {
    const entityColumns = getMetadataArgsStorage()
      .columns.filter((column) => column.target === Media)
      .map((column) => column.options.name ?? column.propertyName);
    expect(twinMedia.MEDIA_COLUMNS.split(', ').sort()).toEqual(entityColumns.sort());
    expect(twinMedia.MEDIA_BY_ID).toBe(appMedia.MEDIA_STATEMENTS.byId);
  });

  it("looks up a comment's or upvote's post and its author's reading with content-audience.ts' text", () => {
    expect(twinNotify.POST_SUBJECT).toBe(appAudience.POST_SUBJECT);
    expect(twinNotify.READERS_OF_POST).toBe(appAudience.READERS_OF_POST);
  });

  it("reads the event listings' horizon and pages with occurrence-slots.ts' text and parameters", () => {
    expect(twinEvents.OCCURRENCE_STATE).toBe(appSlots.OCCURRENCE_STATE);
    const window = { from: new Date('2026-12-01T10:00:00Z'), to: new Date('2027-03-01T10:00:00Z') };
    const lower = new Date('2026-11-30T10:00:00Z');
    const seek = {
      startMs: Date.parse('2026-12-24T18:00:00Z'),
      eventId: 'e',
      recurrenceId: '2026-12-24T19:00',
    };
    for (const scope of [{ spaceId: 's' }, { discoverable: true as const }])
      for (const position of [null, seek])
        for (const backward of [false, true]) {
          const app = appSlots.occurrencePageStatement(scope, window, lower, position, backward, 21);
          expect(twinEvents.occurrencePageStatement(scope, window, lower, position, backward, 21)).toEqual(
            app,
          );
        }
  });
});
