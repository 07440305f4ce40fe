import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import type { Request, Response } from 'express';
import { randomUUID } from 'node:crypto';
import { RequestPrincipal } from '../../common/auth/request-authenticator';
import { Clock, Repeating } from '../../common/clock/clock';
import { ApiError, forbidden } from '../../common/errors/api-error';
import { CursorCodec } from '../../common/pagination/cursor-codec';
import { AppConfig } from '../../config/app-config';
import { ShutdownState } from '../../infrastructure/health/shutdown-state';
import { ConnectionSlots } from '../../infrastructure/live/connection-slots';
import { PubSub } from '../../infrastructure/live/pubsub';
import { Metrics } from '../../infrastructure/metrics/metrics';
import { PostReadabilityService } from '../../posts';
import { ProofHolder, ProofStandingService } from '../../protocol';
import { namedPosts } from '../domain/notification-titles';
import { NotificationRecord } from '../dto/notification-records.dto';
import {
  NotificationsRepository,
  VisibleNotification,
  WrittenNotification,
} from '../notifications.repository';
import { NotificationPresenter } from './notification.presenter';

/** The cursor listing of stream event ids (a cursor of another listing does not resume). */
const STREAM_CURSORS = 'notification-stream';

/** Bytes a client may leave unread before its stream is closed (it resumes by Last-Event-ID). */
const MAX_UNREAD_BYTES = 1 << 20;

/** Event versions a stream remembers sending, so a catch-up and a live event do not repeat one. */
const SENT_REMEMBERED = 500;

/** Where a stream stands in the notifications of its person: (last activity, id). */
interface Position {
  at: Date;
  id: string;
}

const NIL_UUID = '00000000-0000-0000-0000-000000000000';

interface Stream {
  did: string;
  holder: ProofHolder;
  response: Response;
  slot: string;
  /** The newest position sent (catch-up after a lost subscription starts there). */
  position: Position;
  /** Notification id → last activity (ms) of the version sent. */
  sent: Map<string, number>;
  /** Sends run one after another, in order. */
  queue: Promise<void>;
  closed: boolean;
}

/** Why a stream asks its client to start over from the listing. */
type ResetReason = 'unknown-position' | 'too-old' | 'too-many';

/**
 * `GET /v1/stream`: each of the person's notifications as it is written, as Server-Sent Events
 * (docs/decisions/0170-a-live-stream-of-notifications.md). Writers tell `announce` after commit;
 * it publishes the notification's id on the recipient's channel (PubSub: every replica), and the
 * replica holding the person's streams reads the row as the listing shows it (visible now, the
 * presenter's record) and sends it with its position as `id:`. Resume from `Last-Event-ID` reads
 * the table (docs/decisions/0171-stream-resume-from-the-notifications-table.md); one heartbeat
 * timer per replica writes the comment and renews the connection leases
 * (docs/decisions/0173-stream-connection-cap-across-replicas.md); identity changes and
 * revocations re-check the streams standing on them
 * (docs/decisions/0172-streams-close-on-revocation-and-key-removal.md); a drain ends every
 * stream with a `retry:` hint (docs/decisions/0174-streams-and-the-drain.md).
 */
@Injectable()
export class NotificationStreamService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(NotificationStreamService.name);
  private readonly byDid = new Map<string, { streams: Set<Stream>; subscribed: Promise<() => void> }>();
  private heartbeat?: Repeating;

  constructor(
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly notifications: NotificationsRepository,
    private readonly presenter: NotificationPresenter,
    private readonly posts: PostReadabilityService,
    private readonly cursors: CursorCodec,
    private readonly pubsub: PubSub,
    private readonly slots: ConnectionSlots,
    private readonly standing: ProofStandingService,
    private readonly shutdown: ShutdownState,
    metrics: Metrics,
  ) {
    metrics.gauge('plat_stream_connections', 'Open notification streams on this replica', [], (gauge) =>
      gauge.set(this.count()),
    );
  }

  onModuleInit(): void {
    this.heartbeat = this.clock.repeat(this.config.STREAM_HEARTBEAT_MS, () => void this.beat());
    this.standing.watch({
      changed: (did) => this.recheck((stream) => stream.did === did || stream.holder.signerDid === did),
      reset: () => this.recheck(() => true),
    });
    this.pubsub.onResubscribed(() => {
      for (const stream of this.all()) this.enqueue(stream, () => this.catchUp(stream));
    });
    this.shutdown.onDrain(() => {
      for (const stream of this.all()) this.drainOne(stream);
    });
  }

  onModuleDestroy(): void {
    this.heartbeat?.stop();
    for (const stream of this.all()) this.close(stream);
  }

  /** Tells the recipients' streams, wherever they are, of committed writes. */
  async announce(written: readonly WrittenNotification[]): Promise<void> {
    await Promise.all(written.map(({ id, recipientDid }) => this.pubsub.publish(recipientDid, id)));
  }

  /** Serves one stream on `response` until the client leaves, its proof falls or the replica drains. */
  async open(
    principal: RequestPrincipal,
    request: Request,
    response: Response,
    lastEventId: string | undefined,
  ): Promise<void> {
    if (request.method === 'HEAD') {
      // Express answers HEAD with the GET route: the headers of a stream, and no stream.
      response.status(200).setHeader('Content-Type', 'text/event-stream; charset=utf-8');
      response.end();
      return;
    }
    const holder = this.standing.holderOf(request, principal);
    // An account awaiting its erasure is deactivated: no stream opens on it
    // (docs/decisions/0191-a-pending-erasure-deactivates-as-a-delete.md).
    if (await this.standing.deactivated(holder)) throw forbidden('The account is deactivated');
    // Where a catch-up (after a lost subscription) starts: past the newest notification now.
    const latest = await this.notifications.latest(principal.did);
    const position = latest
      ? { at: latest.last_activity_at, id: latest.id }
      : { at: new Date(0), id: NIL_UUID };
    const slot = randomUUID();
    const cap = this.config.STREAM_MAX_PER_IDENTITY;
    if (!(await this.slots.take(principal.did, slot, cap, this.leaseMs()))) {
      const retryAfterMs = this.config.STREAM_RETRY_MS;
      throw new ApiError(
        429,
        `At most ${cap} open streams per person`,
        { scope: 'stream', retryAfterMs },
        { 'Retry-After': String(Math.ceil(retryAfterMs / 1000)) },
      );
    }
    response.status(200);
    response.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    // nginx and similar proxies would otherwise hold events back in their buffers.
    response.setHeader('X-Accel-Buffering', 'no');
    request.socket.setTimeout(0);
    request.socket.setNoDelay(true);
    request.socket.setKeepAlive(true);

    let opened!: () => void;
    const stream: Stream = {
      did: principal.did,
      holder,
      response,
      slot,
      position,
      sent: new Map(),
      // Nothing is sent before the subscription is live; then the resume, then live events.
      queue: new Promise<void>((resolve) => (opened = resolve)),
      closed: false,
    };
    this.enqueue(stream, () => this.resume(stream, lastEventId));
    // The response's close: its end, or the connection lost (the client left) at any time.
    response.on('close', () => void this.forget(stream));
    await this.register(stream);
    // A client that left while the stream was being set up: nothing will close it later.
    if (request.socket.destroyed) await this.forget(stream);
    if (stream.closed) return;
    response.flushHeaders();
    // A first comment: the client (and a proxy) sees the stream is live before any event.
    this.write(stream, ': connected\n\n');
    opened();
    if (this.shutdown.draining) this.drainOne(stream);
  }

  /** Adds the stream to its person's; resolves once their channel's subscription is live. */
  private async register(stream: Stream): Promise<void> {
    const did = stream.did;
    let entry = this.byDid.get(did);
    if (!entry) {
      entry = {
        streams: new Set(),
        subscribed: this.pubsub.subscribe(did, (id) => this.delivered(did, id)),
      };
      this.byDid.set(did, entry);
    }
    entry.streams.add(stream);
    await entry.subscribed;
  }

  private async forget(stream: Stream): Promise<void> {
    stream.closed = true;
    const entry = this.byDid.get(stream.did);
    if (entry?.streams.delete(stream) && entry.streams.size === 0) {
      this.byDid.delete(stream.did);
      void entry.subscribed.then((unsubscribe) => unsubscribe());
    }
    await this.slots.release(stream.did, stream.slot);
  }

  /** A notification id published on `did`'s channel. */
  private delivered(did: string, id: string): void {
    for (const stream of this.byDid.get(did)?.streams ?? []) {
      this.enqueue(stream, async () => {
        const found = await this.notifications.visibleById(did, id);
        if (found) await this.send(stream, [found]);
      });
    }
  }

  /** After `Last-Event-ID`: what the client missed, or a reset when that is out of reach. */
  private async resume(stream: Stream, lastEventId: string | undefined): Promise<void> {
    if (lastEventId === undefined || lastEventId === '') return;
    let from: Position;
    try {
      const [at, id] = this.cursors.decode(STREAM_CURSORS, lastEventId);
      if (typeof at !== 'string' || typeof id !== 'string') throw new Error('not a position');
      from = { at: new Date(at), id };
    } catch {
      return this.reset(stream, 'unknown-position');
    }
    if (from.at.getTime() < this.clock.now().getTime() - this.config.STREAM_RESUME_MAX_AGE_MS) {
      return this.reset(stream, 'too-old');
    }
    stream.position = from;
    await this.catchUp(stream);
  }

  /** Sends what is past the stream's position, or a reset when that is more than the bound. */
  private async catchUp(stream: Stream): Promise<void> {
    const bound = this.config.STREAM_RESUME_MAX_EVENTS;
    const missed = await this.notifications.visibleSince(stream.did, stream.position, bound + 1);
    if (missed.length > bound) return this.reset(stream, 'too-many');
    await this.send(stream, missed);
  }

  /**
   * Tells the client to read the listing again; its `id` is the newest notification's position
   * (or empty), so a reconnect resumes from there.
   */
  private async reset(stream: Stream, reason: ResetReason): Promise<void> {
    const latest = await this.notifications.latest(stream.did);
    const id = latest ? this.cursorOf({ at: latest.last_activity_at, id: latest.id }) : '';
    if (latest) stream.position = { at: latest.last_activity_at, id: latest.id };
    this.write(stream, `event: reset\nid: ${id}\ndata: ${JSON.stringify({ reason })}\n\n`);
  }

  private async send(stream: Stream, found: VisibleNotification[]): Promise<void> {
    const fresh = found.filter(
      ({ notification }) => (stream.sent.get(notification.id) ?? -1) < notification.lastActivityAt.getTime(),
    );
    if (fresh.length === 0 || stream.closed) return;
    const readable = await this.posts.readableByMember(
      stream.did,
      namedPosts(fresh.map((row) => row.notification)),
    );
    for (const row of fresh) {
      const { notification } = row;
      const record: NotificationRecord = this.presenter.record(row, readable);
      const position = { at: notification.lastActivityAt, id: notification.id };
      this.remember(stream, notification.id, notification.lastActivityAt.getTime());
      if (compare(position, stream.position) > 0) stream.position = position;
      this.write(
        stream,
        `id: ${this.cursorOf(position)}\nevent: notification\ndata: ${JSON.stringify(record)}\n\n`,
      );
    }
  }

  private remember(stream: Stream, id: string, at: number): void {
    stream.sent.delete(id);
    stream.sent.set(id, at);
    if (stream.sent.size > SENT_REMEMBERED) stream.sent.delete(stream.sent.keys().next().value as string);
  }

  private cursorOf(position: Position): string {
    return this.cursors.encode(STREAM_CURSORS, [position.at.toISOString(), position.id]);
  }

  private write(stream: Stream, chunk: string): void {
    if (stream.closed) return;
    stream.response.write(chunk);
    // A client that stopped reading is let go rather than buffered without end.
    if (stream.response.writableLength > MAX_UNREAD_BYTES) this.close(stream);
  }

  private enqueue(stream: Stream, task: () => Promise<void>): void {
    stream.queue = stream.queue
      .then(() => (stream.closed ? undefined : task()))
      .catch((error: unknown) => {
        // The client resumes by Last-Event-ID from what it last received.
        this.logger.warn({ err: error }, 'stream send failed; closing it');
        this.close(stream);
      });
  }

  private async beat(): Promise<void> {
    const streams = this.all();
    if (streams.length === 0) return;
    const now = this.clock.now().getTime();
    for (const stream of streams) {
      // A credential's expiry is no event on any bus: the heartbeat finds it.
      const expiresAt = stream.holder.credential?.expiresAt;
      if (expiresAt !== undefined && expiresAt * 1000 <= now) {
        this.close(stream);
        continue;
      }
      this.write(stream, ': heartbeat\n\n');
      void this.slots.renew(stream.did, stream.slot, this.leaseMs());
    }
    // An invalidation whose publish failed reaches this replica through the database epoch.
    await this.standing.confirmNoMissedChange().catch(() => undefined);
  }

  /** Closes the streams `which` picks whose proof no longer stands (or cannot be checked). */
  private recheck(which: (stream: Stream) => boolean): void {
    for (const stream of this.all().filter(which)) {
      void this.standing.stands(stream.holder).then(
        (stands) => {
          if (!stands) this.close(stream);
        },
        () => this.close(stream),
      );
    }
  }

  private drainOne(stream: Stream): void {
    this.write(stream, `retry: ${this.config.STREAM_RETRY_MS}\n\n`);
    this.close(stream);
  }

  private close(stream: Stream): void {
    if (stream.closed) return;
    stream.closed = true;
    const { response } = stream;
    response.end();
    // The connection goes too: a keep-alive socket would hold a drain (or a revoked client) open.
    response.once('finish', () => response.socket?.destroy());
    void this.forget(stream);
  }

  private all(): Stream[] {
    return [...this.byDid.values()].flatMap((entry) => [...entry.streams]);
  }

  private count(): number {
    let count = 0;
    for (const entry of this.byDid.values()) count += entry.streams.size;
    return count;
  }

  /** A lease outlives two missed heartbeats; a dead replica's streams stop counting after it. */
  private leaseMs(): number {
    return this.config.STREAM_HEARTBEAT_MS * 3;
  }
}

function compare(a: Position, b: Position): number {
  return a.at.getTime() - b.at.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}
