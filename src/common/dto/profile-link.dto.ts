import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, IsUrl, MaxLength } from 'class-validator';

/** A link as its owner enters it (user profiles, space sites). */
export class ProfileLinkInput {
  @ApiProperty({ example: 'https://example.org' })
  @IsUrl({ require_protocol: true, protocols: ['http', 'https'] })
  @MaxLength(2048)
  url: string;

  @ApiPropertyOptional({ maxLength: 100 })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  label?: string;

  @ApiPropertyOptional({ maxLength: 300 })
  @IsOptional()
  @IsString()
  @MaxLength(300)
  description?: string;
}

/** ProfileLink (api-spec.md); `title` and `imageUrl` stay absent until link metadata is resolved. */
export class ProfileLinkDto {
  @ApiProperty({ description: 'destination exactly as entered' })
  url: string;

  @ApiProperty({ type: String, nullable: true })
  label: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'resolved page title' })
  title?: string | null;

  @ApiProperty({ type: String, nullable: true })
  description: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'cached preview image' })
  imageUrl?: string | null;
}

/** What is known of a link's page: its title and our CDN URL of its image, each null when none. */
export interface ResolvedLinkPage {
  title: string | null;
  imageUrl: string | null;
}

/**
 * A stored link as a ProfileLink: `title` and `imageUrl` are present only once the page's metadata
 * is resolved and has them (api-spec.md "ProfileLink": absent for a page without metadata).
 */
export const toProfileLinkDto = (
  link: Pick<ProfileLinkDto, 'url' | 'label' | 'description'>,
  page?: ResolvedLinkPage,
): ProfileLinkDto => ({
  url: link.url,
  label: link.label,
  ...(page?.title ? { title: page.title } : {}),
  description: link.description,
  ...(page?.imageUrl ? { imageUrl: page.imageUrl } : {}),
});
