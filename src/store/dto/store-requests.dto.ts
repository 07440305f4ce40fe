import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';
import { NestedRecords } from '../../common/validation/nested-records';
import { Present, DID_PATTERN } from '../../spaces';
import {
  CURRENCY_CODES,
  PRICE_INTERVALS,
  PRICE_TYPES,
  PriceInterval,
  PriceType,
  STORE_LIMITS,
  STORE_SLUG_PATTERN,
} from '../domain/store-rules';
import { Holds } from './holds';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);
/** Optional members where null means "none". */
const NotNull = () => ValidateIf((_object: object, value: unknown) => value !== undefined && value !== null);
const SLUG_MESSAGE = 'slug must be 1 to 80 lower-case letters, digits and hyphens';
const COVER_DESCRIPTION = 'a ready image uploaded by the caller (media id); null clears, absent keeps';

export class PriceInput {
  @ApiPropertyOptional({
    example: 'price_0190f1a2b3c4d5e6f708192a3b4c5d6e',
    description: 'on PUT, an existing price of the product keeps its id; new prices leave it out',
  })
  @Present()
  @IsString()
  @MaxLength(64)
  id?: string;

  @ApiProperty({ enum: PRICE_TYPES })
  @IsIn(PRICE_TYPES, { message: `type must be one of ${PRICE_TYPES.join(', ')}` })
  type: PriceType;

  @ApiProperty({ example: 'EUR', description: 'ISO 4217 code, upper case' })
  @IsIn(CURRENCY_CODES, { message: 'currency must be an ISO 4217 currency code in upper case' })
  currency: string;

  @ApiProperty({
    minimum: 0,
    maximum: STORE_LIMITS.amount,
    description: 'minor units; the minimum for pay-what-you-want',
  })
  @IsInt({ message: 'amount must be an integer number of minor units' })
  @Min(0)
  @Max(STORE_LIMITS.amount)
  amount: number;

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    minimum: 0,
    maximum: STORE_LIMITS.amount,
    description: 'pay-what-you-want only; at least `amount`',
  })
  @NotNull()
  @Holds<PriceInput>(
    (_value, price) => price.type === 'pay-what-you-want',
    'suggestedAmount is only for pay-what-you-want prices',
  )
  @IsInt({ message: 'suggestedAmount must be an integer number of minor units' })
  @Min(0)
  @Max(STORE_LIMITS.amount)
  @Holds<PriceInput>(
    (value, price) => typeof price.amount !== 'number' || (value as number) >= price.amount,
    'suggestedAmount must be at least amount',
  )
  suggestedAmount?: number | null;

  @ApiPropertyOptional({
    enum: PRICE_INTERVALS,
    nullable: true,
    description: 'required on recurring prices, refused on others',
  })
  @ValidateIf((price: PriceInput) => price.type === 'recurring' || (price.interval ?? null) !== null)
  @Holds<PriceInput>((_value, price) => price.type === 'recurring', 'interval is only for recurring prices')
  @IsIn(PRICE_INTERVALS, { message: 'interval must be month or year (required on recurring prices)' })
  interval?: PriceInterval | null;

  @ApiPropertyOptional({ default: false, description: 'archived prices are never shown publicly' })
  @Present()
  @IsBoolean()
  archived?: boolean;
}

export class ProductRequest {
  @ApiProperty({ minLength: 1, maxLength: STORE_LIMITS.name })
  @Transform(trim)
  @IsString()
  @IsNotEmpty()
  @MaxLength(STORE_LIMITS.name)
  name: string;

  @ApiPropertyOptional({
    pattern: STORE_SLUG_PATTERN.source,
    description:
      'unique among the space’s products; derived from the name when created without one, kept on PUT',
  })
  @Present()
  @IsString()
  @Matches(STORE_SLUG_PATTERN, { message: SLUG_MESSAGE })
  slug?: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: STORE_LIMITS.description })
  @NotNull()
  @IsString()
  @MaxLength(STORE_LIMITS.description)
  description?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: COVER_DESCRIPTION })
  @IsOptional()
  @IsString()
  @Matches(/^media_[0-9a-f]{32}$/, { message: 'coverId must be a media id' })
  coverId?: string | null;

  @ApiPropertyOptional({ minimum: -STORE_LIMITS.sortOrder, maximum: STORE_LIMITS.sortOrder, default: 0 })
  @Present()
  @IsInt()
  @Min(-STORE_LIMITS.sortOrder)
  @Max(STORE_LIMITS.sortOrder)
  sortOrder?: number;

  @ApiProperty({
    type: [PriceInput],
    maxItems: STORE_LIMITS.prices,
    description: 'in order; replaces the list',
  })
  @IsArray()
  @ArrayMaxSize(STORE_LIMITS.prices)
  @NestedRecords(PriceInput)
  prices: PriceInput[];

  @ApiProperty()
  @IsBoolean()
  published: boolean;

  @ApiPropertyOptional({ default: false, description: 'advisory (`isSoldOut` on records)' })
  @Present()
  @IsBoolean()
  soldOut?: boolean;

  @ApiPropertyOptional({ default: true, description: 'whether a purchase can start now' })
  @Present()
  @IsBoolean()
  purchasable?: boolean;
}

export class CreditInput {
  @ApiProperty({ minLength: 1, maxLength: STORE_LIMITS.creditName })
  @Transform(trim)
  @IsString()
  @IsNotEmpty()
  @MaxLength(STORE_LIMITS.creditName)
  name: string;

  @ApiProperty({ minLength: 1, maxLength: STORE_LIMITS.creditRole, example: 'producer' })
  @Transform(trim)
  @IsString()
  @IsNotEmpty()
  @MaxLength(STORE_LIMITS.creditRole)
  role: string;

  @ApiPropertyOptional({ type: String, nullable: true, pattern: DID_PATTERN.source })
  @NotNull()
  @IsString()
  @Matches(DID_PATTERN, { message: 'did must be a protocol DID (did:plat:…)' })
  did?: string | null;
}

export class ReleaseRequest {
  @ApiProperty({ minLength: 1, maxLength: STORE_LIMITS.name })
  @Transform(trim)
  @IsString()
  @IsNotEmpty()
  @MaxLength(STORE_LIMITS.name)
  title: string;

  @ApiPropertyOptional({
    pattern: STORE_SLUG_PATTERN.source,
    description:
      'unique among the space’s releases; derived from the title when created without one, kept on PUT',
  })
  @Present()
  @IsString()
  @Matches(STORE_SLUG_PATTERN, { message: SLUG_MESSAGE })
  slug?: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: STORE_LIMITS.description })
  @NotNull()
  @IsString()
  @MaxLength(STORE_LIMITS.description)
  description?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: COVER_DESCRIPTION })
  @IsOptional()
  @IsString()
  @Matches(/^media_[0-9a-f]{32}$/, { message: 'coverId must be a media id' })
  coverId?: string | null;

  @ApiPropertyOptional({ type: [CreditInput], maxItems: STORE_LIMITS.credits, description: 'in order' })
  @Present()
  @IsArray()
  @ArrayMaxSize(STORE_LIMITS.credits)
  @NestedRecords(CreditInput)
  credits?: CreditInput[];

  @ApiPropertyOptional({
    type: [String],
    maxItems: STORE_LIMITS.releaseProducts,
    example: ['product_0190f1a2b3c4d5e6f708192a3b4c5d6e'],
    description: 'products of the same space, in the release’s order, each once',
  })
  @Present()
  @IsArray()
  @ArrayMaxSize(STORE_LIMITS.releaseProducts)
  @IsString({ each: true })
  productIds?: string[];

  @ApiProperty()
  @IsBoolean()
  published: boolean;
}
