import { Injectable } from '@nestjs/common';
import { PostCard } from '../dto/post-records.dto';
import { PostCardsRepository } from '../repositories/post-cards.repository';
import { PostPresenter } from './post.presenter';

/**
 * Post cards for other modules (a list of saved or mentioned posts): the cards of many posts, of
 * any spaces, as one reader sees them, in one statement for the posts (plus one for their authors).
 */
@Injectable()
export class PostCardsService {
  constructor(
    private readonly cards: PostCardsRepository,
    private readonly presenter: PostPresenter,
  ) {}

  /**
   * The cards (as in a space's listing) of the posts `postIds` (uuid) that `readerDid` reads in
   * full now (null: nobody signed in), in the order asked; a post deleted, gated or unreadable to
   * them has no card. `viewer` is on the cards of spaces where the reader is an active member.
   * No statement for no id.
   */
  async cardsFor(readerDid: string | null, postIds: readonly string[]): Promise<PostCard[]> {
    const unique = [...new Set(postIds)];
    if (unique.length === 0) return [];
    const read = await this.cards.forReader(readerDid, unique);
    const order = new Map(unique.map((id, index) => [id, index]));
    read.sort((a, b) => order.get(a.post.id)! - order.get(b.post.id)!);
    return this.presenter.readerCards(read);
  }
}
