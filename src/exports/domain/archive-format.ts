/**
 * The layout of a personal export's archive (docs/decisions/0210-personal-export-archive-layout.md):
 * its files, the JSON Schema of each JSON file and the README that describes them. Pure data: the
 * builder writes it, the tests validate against it.
 */

/** Version of the layout, written into the README and `manifest.json`. */
export const ARCHIVE_FORMAT_VERSION = 1;

const ISO_TIME = { type: 'string', format: 'date-time' } as const;
const NULLABLE_STRING = { type: ['string', 'null'] } as const;
const NULLABLE_TIME = { type: ['string', 'null'], format: 'date-time' } as const;
const WIRE_ID = (prefix: string) => ({ type: 'string', pattern: `^${prefix}_[0-9a-f]{32}$` });
const arrayOf = (item: object) => ({ type: 'array', items: item });

const LOG_ENTRY = {
  type: 'object',
  required: ['cid', 'jwsToken'],
  additionalProperties: false,
  properties: {
    cid: { type: 'string' },
    jwsToken: { type: 'string', pattern: '^[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$' },
  },
};

/** Each JSON file of the archive and its schema (draft 2020-12), in archive order. */
export const ARCHIVE_SCHEMAS: Record<string, object> = {
  'manifest.json': {
    type: 'object',
    required: ['format', 'version', 'did', 'exportId', 'createdAt'],
    properties: {
      format: { const: 'plat-personal-export' },
      version: { const: ARCHIVE_FORMAT_VERSION },
      did: { type: 'string' },
      exportId: WIRE_ID('export'),
      createdAt: ISO_TIME,
    },
  },
  'profile.json': {
    type: 'object',
    required: ['id', 'did', 'handle', 'displayName', 'bio', 'links', 'isPublic', 'createdAt', 'updatedAt'],
    properties: {
      id: { type: 'string' },
      did: { type: 'string' },
      handle: { type: 'string' },
      displayName: NULLABLE_STRING,
      avatarUrl: NULLABLE_STRING,
      bio: NULLABLE_STRING,
      links: { type: 'array' },
      verifiedDomain: NULLABLE_STRING,
      isPublic: { type: 'boolean' },
      email: NULLABLE_STRING,
      createdAt: ISO_TIME,
      updatedAt: ISO_TIME,
    },
  },
  'posts.json': arrayOf({
    type: 'object',
    required: ['id', 'spaceId', 'topicId', 'title', 'body', 'attachmentIds', 'publishedAt', 'updatedAt'],
    properties: {
      id: WIRE_ID('post'),
      spaceId: WIRE_ID('space'),
      topicId: WIRE_ID('topic'),
      title: NULLABLE_STRING,
      body: { type: 'string' },
      slug: { type: 'string' },
      attachmentIds: arrayOf(WIRE_ID('media')),
      upvoteCount: { type: 'integer', minimum: 0 },
      commentCount: { type: 'integer', minimum: 0 },
      isPinned: { type: 'boolean' },
      publishedAt: ISO_TIME,
      updatedAt: ISO_TIME,
      contentId: NULLABLE_STRING,
      headCid: NULLABLE_STRING,
    },
  }),
  'comments.json': arrayOf({
    type: 'object',
    required: ['id', 'postId', 'author', 'body', 'attachments', 'publishedAt'],
    properties: {
      id: WIRE_ID('comment'),
      postId: WIRE_ID('post'),
      parentCommentId: WIRE_ID('comment'),
      author: { type: 'object', required: ['did'], properties: { did: { type: 'string' } } },
      body: NULLABLE_STRING,
      attachments: { type: 'array' },
      publishedAt: ISO_TIME,
      activityAt: ISO_TIME,
      upvoteCount: { type: 'integer', minimum: 0 },
      replyCount: { type: 'integer', minimum: 0 },
    },
  }),
  'memberships.json': arrayOf({
    type: 'object',
    required: ['space', 'role', 'status', 'createdAt'],
    additionalProperties: false,
    properties: {
      space: {
        type: 'object',
        required: ['id', 'did', 'displayName'],
        properties: { id: WIRE_ID('space'), did: { type: 'string' }, displayName: NULLABLE_STRING },
      },
      role: { type: 'string' },
      status: { type: 'string' },
      statusMessage: NULLABLE_STRING,
      joinedAt: NULLABLE_TIME,
      bannedAt: NULLABLE_TIME,
      createdAt: ISO_TIME,
    },
  }),
  'notifications.json': arrayOf({
    type: 'object',
    required: ['id', 'type', 'readState', 'firstActivityAt', 'lastActivityAt', 'createdAt'],
    properties: {
      id: WIRE_ID('notification'),
      type: { type: 'string' },
      spaceId: { oneOf: [WIRE_ID('space'), { type: 'null' }] },
      audience: { type: 'string' },
      scope: {},
      aggregationType: NULLABLE_STRING,
      people: { type: 'array' },
      itemCount: { type: 'integer' },
      readState: { type: 'string' },
      firstActivityAt: ISO_TIME,
      lastActivityAt: ISO_TIME,
      lastReadAt: NULLABLE_TIME,
      createdAt: ISO_TIME,
    },
  }),
  'media.json': arrayOf({
    type: 'object',
    required: ['id', 'filename', 'contentType', 'kind', 'size', 'createdAt', 'path'],
    additionalProperties: false,
    properties: {
      id: WIRE_ID('media'),
      spaceId: { oneOf: [WIRE_ID('space'), { type: 'null' }] },
      filename: { type: 'string' },
      contentType: { type: 'string' },
      kind: { type: 'string' },
      alt: NULLABLE_STRING,
      size: { type: ['integer', 'null'], minimum: 0 },
      createdAt: ISO_TIME,
      path: { type: 'string', pattern: '^media/' },
    },
  }),
  'chains/identity.json': {
    type: 'object',
    required: ['did', 'operations'],
    additionalProperties: false,
    properties: { did: { type: 'string' }, operations: arrayOf(LOG_ENTRY) },
  },
  'chains/signers.json': arrayOf({
    type: 'object',
    required: ['did', 'operations'],
    additionalProperties: false,
    properties: { did: { type: 'string' }, operations: arrayOf(LOG_ENTRY) },
  }),
  'chains/content.json': arrayOf({
    type: 'object',
    required: ['contentId', 'genesisCid', 'headCid', 'isDeleted', 'operations'],
    additionalProperties: false,
    properties: {
      contentId: { type: 'string' },
      genesisCid: { type: 'string' },
      headCid: { type: 'string' },
      isDeleted: { type: 'boolean' },
      // Added without a version bump (docs/decisions/0235): readers take it as optional.
      document: { type: ['object', 'null'] },
      operations: arrayOf(LOG_ENTRY),
    },
  }),
};

/** The schema file of a JSON file: `schemas/posts.schema.json`, `schemas/chains/identity.schema.json`. */
export function schemaPathOf(file: string): string {
  return `schemas/${file.replace(/\.json$/, '.schema.json')}`;
}

/** The schema as written into the archive (with its `$schema` and `$id`), of either layout. */
export function schemaDocument(file: string, schemas: Record<string, object> = ARCHIVE_SCHEMAS): object {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: schemaPathOf(file),
    title: file,
    ...schemas[file],
  };
}

/** Where a media file goes: `media/<media id>/<its filename, made safe>`. */
export function mediaPathOf(mediaId: string, filename: string): string {
  const safe =
    filename
      .replace(/[^A-Za-z0-9._-]+/g, '_')
      .replace(/^\.+/, '_')
      .slice(0, 120) || 'file';
  return `media/${mediaId}/${safe}`;
}

export const ARCHIVE_README = `PLAT personal export, format version ${ARCHIVE_FORMAT_VERSION}
==============================================

This archive holds what the service keeps of one person, asked for by that person.
Every JSON file is UTF-8 and has a JSON Schema (draft 2020-12) under schemas/ with the same
path, e.g. posts.json -> schemas/posts.schema.json. Ids are the API's wire ids (post_..., space_...).
Times are ISO 8601 in UTC.

manifest.json        the format, its version, the person's DID, the export's id and time.
profile.json         the account's own profile, every field (as GET /v1/profile answers it).
posts.json           the person's live posts: full title and body, space, topic, attachment ids.
comments.json        the person's live comments, as the API's Comment record.
memberships.json     every membership row of the person, any status (active, left, banned...),
                     with the space's id, DID and name.
notifications.json   every notification to the person, as stored.
media.json           the files the person uploaded; "path" names each one's bytes in media/.
media/<id>/<name>    the bytes of each uploaded file, as stored (originals, no variants).
chains/identity.json the person's identity chain: its signed operations, genesis first, each
                     {cid, jwsToken} as the relay's per-chain log serves it (WEB-RELAY.md
                     "Per-Chain Logs").
chains/content.json  each content chain of the person: those they created and signed, then those
                     the service's origin identity signs for them (their public posts, their
                     profile); its id, genesis and head CIDs, its current "document" (the one
                     the head's documentCID commits to; null once deleted or no longer held)
                     and its signed operations in the relay's ingestion order (a parent before
                     its children).
chains/signers.json  the identity chains of everyone else who signed an operation in
                     chains/content.json (the service's origin identity), so that every signature
                     can be checked without asking the service.

Verifying the chains: decode each compact JWS, derive the operation CID from its payload
(dag-cbor, PROTOCOL.md) and compare it with "cid"; check each signature with the key its "kid"
names (identity.json for the person's own operations, signers.json for the others), genesis
first, as PROTOCOL.md "Verification" says. The chains are
self-contained: no request to the service is needed.

The archive is complete or absent: it is stored only once every file was written.
`;

/**
 * The layout of a space's export (issue 35 item 4; docs/decisions/0216-space-export-archive-layout.md):
 * each JSON file and its schema, in archive order. Posts and comments have the personal layout's
 * shapes; the space, its topics and pages the administration views'; members the members list's;
 * media.json the personal layout's (docs/decisions/0217-space-export-media.md).
 */
export const SPACE_ARCHIVE_SCHEMAS: Record<string, object> = {
  'manifest.json': {
    type: 'object',
    required: ['format', 'version', 'space', 'requestedBy', 'exportId', 'createdAt'],
    additionalProperties: false,
    properties: {
      format: { const: 'plat-space-export' },
      version: { const: ARCHIVE_FORMAT_VERSION },
      space: {
        type: 'object',
        required: ['id', 'did'],
        additionalProperties: false,
        properties: { id: WIRE_ID('space'), did: { type: 'string' } },
      },
      requestedBy: { type: 'string' },
      exportId: WIRE_ID('export'),
      createdAt: ISO_TIME,
    },
  },
  'space.json': {
    type: 'object',
    required: ['id', 'did', 'displayName', 'isPublic', 'joinMode', 'links', 'role', 'createdAt', 'updatedAt'],
    properties: {
      id: WIRE_ID('space'),
      did: { type: 'string' },
      domain: NULLABLE_STRING,
      displayName: { type: 'string' },
      description: NULLABLE_STRING,
      avatarId: { oneOf: [WIRE_ID('media'), { type: 'null' }] },
      bannerId: { oneOf: [WIRE_ID('media'), { type: 'null' }] },
      backgroundId: { oneOf: [WIRE_ID('media'), { type: 'null' }] },
      links: { type: 'array' },
      isPublic: { type: 'boolean' },
      joinMode: { type: 'string' },
      siteMode: { type: 'string' },
      subscribeEnabled: { type: 'boolean' },
      category: NULLABLE_STRING,
      discoveryOptIn: { type: 'boolean' },
      verifiedDomain: NULLABLE_STRING,
      applicationQuestions: { type: 'array' },
      memberCount: { type: ['integer', 'null'] },
      role: { const: 'owner' },
      lastActivityAt: NULLABLE_TIME,
      createdAt: ISO_TIME,
      updatedAt: ISO_TIME,
    },
  },
  'topics.json': arrayOf({
    type: 'object',
    required: ['id', 'spaceId', 'name', 'description', 'access', 'createdAt', 'updatedAt'],
    additionalProperties: false,
    properties: {
      id: WIRE_ID('topic'),
      spaceId: WIRE_ID('space'),
      name: { type: 'string' },
      description: NULLABLE_STRING,
      access: {
        oneOf: [
          { type: 'string' },
          {
            type: 'object',
            required: ['groups'],
            properties: { groups: arrayOf(WIRE_ID('group')) },
          },
        ],
      },
      createdAt: ISO_TIME,
      updatedAt: ISO_TIME,
    },
  }),
  'pages.json': arrayOf({
    type: 'object',
    required: [
      'id',
      'spaceId',
      'slug',
      'title',
      'body',
      'coverId',
      'sortOrder',
      'enabled',
      'createdAt',
      'updatedAt',
    ],
    additionalProperties: false,
    properties: {
      id: WIRE_ID('page'),
      spaceId: WIRE_ID('space'),
      slug: { type: 'string' },
      title: { type: 'string' },
      body: { type: 'string' },
      coverId: { oneOf: [WIRE_ID('media'), { type: 'null' }] },
      sortOrder: { type: 'integer' },
      enabled: { type: 'boolean' },
      createdAt: ISO_TIME,
      updatedAt: ISO_TIME,
    },
  }),
  'posts.json': ARCHIVE_SCHEMAS['posts.json'],
  'comments.json': ARCHIVE_SCHEMAS['comments.json'],
  'members.json': arrayOf({
    type: 'object',
    required: ['did', 'role', 'joinedAt'],
    additionalProperties: false,
    properties: {
      did: { type: 'string' },
      role: { type: 'string' },
      joinedAt: ISO_TIME,
      statusMessage: NULLABLE_STRING,
    },
  }),
  'events.json': arrayOf({
    type: 'object',
    required: [
      'id',
      'spaceId',
      'title',
      'type',
      'isAllDay',
      'coverId',
      'visibility',
      'createdAt',
      'updatedAt',
    ],
    additionalProperties: false,
    properties: {
      id: WIRE_ID('evt'),
      spaceId: WIRE_ID('space'),
      title: { type: 'string' },
      description: NULLABLE_STRING,
      location: NULLABLE_STRING,
      type: { type: 'string' },
      mode: NULLABLE_STRING,
      url: NULLABLE_STRING,
      isAllDay: { type: 'boolean' },
      startsAt: NULLABLE_TIME,
      endsAt: NULLABLE_TIME,
      timeZone: NULLABLE_STRING,
      startDate: NULLABLE_STRING,
      endDate: NULLABLE_STRING,
      rrule: NULLABLE_STRING,
      coverId: { oneOf: [WIRE_ID('media'), { type: 'null' }] },
      requiresTicket: { type: 'boolean' },
      ticketProductIds: { type: 'array', items: { type: 'string' } },
      visibility: { type: 'string' },
      createdAt: ISO_TIME,
      updatedAt: ISO_TIME,
    },
  }),
  'products.json': arrayOf({
    type: 'object',
    required: ['id', 'spaceId', 'slug', 'name', 'coverId', 'prices', 'published', 'createdAt', 'updatedAt'],
    additionalProperties: false,
    properties: {
      id: WIRE_ID('product'),
      spaceId: WIRE_ID('space'),
      slug: { type: 'string' },
      name: { type: 'string' },
      description: NULLABLE_STRING,
      coverId: { oneOf: [WIRE_ID('media'), { type: 'null' }] },
      sortOrder: { type: 'integer' },
      prices: arrayOf({
        type: 'object',
        required: ['id', 'type', 'currency', 'amount', 'archived'],
        additionalProperties: false,
        properties: {
          id: WIRE_ID('price'),
          type: { type: 'string' },
          currency: { type: 'string' },
          amount: { type: 'integer' },
          suggestedAmount: { type: 'integer' },
          interval: { type: 'string' },
          archived: { type: 'boolean' },
        },
      }),
      isSoldOut: { type: 'boolean' },
      purchasable: { type: 'boolean' },
      published: { type: 'boolean' },
      createdAt: ISO_TIME,
      updatedAt: ISO_TIME,
    },
  }),
  'releases.json': arrayOf({
    type: 'object',
    required: [
      'id',
      'spaceId',
      'slug',
      'title',
      'coverId',
      'credits',
      'productIds',
      'published',
      'createdAt',
    ],
    additionalProperties: false,
    properties: {
      id: WIRE_ID('release'),
      spaceId: WIRE_ID('space'),
      slug: { type: 'string' },
      title: { type: 'string' },
      description: NULLABLE_STRING,
      coverId: { oneOf: [WIRE_ID('media'), { type: 'null' }] },
      credits: arrayOf({
        type: 'object',
        required: ['name'],
        properties: { name: { type: 'string' }, role: NULLABLE_STRING, did: NULLABLE_STRING },
      }),
      productIds: arrayOf(WIRE_ID('product')),
      published: { type: 'boolean' },
      publishedAt: NULLABLE_TIME,
      createdAt: ISO_TIME,
      updatedAt: ISO_TIME,
    },
  }),
  'media.json': ARCHIVE_SCHEMAS['media.json'],
  // The personal layout's chain files, of the space (docs/decisions/0235): optional to a reader.
  'chains/identity.json': ARCHIVE_SCHEMAS['chains/identity.json'],
  'chains/content.json': ARCHIVE_SCHEMAS['chains/content.json'],
  'chains/signers.json': ARCHIVE_SCHEMAS['chains/signers.json'],
};

export const SPACE_ARCHIVE_README = `PLAT space export, format version ${ARCHIVE_FORMAT_VERSION}
===========================================

This archive holds what the service keeps of one space, asked for by its owner.
Every JSON file is UTF-8 and has a JSON Schema (draft 2020-12) under schemas/ with the same
path, e.g. posts.json -> schemas/posts.schema.json. Ids are the API's wire ids (post_..., space_...).
Times are ISO 8601 in UTC.

manifest.json   the format, its version, the space's id and DID, who asked, the export's id and time.
space.json      the space's settings, as its owner's GET /spaces/{space} shows them.
topics.json     every live topic, whatever its access, as the topics administration lists them.
pages.json      every page, disabled ones included, as the pages administration lists them.
posts.json      every live post of the space, any author: full title and body, topic, attachments.
comments.json   every live comment of the space, as the API's Comment record (as the owner reads it).
members.json    the active members as the members list shows them (DID, role, joined, status
                message): nothing private.
events.json     every event of the space, any visibility, as its administration record (the
                cover by its media id).
products.json   every live product of the store, published or not, as its administration record:
                every price (archived ones too, amounts in minor units), the cover by its media id.
releases.json   every live release, published or not, as its administration record: credits,
                its product ids in order, the cover by its media id.
media.json      the space's uploaded files, any uploader; "path" names each one's bytes in media/.
media/<id>/<name>  the bytes of each file, as stored (originals, no variants).
chains/identity.json  the space's identity chain: its signed operations, genesis first, each
                {cid, jwsToken} as the relay's per-chain log serves it (WEB-RELAY.md
                "Per-Chain Logs").
chains/content.json   the content chains of the space's public content: those the space's
                identity created, then those the service's origin identity signs for it (each
                public post's, whose id and head posts.json names as contentId and headCid, and
                the space's public profile's); each with its id, genesis and head CIDs, its
                current "document" (the one the head's documentCID commits to; null once
                deleted) and its signed operations, a parent before its children.
chains/signers.json   the identity chains of everyone else who signed an operation in
                chains/content.json (the service's origin identity).

Verifying the chains: decode each compact JWS, derive the operation CID from its payload
(dag-cbor, PROTOCOL.md) and compare it with "cid"; check each signature with the key its "kid"
names (identity.json or signers.json), genesis first, as PROTOCOL.md "Verification" says; the
CID of "document" is the head's documentCID. A public post's record in posts.json has the title
and the above-fold body its chain's post/v1 document holds. No request to the service is needed.
An import into another instance verifies all of this first when chains/ is present.

The archive is complete or absent: it is stored only once every file was written.
`;
