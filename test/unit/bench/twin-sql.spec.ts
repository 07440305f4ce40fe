import * as app from '../../../src/spaces/space-rows';
import * as twinRows from '../../../bench/twin/rows';
import * as twinWrites from '../../../bench/twin/writes';
import * as twinStore from '../../../bench/twin/store';
import * as appStore from '../../../src/store/store-rows';
import * as appPosts from '../../../src/posts/post-rows';
import * as twinMedia from '../../../bench/twin/media';
import * as appMedia from '../../../src/media/media-row-sql';
import * as twinNotify from '../../../bench/twin/notify';
import * as appAudience from '../../../src/notifications/content-audience';
import { getMetadataArgsStorage } from 'typeorm';
import { Media } from '../../../src/media/entities/media.entity';

/**
 * The twins send the app's fixed SQL text where the app has fixed SQL (bench/README.md "Same
 * statements"): a change on the app's side fails here before it makes the comparison unfair.
 */
describe('bench twin statements', () => {
  it('reads topics with the text of space-rows.ts', () => {
    expect(twinRows.TOPICS_OF_SPACES).toBe(app.TOPICS_OF_SPACES);
    expect(twinRows.TOPICS_OF_SPACES_WITH_ACCESS).toBe(app.TOPICS_OF_SPACES_WITH_ACCESS);
    expect(twinRows.TOPIC_OF_SPACE).toBe(app.TOPIC_OF_SPACE);
  });

  it("reads a single post with post-rows.ts' text", () => {
    expect(twinRows.LIVE_POST_IN_SPACE).toBe(appPosts.LIVE_POST_IN_SPACE);
  });

  it("reads the post write's space, membership and topic with findForWrite's text", () => {
    expect(twinWrites.SPACE_FOR_WRITE_BY_DOMAIN).toBe(app.SPACE_FOR_WRITE_BY_DOMAIN);
  });

  it("reads public prices and the purchase page's product with store-rows.ts' text", () => {
    expect(twinStore.PUBLIC_PRICES_OF_PRODUCTS).toBe(appStore.PUBLIC_PRICES_OF_PRODUCTS);
    expect(twinStore.PUBLISHED_PRODUCT_BY_SLUG).toBe(appStore.PUBLISHED_PRODUCT_BY_SLUG);
  });

  it('reads a media row with every column of the Media entity, as MediaRows.byId does', () => {
    const entityColumns = getMetadataArgsStorage()
      .columns.filter((column) => column.target === Media)
      .map((column) => column.options.name ?? column.propertyName);
    expect(twinMedia.MEDIA_COLUMNS.split(', ').sort()).toEqual(entityColumns.sort());
    expect(twinMedia.MEDIA_BY_ID).toBe(appMedia.MEDIA_BY_ID);
  });

  it("looks up a comment's or upvote's post and its author's reading with content-audience.ts' text", () => {
    expect(twinNotify.POST_SUBJECT).toBe(appAudience.POST_SUBJECT);
    expect(twinNotify.READERS_OF_POST).toBe(appAudience.READERS_OF_POST);
  });
});
