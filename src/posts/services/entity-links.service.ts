import { Injectable } from '@nestjs/common';
import { formatEntityId, parseEntityId } from '../../common/ids/entity-id';
import { AppConfig } from '../../config/app-config';
import { PublicEventsService } from '../../events';
import { SpaceDirectoryService } from '../../spaces';
import { cardTextOf } from '../domain/post-card-text';
import { EntityLinkRecord } from '../dto/post-records.dto';
import { PostsRepository } from '../repositories/posts.repository';

/** At most this many distinct URLs of one body are looked at. */
const MAX_URLS = 20;
const URL_PATTERN = /https?:\/\/[^\s<>()"'[\]`]+/gi;
const POST_PATH = /^\/post\/(?:[a-z0-9-]*-)?(post_[0-9a-f]{32})\/?$/;
const EVENT_PATH = /^\/event\/(?:[a-z0-9-]*-)?(evt_[0-9a-f]{32})\/?$/;

/** A candidate resolved at once, or an event of a public space whose title the batch decides. */
type Resolved = EntityLinkRecord | { event: { eventId: string; spaceId: string; url: string } } | null;

/**
 * Internal links of a returned post body (api-spec.md "Full post" `entityLinks`): absolute URLs
 * pointing at this service's space sites, `https://<domain>.<SPACES_WEB_DOMAIN>` (kind space) and
 * `…/post/<slug>-<post id>` (kind post) and `…/event/<event id>` (kind event, labelled by its title;
 * docs/decisions/0155-entity-links-to-events.md). Only what anyone may read resolves (a space with
 * a public profile; a live post of a live public topic there; a public event of it that has not
 * ended), so the answer is the same for every viewer. `url` is normalized to the entity's
 * canonical address; first appearance wins. The events of one body are looked up in one statement.
 */
@Injectable()
export class EntityLinksService {
  constructor(
    private readonly config: AppConfig,
    private readonly directory: SpaceDirectoryService,
    private readonly posts: PostsRepository,
    private readonly events: PublicEventsService,
  ) {}

  async resolve(body: string): Promise<EntityLinkRecord[]> {
    const suffix = `.${this.config.SPACES_WEB_DOMAIN.toLowerCase()}`;
    const candidates = [
      ...new Set([...body.matchAll(URL_PATTERN)].map((m) => m[0].replace(/[.,;:!?]+$/, ''))),
    ];
    const resolved: Resolved[] = [];
    for (const raw of candidates.slice(0, MAX_URLS)) resolved.push(await this.resolveOne(raw, suffix));
    const eventRefs = resolved.flatMap((one) => (one && 'event' in one ? [one.event] : []));
    const titles = await this.events.titlesOf(eventRefs);
    const links: EntityLinkRecord[] = [];
    const seen = new Set<string>();
    for (const one of resolved) {
      let link: EntityLinkRecord | null = null;
      if (one && 'event' in one) {
        const found = titles.get(one.event.eventId);
        if (found?.spaceId === one.event.spaceId && found.title)
          link = { url: one.event.url, label: found.title, kind: 'event' };
      } else link = one;
      if (link && !seen.has(link.url)) {
        seen.add(link.url);
        links.push(link);
      }
    }
    return links;
  }

  private async resolveOne(raw: string, suffix: string): Promise<Resolved> {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return null;
    }
    if (url.protocol !== 'https:' || url.username || url.password) return null;
    const host = url.host.toLowerCase();
    if (!host.endsWith(suffix)) return null;
    const domain = host.slice(0, -suffix.length);
    if (!domain || domain.includes('.')) return null;
    const space = await this.directory.findPublicByReference(domain);
    if (!space || space.domain !== domain) return null;
    if (url.pathname === '/' || url.pathname === '') {
      return {
        url: this.directory.publicUrl(space),
        label: space.displayName ?? space.domain,
        kind: 'space',
      };
    }
    const event = EVENT_PATH.exec(url.pathname);
    const eventId = event ? parseEntityId('evt', event[1]) : null;
    if (eventId) {
      const eventUrl = `${this.directory.publicUrl(space)}/event/${formatEntityId('evt', eventId)}`;
      return { event: { eventId, spaceId: space.id, url: eventUrl } };
    }
    const match = POST_PATH.exec(url.pathname);
    const postId = match ? parseEntityId('post', match[1]) : null;
    if (!postId) return null;
    const post = await this.posts.liveById(postId, space.id);
    if (!post) return null;
    const topic = await this.directory.topicView(space.id, post.topicId);
    if (topic?.accessKind !== 'public') return null;
    const label = cardTextOf(post).displayTitle;
    if (!label) return null;
    return {
      url: `${this.directory.publicUrl(space)}/post/${post.slug}-${formatEntityId('post', post.id)}`,
      label,
      kind: 'post',
    };
  }
}
