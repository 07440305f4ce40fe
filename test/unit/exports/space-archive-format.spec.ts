import Ajv2020 from 'ajv/dist/2020';
import {
  SPACE_ARCHIVE_README,
  SPACE_ARCHIVE_SCHEMAS,
  schemaDocument,
  schemaPathOf,
} from '../../../src/exports/domain/archive-format';

/** A space's archive layout (docs/decisions/0216-space-export-archive-layout.md, 0217, 0218). */
describe('space export archive format', () => {
  it('has a valid 2020-12 schema for every JSON file, and the README names each file', () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    for (const file of Object.keys(SPACE_ARCHIVE_SCHEMAS)) {
      const document = schemaDocument(file, SPACE_ARCHIVE_SCHEMAS) as { $id: string; title: string };
      expect([document.$id, document.title]).toEqual([schemaPathOf(file), file]);
      expect(() => ajv.compile(document)).not.toThrow();
      expect([file, SPACE_ARCHIVE_README.includes(file)]).toEqual([file, true]);
    }
  });

  it('refuses a member with a private field, and a product whose price has no currency', () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    const members = ajv.compile(schemaDocument('members.json', SPACE_ARCHIVE_SCHEMAS));
    const member = {
      did: 'did:plat:x',
      role: 'member',
      joinedAt: '2026-01-01T00:00:00.000Z',
      statusMessage: null,
    };
    expect(members([member])).toBe(true);
    expect(members([{ ...member, email: 'a@example.com' }])).toBe(false);
    const products = ajv.compile(schemaDocument('products.json', SPACE_ARCHIVE_SCHEMAS));
    const product = {
      id: 'product_0196f0a2c4d87e3f9b1a5c6d7e8f9012',
      spaceId: 'space_0196f0a2c4d87e3f9b1a5c6d7e8f9012',
      slug: 'shirt',
      name: 'Shirt',
      coverId: null,
      prices: [
        { id: 'price_0196f0a2c4d87e3f9b1a5c6d7e8f9012', type: 'one-time', amount: 1, archived: false },
      ],
      published: true,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    };
    expect(products([product])).toBe(false);
    expect(products([{ ...product, prices: [{ ...product.prices[0], currency: 'EUR' }] }])).toBe(true);
  });
});
