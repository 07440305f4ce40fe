import { Response } from 'supertest';
import { Actor } from '../../support/actors';
import { admit, makePublic, newSpace, person } from '../memberships/support';
import { bootSpaces, expectStatus, SpacesTestApp } from '../spaces/support';

export { admit, bootSpaces, expectStatus, makePublic, newSpace, person };
export type { SpacesTestApp };

export type Access = 'public' | 'signedIn' | 'members' | { groups: string[] };

export async function newTopic(admin: Actor, spaceId: string, name: string, access: Access): Promise<string> {
  const response = await admin.post(`/spaces/${spaceId}/topics`, { name, access });
  expectStatus(response, 201);
  return response.body.id as string;
}

export async function newPost(
  author: Actor,
  spaceId: string,
  body: Record<string, unknown>,
  options: { credential?: string } = {},
): Promise<Record<string, unknown> & { id: string }> {
  const response = await author.post(`/v1/spaces/${spaceId}/posts`, body, options);
  expectStatus(response, 201);
  return response.body as Record<string, unknown> & { id: string };
}

export interface Listing<T = Record<string, unknown>> {
  items: T[];
  nextCursor: string | null;
  previousCursor?: string | null;
  totalCount?: number;
}

export const ids = (response: Response): string[] =>
  (response.body as Listing<{ id: string }>).items.map((item) => item.id);
