import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PageEnvelope } from '../../common/pagination/page-envelope.dto';
import { SpaceCallToAction } from '../../posts';
import { MediaObject } from '../../media';
import { PRICE_INTERVALS, PRICE_TYPES } from '../domain/store-rules';

const PRODUCT_ID_EXAMPLE = 'product_0190f1a2b3c4d5e6f708192a3b4c5d6e';
const RELEASE_ID_EXAMPLE = 'release_0190f1a2b3c4d5e6f708192a3b4c5d6e';
const OPEN_ENUM = 'open enum: treat unknown values as opaque';
const COVER =
  'the image set with `coverId` (a public image object: permanent unsigned URL, no urlExpiresAt); ' +
  'null when none is set or the image is no longer ready';

/** A price (design.md §9). Public records carry only active one-time and pay-what-you-want ones. */
export class PriceRecord {
  @ApiProperty({ example: 'price_0190f1a2b3c4d5e6f708192a3b4c5d6e' })
  id: string;

  @ApiProperty({ enum: PRICE_TYPES, description: OPEN_ENUM })
  type: string;

  @ApiProperty({ example: 'EUR', description: 'ISO 4217' })
  currency: string;

  @ApiProperty({ minimum: 0, description: 'minor units; the minimum for pay-what-you-want' })
  amount: number;

  @ApiPropertyOptional({ minimum: 0, description: 'pay-what-you-want only, when set' })
  suggestedAmount?: number;

  @ApiPropertyOptional({ enum: PRICE_INTERVALS, description: 'recurring only' })
  interval?: string;

  @ApiProperty()
  archived: boolean;
}

/** A ticket entry (api-spec.md "Event occurrence", design.md §12): a product as events list it. */
export class TicketEntry {
  @ApiProperty({ example: PRODUCT_ID_EXAMPLE, description: 'stable' })
  id: string;

  @ApiProperty({ description: 'mutable alias' })
  slug: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ type: [PriceRecord], description: 'active one-time and pay-what-you-want prices' })
  prices: PriceRecord[];

  @ApiProperty({ description: 'advisory' })
  isSoldOut: boolean;

  @ApiProperty({ description: 'whether a purchase can start now; independent of isSoldOut' })
  purchasable: boolean;
}

/** A published product's card (design.md §13): the listing item and a release's product. */
export class ProductCard extends TicketEntry {
  @ApiProperty({ type: MediaObject, nullable: true, description: COVER })
  cover: MediaObject | null;
}

export class ReleaseReference {
  @ApiProperty({ example: RELEASE_ID_EXAMPLE })
  id: string;

  @ApiProperty()
  slug: string;

  @ApiProperty()
  title: string;
}

/** The purchase page (design.md §13). */
export class ProductPage extends ProductCard {
  @ApiProperty({ type: String, nullable: true })
  description: string | null;

  @ApiProperty({
    type: ReleaseReference,
    nullable: true,
    description: 'the most recently published release listing the product',
  })
  release: ReleaseReference | null;

  @ApiProperty({ type: SpaceCallToAction })
  space: SpaceCallToAction;

  @ApiProperty({ example: 'https://makers.example.com/store/poster' })
  canonicalUri: string;
}

export class ProductCardListing extends PageEnvelope {
  @ApiProperty({ type: [ProductCard] })
  items: ProductCard[];
}

/** A release in the listing (design.md §13). */
export class ReleaseCard {
  @ApiProperty({ example: RELEASE_ID_EXAMPLE })
  id: string;

  @ApiProperty({ description: 'mutable alias' })
  slug: string;

  @ApiProperty()
  title: string;

  @ApiProperty({ type: MediaObject, nullable: true, description: COVER })
  cover: MediaObject | null;

  @ApiProperty({ format: 'date-time', description: 'when it was first published' })
  publishedAt: string;

  @ApiProperty({ example: 'https://makers.example.com/release/first-record' })
  canonicalUri: string;
}

export class CreditRecord {
  @ApiProperty()
  name: string;

  @ApiProperty()
  role: string;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'public records: null when the person has no public profile',
  })
  did: string | null;
}

/** A release by id or slug (design.md §13). */
export class FullRelease extends ReleaseCard {
  @ApiProperty({ type: String, nullable: true })
  description: string | null;

  @ApiProperty({ type: [CreditRecord] })
  credits: CreditRecord[];

  @ApiProperty({ type: [ProductCard], description: 'published products, in the release’s order' })
  products: ProductCard[];
}

export class ReleaseCardListing extends PageEnvelope {
  @ApiProperty({ type: [ReleaseCard] })
  items: ReleaseCard[];
}

// ---------------------------------------------------------------------------------------------
// administration records (design.md §9: each write answers the written record)

export class ProductAdminRecord {
  @ApiProperty({ example: PRODUCT_ID_EXAMPLE })
  id: string;

  @ApiProperty({ example: 'space_0190f1a2b3c4d5e6f708192a3b4c5d6e' })
  spaceId: string;

  @ApiProperty()
  slug: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ type: String, nullable: true })
  description: string | null;

  @ApiProperty({ type: MediaObject, nullable: true, description: COVER })
  cover: MediaObject | null;

  @ApiProperty()
  sortOrder: number;

  @ApiProperty({ type: [PriceRecord], description: 'every price, archived and recurring included' })
  prices: PriceRecord[];

  @ApiProperty()
  isSoldOut: boolean;

  @ApiProperty()
  purchasable: boolean;

  @ApiProperty()
  published: boolean;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt: string;
}

export class ReleaseAdminRecord {
  @ApiProperty({ example: RELEASE_ID_EXAMPLE })
  id: string;

  @ApiProperty({ example: 'space_0190f1a2b3c4d5e6f708192a3b4c5d6e' })
  spaceId: string;

  @ApiProperty()
  slug: string;

  @ApiProperty()
  title: string;

  @ApiProperty({ type: String, nullable: true })
  description: string | null;

  @ApiProperty({ type: MediaObject, nullable: true, description: COVER })
  cover: MediaObject | null;

  @ApiProperty({ type: [CreditRecord], description: 'as written' })
  credits: CreditRecord[];

  @ApiProperty({ type: [String], example: [PRODUCT_ID_EXAMPLE], description: 'live products, in order' })
  productIds: string[];

  @ApiProperty()
  published: boolean;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'first publication' })
  publishedAt: string | null;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt: string;
}
