import { Injectable } from '@nestjs/common';
import { CommentItemsService } from '../../comments';
import { formatEntityId } from '../../common/ids/entity-id';
import { PostCardsService } from '../../posts';
import { SpacePagesService, SpaceView } from '../../spaces';
import { HitType, SearchHit } from '../domain/search-backend';
import { SearchResult } from '../dto/search-records.dto';
import { SearchItemsService } from './search-items.service';

/** Whom the items are shown to: each owner's `viewer` rule, and the spaces with a public profile. */
export interface Readers {
  /** The reader of post cards (null: the public projection, no `viewer`). */
  posts: string | null;
  /** The viewer of comments (null: nobody's upvotes). */
  comments: string | null;
  /** The spaces with a public profile in the search, for the event cards' space block. */
  publicSpaces: SpaceView[];
}

/**
 * Hits as results: each kind's items from its owner's batch service, one call per kind present on
 * the page (posts' cards, comments' items, pages' list items, events' occurrence cards, registered with SearchItemsService). A hit whose
 * item is gone by now (deleted between the two reads, or an event with no occurrence left) is left out.
 */
@Injectable()
export class SearchPresenter {
  constructor(
    private readonly posts: PostCardsService,
    private readonly comments: CommentItemsService,
    private readonly pages: SpacePagesService,
    private readonly items: SearchItemsService,
  ) {}

  async results(hits: SearchHit[], readers: Readers): Promise<SearchResult[]> {
    const idsOf = (type: HitType) => hits.filter((hit) => hit.type === type).map((hit) => hit.id);
    const [posts, comments, pages, events] = await Promise.all([
      this.posts
        .cardsFor(readers.posts, idsOf('post'))
        .then((cards) => new Map(cards.map((card) => [card.id, card]))),
      this.comments.itemsOf(readers.comments, idsOf('comment')),
      this.pages.publicItemsOf(idsOf('page')),
      this.items.events(idsOf('event'), new Map(readers.publicSpaces.map((space) => [space.id, space]))),
    ]);
    return hits.flatMap((hit) => {
      const item =
        hit.type === 'post'
          ? posts.get(formatEntityId('post', hit.id))
          : hit.type === 'comment'
            ? comments.get(hit.id)
            : hit.type === 'page'
              ? pages.get(hit.id)
              : events.get(hit.id);
      return item ? [{ type: hit.type, item, highlight: hit.highlight }] : [];
    });
  }
}
