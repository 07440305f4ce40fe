import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/**
 * api-spec.md "Author", shared by posts and comments: `did` always; `displayName` and `username`
 * (the handle) only for people with an account and only when set; `avatarUrl` (a permanent public
 * image URL) only when their profile names an avatar.
 */
export class AuthorRecord {
  @ApiProperty({
    pattern: '^did:plat:[2346789acdefhknrtvz]{31}$',
    example: 'did:plat:2346789acdefhknrtvz2346789acdef',
  })
  did: string;

  @ApiPropertyOptional()
  displayName?: string;

  @ApiPropertyOptional({ description: 'the author’s handle' })
  username?: string;

  @ApiPropertyOptional()
  avatarUrl?: string;
}
