import Ajv2020 from 'ajv/dist/2020';
import {
  ARCHIVE_SCHEMAS,
  mediaPathOf,
  schemaDocument,
  schemaPathOf,
} from '../../../src/exports/domain/archive-format';

/** The archive's layout (docs/decisions/0210-personal-export-archive-layout.md). */
describe('personal export archive format', () => {
  it('names each file of the person’s media inside media/<id>/, whatever its filename', () => {
    const id = 'media_0196f0a2c4d87e3f9b1a5c6d7e8f9012';
    expect(mediaPathOf(id, 'my photo.png')).toBe(`media/${id}/my_photo.png`);
    expect(mediaPathOf(id, '../../etc/passwd')).toBe(`media/${id}/__.._etc_passwd`);
    expect(mediaPathOf(id, '..')).toBe(`media/${id}/_`);
    expect(mediaPathOf(id, 'ünïcødé ∞.pdf')).toBe(`media/${id}/_n_c_d_.pdf`);
    expect(mediaPathOf(id, '')).toBe(`media/${id}/file`);
    expect(mediaPathOf(id, 'x'.repeat(300)).length).toBe(`media/${id}/`.length + 120);
  });

  it('has a schema beside every JSON file, each a valid 2020-12 schema', () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    for (const file of Object.keys(ARCHIVE_SCHEMAS)) {
      expect(schemaPathOf(file)).toBe(`schemas/${file.replace(/\.json$/, '.schema.json')}`);
      expect(() => ajv.compile(schemaDocument(file))).not.toThrow();
    }
  });

  it('refuses rows that break a schema', () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    const posts = ajv.compile(schemaDocument('posts.json'));
    expect(posts([{ id: 'post_nothex', spaceId: 'x', topicId: 'y', title: null, body: 1 }])).toBe(false);
    const identity = ajv.compile(schemaDocument('chains/identity.json'));
    expect(identity({ did: 'did:plat:x', operations: [{ cid: 'b', jwsToken: 'not a jws' }] })).toBe(false);
  });
});
