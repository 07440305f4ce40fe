import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches } from 'class-validator';
import { IMAGE_FITS, ImageFit } from '../domain/image-transform';

/** An integer from 1 to 4096 written plainly: no sign, no leading zero, no exponent. */
const DIMENSION = /^(?:[1-9][0-9]{0,2}|[1-3][0-9]{3}|40[0-8][0-9]|409[0-6])$/;

/** GET /cdn/{media}/{filename}: `w`, `h`, `fit`, `auto` (design.md §11 "URLs"); any other value is 400. */
export class ImageTransformQuery {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 4096, description: 'width in pixels' })
  @IsOptional()
  @IsString({ message: 'w must be an integer from 1 to 4096' })
  @Matches(DIMENSION, { message: 'w must be an integer from 1 to 4096' })
  w?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 4096, description: 'height in pixels' })
  @IsOptional()
  @IsString({ message: 'h must be an integer from 1 to 4096' })
  @Matches(DIMENSION, { message: 'h must be an integer from 1 to 4096' })
  h?: string;

  @ApiPropertyOptional({ enum: IMAGE_FITS, default: 'cover', description: 'how w and h are met' })
  @IsOptional()
  @IsIn(IMAGE_FITS, { message: `fit must be one of ${IMAGE_FITS.join(', ')}` })
  fit?: ImageFit;

  @ApiPropertyOptional({ enum: ['format'], description: 'AVIF or WebP as Accept allows (Vary: Accept)' })
  @IsOptional()
  @IsIn(['format'], { message: 'auto must be format' })
  auto?: 'format';

  @ApiPropertyOptional({ enum: ['1'], description: 'served as an attachment (publicDownloadUrl)' })
  @IsOptional()
  @IsIn(['1'], { message: 'download must be 1' })
  download?: '1';
}
