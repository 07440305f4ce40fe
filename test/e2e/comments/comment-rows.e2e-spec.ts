import { COMMENT_COLUMNS, commentOfRow, CommentRow } from '../../../src/comments/comments.repository';
import { Comment } from '../../../src/comments/entities/comment.entity';
import { Actor } from '../../support/actors';
import {
  bootSpaces,
  comment,
  expectStatus,
  insertPost,
  makePublic,
  newSpace,
  newTopic,
  person,
  SpacesTestApp,
} from './support';

/** Comment pages map raw rows explicitly (docs/decisions/0084-hot-reads-on-fixed-sql-with-explicit-row-mapping.md):
 * the same comments TypeORM hydrates. */
describe('comment rows', () => {
  let t: SpacesTestApp;
  let alice: Actor;

  beforeAll(async () => {
    t = await bootSpaces();
    alice = await person(t);
  });

  afterAll(() => t?.close());

  it('map every column as TypeORM does, deleted and reply rows included', async () => {
    const space = (await newSpace(alice)).id;
    await makePublic(alice, space);
    const topic = await newTopic(alice, space, 'public');
    const postId = await insertPost(t, space, topic, alice.did);
    const root = await comment(alice, space, postId, { body: 'root' });
    await comment(alice, space, postId, { body: 'reply', parentCommentId: root.id });
    const gone = await comment(alice, space, postId, { body: 'gone' });
    expectStatus(await alice.delete(`/v1/spaces/${space}/comments/${gone.id}`), 200);

    const query = () => t.dataSource.getRepository(Comment).createQueryBuilder('c').orderBy('c.id');
    const hydrated = await query().getMany();
    expect(hydrated).toHaveLength(3);
    expect(hydrated.some((row) => row.deletedAt !== null && row.parentCommentId === null)).toBe(true);
    const rows: CommentRow[] = await t.dataSource.query(
      `SELECT ${COMMENT_COLUMNS} FROM comments ORDER BY id`,
    );
    expect(rows.map(commentOfRow)).toEqual(hydrated);
  });
});
