import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An `identity` notification keeps its 20 most recent people (docs/decisions/0100-bounded-notification-people.md; PEOPLE_KEPT in
 * src/notifications/notification-sql.ts): groups that gathered more before are cut to them, their
 * `item_count` (which counts them all) kept. Data only: `down` cannot give the cut people back.
 */
export class BoundedNotificationPeople1796530000000 implements MigrationInterface {
  name = 'BoundedNotificationPeople1796530000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `UPDATE "notifications"
          SET "item_count" = GREATEST("item_count", jsonb_array_length("people")),
              "people" = (SELECT jsonb_agg(p.value ORDER BY p.ord)
                            FROM jsonb_array_elements("people") WITH ORDINALITY AS p(value, ord)
                           WHERE p.ord <= 20)
        WHERE jsonb_array_length("people") > 20`,
    );
  }

  async down(): Promise<void> {
    // Nothing to undo: the longer arrays are gone, and the shorter ones are valid before too.
  }
}
