import { PROFILE_SCHEMA } from '../../protocol';
import type { Space } from '../entities/space.entity';

/** The public projection of a space's profile: profile/v1 with name, description and links. */
export function profileDocument(space: Space): Record<string, unknown> {
  return {
    $schema: PROFILE_SCHEMA,
    ...(space.displayName ? { name: space.displayName } : {}),
    ...(space.description ? { description: space.description } : {}),
    ...(space.links.length > 0
      ? {
          links: space.links.map((link) => ({
            uri: link.url,
            ...(link.label ? { label: link.label } : {}),
            ...(link.description ? { description: link.description } : {}),
          })),
        }
      : {}),
  };
}
