import { Injectable } from '@nestjs/common';
import { CommentsRepository } from '../comments.repository';
import { CommentItem } from '../dto/comment-records.dto';
import { CommentsPresenter } from './comments.presenter';

/**
 * Comments for other modules (search results): the listing's items of many comments at once, one
 * statement for the comments plus the presenter's batch reads. The caller decides who reads which
 * comments (its statement filters by the posts module's rule); this only shows them.
 */
@Injectable()
export class CommentItemsService {
  constructor(
    private readonly comments: CommentsRepository,
    private readonly presenter: CommentsPresenter,
  ) {}

  /**
   * The items (as in a thread's listing, `viewer` for `viewerDid`, null: nobody's upvotes) of the
   * live comments among `commentIds` (uuid), by id; a deleted one has none. No statement for none.
   */
  async itemsOf(viewerDid: string | null, commentIds: readonly string[]): Promise<Map<string, CommentItem>> {
    const unique = [...new Set(commentIds)];
    if (unique.length === 0) return new Map();
    const rows = await this.comments.liveByIds(unique);
    const items = await this.presenter.items(viewerDid, rows);
    return new Map(rows.map((row, index) => [row.id, items[index]]));
  }
}
