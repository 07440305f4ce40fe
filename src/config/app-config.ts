import { plainToInstance, Transform, Type } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Max,
  Min,
  MinLength,
  Validate,
  validateSync,
} from 'class-validator';
import { tmpdir } from 'node:os';
import { isAbsolute } from 'node:path';
import { IsOriginList, originListEntries } from './origin-list';
import { IsTrustProxy, toTrustProxy, TrustProxy } from './trust-proxy';

export const PROCESS_ROLES = ['api', 'worker', 'all'] as const;
export type ProcessRole = (typeof PROCESS_ROLES)[number];

const toBoolean = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? ['1', 'true', 'yes', 'on'].includes(value.trim().toLowerCase()) : value;

/**
 * Every setting the service reads from the environment, validated once at boot.
 * Field names equal the environment variable names; README.md lists them with their defaults.
 */
export class AppConfig {
  @IsIn(['development', 'production', 'test'])
  NODE_ENV: 'development' | 'production' | 'test' = 'development';

  /**
   * What this process does (docs/decisions/0117-process-roles.md): `api` serves HTTP and queues jobs,
   * `worker` runs every job and serves only /health/* (and metrics), `all` both. `api` and
   * `worker` need REDIS_URL: the in-process queue cannot cross processes.
   */
  @IsIn(PROCESS_ROLES, { message: `PLAT_ROLE must be one of: ${PROCESS_ROLES.join(', ')}` })
  PLAT_ROLE: ProcessRole = 'all';

  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 3000;

  @IsString()
  HOST = '0.0.0.0';

  /**
   * Port of the Prometheus endpoint (GET /metrics), a server of its own on HOST; unset: no metrics
   * are served or recorded. 0 picks a free port (tests).
   */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(65535)
  METRICS_PORT?: number;

  /** The commit the running image was built from (`plat_build_info`); the image build sets it. */
  @IsOptional()
  @Matches(/^[A-Za-z0-9._-]{1,64}$/, { message: 'PLAT_COMMIT must be a commit id (letters, digits, . _ -)' })
  PLAT_COMMIT?: string;

  /**
   * OpenTelemetry's own variables, read by its SDK before this class is loaded (src/tracing.ts);
   * validated here so a mistyped one fails the boot. Either turns tracing on; unset, it is off
   * (docs/decisions/0123-traces-and-job-metrics.md).
   */
  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] })
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;

  @IsOptional()
  @Matches(/^\s*(otlp|console|zipkin|none)\s*(,\s*(otlp|console|zipkin|none)\s*)*$/, {
    message: 'OTEL_TRACES_EXPORTER must list otlp, console, zipkin or none',
  })
  OTEL_TRACES_EXPORTER?: string;

  /** The `service.name` of the spans (default `plat-api`). */
  @IsOptional()
  @IsString()
  OTEL_SERVICE_NAME?: string;

  /** Public origin of this API, e.g. https://api.example.com (no trailing slash). */
  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] })
  PUBLIC_BASE_URL?: string;

  /** Host that request proofs and credentials must name; defaults to the host of PUBLIC_BASE_URL. */
  @IsOptional()
  @Matches(/^[a-z0-9.-]+(:\d+)?$/i, { message: 'PUBLIC_HOST must be a host name with an optional port' })
  PUBLIC_HOST?: string;

  /**
   * Parent domain of the spaces' public web sites: a space's public host is `<domain>.<this>`
   * (post `canonicalUri`, feed `space.url`).
   */
  @Matches(/^[a-z0-9.-]+(:\d+)?$/i, {
    message: 'SPACES_WEB_DOMAIN must be a host name with an optional port',
  })
  SPACES_WEB_DOMAIN = 'plat.community';

  /**
   * Base URL of the relay announced by GET /v1/protocol and the origin identity's PlatRelay entry;
   * default `<PUBLIC_BASE_URL>/relay`, the embedded relay (design.md §1).
   */
  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] })
  RELAY_URL?: string;

  /** Ed25519 seed of the service's origin identity, base64url (32 bytes, 43 characters, no padding). */
  @IsOptional()
  @Matches(/^[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]$/, {
    message: 'ORIGIN_KEY must be a base64url-encoded 32-byte Ed25519 seed (43 characters)',
  })
  ORIGIN_KEY?: string;

  /** Where the protocol specification lives, announced as `specUrl` by GET /v1/protocol. */
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] })
  PROTOCOL_SPEC_URL = 'https://protocol.dfos.com/spec';

  @IsOptional()
  @IsString()
  @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL?: string;

  @IsString()
  EMBEDDED_POSTGRES_DIR = '.data/postgres';

  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(65535)
  EMBEDDED_POSTGRES_PORT = 54320;

  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(200)
  DATABASE_POOL_SIZE = 10;

  /**
   * Milliseconds a request waits for a pooled connection (a new one included: connect and log in)
   * before it is answered 503.
   */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  DATABASE_ACQUIRE_TIMEOUT_MS = 5000;

  /**
   * PostgreSQL cancels a statement running longer than this (`statement_timeout`, 503); the client
   * gives up on an answer 1 s later (a partition: the server cannot even say so) and drops the
   * connection.
   */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  DATABASE_STATEMENT_TIMEOUT_MS = 10000;

  /** A statement waiting longer than this for a lock fails (`lock_timeout`, 503). */
  @Type(() => Number)
  @IsInt()
  @Min(10)
  DATABASE_LOCK_TIMEOUT_MS = 5000;

  /**
   * PostgreSQL ends a session left idle inside a transaction this long
   * (`idle_in_transaction_session_timeout`), so a client lost mid-transaction frees its locks.
   */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS = 15000;

  /** TCP keep-alive probes start on a database connection idle this long. */
  @Type(() => Number)
  @IsInt()
  @Min(1000)
  DATABASE_KEEPALIVE_DELAY_MS = 10000;

  /**
   * `/health/live` fails once the pool has failed every probe for this long while a new connection
   * to the database works (a wedged pool: a restart helps; a database that is down: it would not).
   */
  @Type(() => Number)
  @IsInt()
  @Min(1000)
  DATABASE_WEDGED_AFTER_MS = 60000;

  @IsOptional()
  @IsString()
  @Matches(/^rediss?:\/\//, { message: 'REDIS_URL must be a redis:// URL' })
  REDIS_URL?: string;

  /** Milliseconds a Redis command may take before the request is refused with 503. */
  @Type(() => Number)
  @IsInt()
  @Min(10)
  REDIS_TIMEOUT_MS = 200;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL = 'info';

  /**
   * Who the client is (docs/decisions/0124-trust-proxy-hops.md): `false`, the socket's peer; `true`, the
   * first X-Forwarded-For entry (an edge proxy that overwrites the header); a number of hops, the
   * entry that many places from the right (proxies that append to it).
   */
  @Transform(toTrustProxy)
  @Validate(IsTrustProxy)
  TRUST_PROXY: TrustProxy = false;

  /**
   * Origins of browser apps allowed to call the API (CORS), comma-separated exact origins such as
   * `https://app.example.com`. Unset or empty: CORS is off and no Access-Control-* header is sent.
   */
  @IsOptional()
  @Validate(IsOriginList)
  CORS_ALLOWED_ORIGINS?: string;

  /**
   * Whether the service applies pending migrations when it starts. Unset: yes, except in
   * production, where `npm run migrate` (the Kubernetes migrate Job) runs them before a rollout
   * and a pod with pending migrations refuses to start.
   */
  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean()
  MIGRATE_ON_BOOT?: boolean;

  /** Benchmark baseline only: charges no budget and sends no RateLimit-* header. */
  @Transform(toBoolean)
  @IsBoolean()
  RATE_LIMIT_DISABLED = false;

  /** Length of every rate-limit window, in milliseconds (api-spec.md "Limits": 60 seconds). */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  RATE_LIMIT_WINDOW_MS = 60000;

  /** Per IP, all requests (scope `global`). */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  RATE_LIMIT_IP_ALL = 120;

  /** Per IP, reads: GET and HEAD, the OpenAPI spec and llms.txt included (scope `query`). */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  RATE_LIMIT_IP_READS = 80;

  /** Per IP, upvotes: PUT and DELETE on `…/upvote` (scope `action`). */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  RATE_LIMIT_IP_UPVOTES = 100;

  /** Per IP, posts and comments, media mints and POST /users (scope `create`). */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  RATE_LIMIT_IP_POSTS = 30;

  /** Per IP, POST /v1/key-proof/present (scope `sensitive`). */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  RATE_LIMIT_IP_KEY_PROOF = 10;

  /** Per IP, requests with an Authorization header to a route that verifies it, before verification. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  RATE_LIMIT_POP_CAPTURE = 120;

  /** Per grant (credential CID or DID of a bare identity proof), all requests (scope `authenticated`). */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  RATE_LIMIT_GRANT_ALL = 600;

  /** Per grant, reads (scope `query`). */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  RATE_LIMIT_GRANT_READS = 300;

  /** Per grant, upvotes (scope `action`). */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  RATE_LIMIT_GRANT_UPVOTES = 100;

  /** Per grant, posts and comments, media mints and POST /users (scope `create`). */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  RATE_LIMIT_GRANT_POSTS = 30;

  /** IPv6 clients are counted per network of this prefix length (128: per address). */
  @Type(() => Number)
  @IsInt()
  @Min(32)
  @Max(128)
  RATE_LIMIT_IPV6_PREFIX = 64;

  /** Prefix of the rate-limit keys in Redis; replicas sharing budgets must use the same one. */
  @Matches(/^[A-Za-z0-9:_.-]{1,64}$/, {
    message: 'RATE_LIMIT_REDIS_PREFIX must be 1 to 64 of [A-Za-z0-9:_.-]',
  })
  RATE_LIMIT_REDIS_PREFIX = 'plat:rl:';

  /** Prefix of the BullMQ keys in Redis; replicas sharing jobs must use the same one. */
  @Matches(/^[A-Za-z0-9:_.-]{1,64}$/, { message: 'JOBS_REDIS_PREFIX must be 1 to 64 of [A-Za-z0-9:_.-]' })
  JOBS_REDIS_PREFIX = 'plat:jobs';

  /** Jobs one replica runs at the same time. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(64)
  JOBS_CONCURRENCY = 4;

  /**
   * How long a worker's claim on a running job lasts without renewal (renewed every half of it
   * while the job runs). A replica that dies stops renewing; once the claim lapses, another
   * replica's stalled-job check hands the job on. Longer than any event-loop stall of a live
   * replica, or a job still running would be handed on too.
   */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(600000)
  JOBS_LOCK_MS = 30000;

  /** How often each replica looks for jobs whose claim lapsed (taken by a replica that died). */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(600000)
  JOBS_STALLED_CHECK_MS = 30000;

  /**
   * How many times a job may be handed on after its replica died before it fails for good (a job
   * that kills every replica that takes it stops there).
   */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(10)
  JOBS_MAX_STALLED = 2;

  /**
   * First pause before a failed job's retry, doubled at each of its 5 attempts, for the kinds that
   * set no pause of their own (announcements, fan-outs, ...).
   */
  @Type(() => Number)
  @IsInt()
  @Min(10)
  @Max(600000)
  JOBS_RETRY_BACKOFF_MS = 1000;

  /**
   * How often a process that runs jobs hands on what the job outbox still holds and is due (jobs a
   * write recorded whose hand-off after commit failed, or whose queued job was lost or failed for
   * good). docs/decisions/0125-no-background-work-lost.md.
   */
  @Type(() => Number)
  @IsInt()
  @Min(50)
  @Max(600000)
  JOB_OUTBOX_SWEEP_MS = 5000;

  /**
   * `GET /v1/stream` (docs/decisions/0170-a-live-stream-of-notifications.md): a heartbeat comment
   * this often, so proxies and clients see a live connection.
   */
  @Type(() => Number)
  @IsInt()
  @Min(10)
  @Max(600000)
  STREAM_HEARTBEAT_MS = 25000;

  /** Open streams one person may hold at once, counted across replicas when Redis is there. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1000)
  STREAM_MAX_PER_IDENTITY = 5;

  /**
   * How far `Last-Event-ID` resumes: at most this many notifications, none older than the age
   * below; past either the stream sends a `reset` event
   * (docs/decisions/0171-stream-resume-from-the-notifications-table.md).
   */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1000)
  STREAM_RESUME_MAX_EVENTS = 100;

  @Type(() => Number)
  @IsInt()
  @Min(1000)
  STREAM_RESUME_MAX_AGE_MS = 86_400_000;

  /** Prefix of the stream's Redis keys and channels; replicas serving one audience share it. */
  @Matches(/^[A-Za-z0-9:_.-]{1,64}$/, {
    message: 'STREAM_REDIS_PREFIX must be 1 to 64 of [A-Za-z0-9:_.-]',
  })
  STREAM_REDIS_PREFIX = 'plat:stream:';

  /** The `retry:` hint (ms) a stream closed by a drain gives its client before it reconnects. */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(600000)
  STREAM_RETRY_MS = 1000;

  /**
   * How long after a hand-off an outbox job that has not run yet is handed on again (a no-op while
   * the queue still holds it; it brings back a job a Redis restart lost or that exhausted its retries).
   */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(3600000)
  JOB_OUTBOX_LEASE_MS = 60000;

  /**
   * How often pending chain publications (the outbox) are looked at; a publication that failed is
   * retried with a growing pause, capped at 10 minutes.
   */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  CHAIN_OUTBOX_SWEEP_MS = 5000;

  /**
   * How long after its publication a post, or after it happened a join, is announced to the
   * space's members (the `notifications.announce-post` and `notifications.announce-join` jobs);
   * 0 queues it at once.
   */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  NOTIFY_ANNOUNCE_DELAY_MS = 0;

  /** Key material of pagination cursors (AES-256-GCM through HKDF); shared by every replica. */
  @IsOptional()
  @IsString()
  @MinLength(32)
  CURSOR_SECRET?: string;

  /** Most members of one object (or items of one array) in a request body or query. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  BODY_MAX_MEMBERS = 1000;

  /** Deepest nesting of objects and arrays in a request body or query. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  BODY_MAX_DEPTH = 32;

  /** The whole request (headers and body) must arrive within this many milliseconds. */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  REQUEST_TIMEOUT_MS = 10000;

  /** The request headers must arrive within this many milliseconds. */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  HEADERS_TIMEOUT_MS = 10000;

  /** An idle keep-alive connection closes after this many milliseconds. */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  KEEP_ALIVE_TIMEOUT_MS = 5000;

  /** Seconds an `Idempotency-Key`'s recorded answer is kept (a retry within it gets that answer). */
  @Type(() => Number)
  @IsInt()
  @Min(60)
  IDEMPOTENCY_TTL_SECONDS = 86400;

  /**
   * Seconds a request holds its `Idempotency-Key` while it runs; a reservation older than this (its
   * process died) may be taken over by a retry. Longer than any write takes.
   */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  IDEMPOTENCY_LEASE_SECONDS = 60;

  /** Milliseconds to wait for in-flight requests on SIGTERM before exiting anyway. */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  SHUTDOWN_TIMEOUT_MS = 25000;

  /**
   * Directory of the local media store (design.md §11), used unless MEDIA_S3_BUCKET is set. In
   * production it must be set explicitly to an absolute path: the operator's declaration that a
   * volume every replica shares is mounted there (docs/decisions/0118-production-config-refusals.md).
   */
  @IsString()
  @MinLength(1)
  MEDIA_DIR = '.data/media';

  /** Bucket of the S3-compatible media store; set, it replaces the local directory. */
  @IsOptional()
  @Matches(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, { message: 'MEDIA_S3_BUCKET must be an S3 bucket name' })
  MEDIA_S3_BUCKET?: string;

  @Matches(/^[a-z0-9-]{1,32}$/, { message: 'MEDIA_S3_REGION must be a region name such as us-east-1' })
  MEDIA_S3_REGION = 'us-east-1';

  /** Endpoint of an S3-compatible service (MinIO, R2, ...); unset: AWS S3 itself. */
  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] })
  MEDIA_S3_ENDPOINT?: string;

  /** Path-style addressing (`<endpoint>/<bucket>/<key>`), which most S3-compatible services need. */
  @Transform(toBoolean)
  @IsBoolean()
  MEDIA_S3_FORCE_PATH_STYLE = false;

  /** Static credentials of the media bucket; unset: the AWS SDK's default chain (IAM role, ...). */
  @IsOptional()
  @IsString()
  MEDIA_S3_ACCESS_KEY_ID?: string;

  @IsOptional()
  @IsString()
  MEDIA_S3_SECRET_ACCESS_KEY?: string;

  /** Prefix of every object key in the bucket (e.g. `media/`), so the bucket can be shared. */
  @Matches(/^([A-Za-z0-9._-]+\/)*$/, {
    message: 'MEDIA_S3_PREFIX must be empty or path segments each ending in /',
  })
  MEDIA_S3_PREFIX = '';

  /** Key of the upload and media-file URL signatures (HMAC-SHA256); same on every replica. */
  @IsOptional()
  @IsString()
  @MinLength(32)
  MEDIA_URL_SECRET?: string;

  /** Seconds a minted upload URL is valid; pending media older than this are swept. */
  @Type(() => Number)
  @IsInt()
  @Min(60)
  @Max(7 * 24 * 3600)
  MEDIA_UPLOAD_TTL = 3600;

  /** Seconds a signed media-file URL (audio, video, files) is valid. */
  @Type(() => Number)
  @IsInt()
  @Min(60)
  @Max(7 * 24 * 3600)
  MEDIA_URL_TTL = 3600;

  /** Largest image (PNG, JPEG, GIF, WebP), in bytes: 10 MiB. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  MEDIA_MAX_IMAGE_BYTES = 10 * 1024 * 1024;

  /**
   * Most pixels an image may have (width × height, every frame of an animation): larger ones are
   * refused at upload, so a small file cannot decode into gigabytes.
   */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  MEDIA_MAX_IMAGE_PIXELS = 100_000_000;

  /**
   * Image transforms rendered at once by this replica (docs/decisions/0106-image-render-slots.md); at
   * most half of libuv's thread pool (UV_THREADPOOL_SIZE, 4 by default), which file reads and DNS share.
   */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  MEDIA_RENDER_CONCURRENCY = 2;

  /**
   * Searches running at once in this process: a costly query holds at most this many database
   * connections (docs/decisions/0184-search-slots.md).
   */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  SEARCH_CONCURRENCY = 2;

  /**
   * Searches that may wait for a slot; past them the answer is 503 with Retry-After. 64: a bounded
   * search holds its slot a few milliseconds (docs/decisions/0185-bounded-search-work.md), so
   * a burst of a few dozen waits rather than fails.
   */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  SEARCH_QUEUE = 64;

  /** Image transforms that may wait for a render slot; past them the answer is 503 with Retry-After. */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  MEDIA_RENDER_QUEUE = 8;

  /**
   * Most output pixels of an animated transform, summed over its frames; past it (or past
   * MEDIA_RENDER_MAX_FRAMES) only the first frame is rendered (docs/decisions/0107-image-transform-bounds.md).
   */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  MEDIA_RENDER_MAX_PIXELS = 20_000_000;

  /** Most frames an animated transform renders; an animation with more is rendered as its first frame. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  MEDIA_RENDER_MAX_FRAMES = 300;

  /**
   * Transformed variants kept in storage per image (docs/decisions/0108-image-variant-bound.md); further
   * ones are rendered for each request and not kept.
   */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  MEDIA_VARIANTS_PER_MEDIA = 32;

  /** ffprobe of the system, for audio and video facts; not installed: media are ready without them. */
  @IsString()
  @MinLength(1)
  MEDIA_FFPROBE_PATH = 'ffprobe';

  /** ffmpeg of the system, for waveforms and posters. */
  @IsString()
  @MinLength(1)
  MEDIA_FFMPEG_PATH = 'ffmpeg';

  /** Milliseconds one ffprobe or ffmpeg run may take before it is stopped (the media then fails). */
  @Type(() => Number)
  @IsInt()
  @Min(1000)
  MEDIA_PROBE_TIMEOUT_MS = 120000;

  /**
   * Seconds an uploaded audio or video may wait for its processing job (retries included) before
   * the sweep fails it.
   */
  @Type(() => Number)
  @IsInt()
  @Min(60)
  MEDIA_PROCESSING_TTL = 3600;

  /** How often pending media are swept (design.md §11), in milliseconds. */
  @Type(() => Number)
  @IsInt()
  @Min(1000)
  MEDIA_SWEEP_MS = 60000;

  /** How often due webhook deliveries are swept (docs/decisions/0162-webhook-delivery-state-in-postgresql.md), in milliseconds. */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  WEBHOOK_SWEEP_MS = 5000;

  /** Deadline of one webhook delivery request, in milliseconds (the issue's 10 s). */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  WEBHOOK_TIMEOUT_MS = 10000;

  /**
   * An attempt's lease on its delivery (docs/decisions/0162-webhook-delivery-state-in-postgresql.md):
   * not taken again before it ends, so a dead replica's delivery comes back then. Keep it well
   * above WEBHOOK_TIMEOUT_MS: an attempt outliving its lease may be sent again by another replica
   * (its late outcome is then ignored).
   */
  @Type(() => Number)
  @IsInt()
  @Min(1000)
  WEBHOOK_LEASE_MS = 60000;

  /** Webhook subscriptions one space may hold (docs/decisions/0160-webhook-subscriptions.md). */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  WEBHOOKS_PER_SPACE = 20;

  /** Largest audio file, in bytes: 200 MiB. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  MEDIA_MAX_AUDIO_BYTES = 200 * 1024 * 1024;

  /** Largest video, in bytes: 500 MiB. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  MEDIA_MAX_VIDEO_BYTES = 500 * 1024 * 1024;

  /** Largest other file (PDF, ZIP, text, octet-stream), in bytes: 100 MiB. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  MEDIA_MAX_FILE_BYTES = 100 * 1024 * 1024;

  /** Audio and video processing jobs (ffprobe, ffmpeg) one replica runs at once; the rest wait. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(64)
  MEDIA_PROCESSING_CONCURRENCY = 1;

  /**
   * Bytes of temporary copies processing jobs may hold at once (objects in S3 are copied to a local
   * file; the local store's files are read in place): 1 GiB. At least the largest audio and video.
   */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  MEDIA_SCRATCH_MAX_BYTES = 1024 * 1024 * 1024;

  /**
   * Directory of those temporary copies; unset: the system's temporary directory. In a container,
   * a volume sized for MEDIA_SCRATCH_MAX_BYTES (docs/decisions/0112-media-scratch-volume.md): a copy is
   * refused, and retried later, when its file system has less room than the file.
   */
  @IsOptional()
  @IsString()
  @MinLength(1)
  MEDIA_SCRATCH_DIR?: string;

  /**
   * Bytes one identity may upload in any 24 hours (every kind, every space and legacy uploads
   * together; counted at mint): 2 GiB. Past it the mint is a 429 with scope `upload-quota`.
   */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  MEDIA_UPLOAD_QUOTA_BYTES_PER_DAY = 2 * 1024 * 1024 * 1024;

  /**
   * `host:port` pairs (comma-separated) the outbound fetcher lets through although their address is
   * private or loopback: tests' and development's local servers. Empty by default; refused at boot
   * in production (docs/decisions/0151-one-guarded-outbound-fetcher.md).
   */
  @IsOptional()
  @Matches(/^\s*([a-z0-9.-]+|\[[0-9a-f:.]+\]):\d{1,5}\s*(,\s*([a-z0-9.-]+|\[[0-9a-f:.]+\]):\d{1,5}\s*)*$/i, {
    message: 'OUTBOUND_ALLOWED_PRIVATE_HOSTS must list host:port pairs, comma-separated',
  })
  OUTBOUND_ALLOWED_PRIVATE_HOSTS?: string;

  /** Whether links are resolved into previews at all (off: cards stay empty, nothing is fetched). */
  @Transform(toBoolean)
  @IsBoolean()
  LINK_PREVIEWS_ENABLED = true;

  /**
   * Host names (comma-separated) never fetched for a preview; a name denies its subdomains too.
   * Their links are recorded as refused.
   */
  @IsOptional()
  @Matches(/^\s*[a-z0-9.-]+\s*(,\s*[a-z0-9.-]+\s*)*$/i, {
    message: 'LINK_PREVIEW_DENY_HOSTS must list host names, comma-separated',
  })
  LINK_PREVIEW_DENY_HOSTS?: string;

  /** How long a resolved preview is kept before the next read or write refreshes it (7 days). */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  LINK_PREVIEW_TTL_SECONDS = 7 * 24 * 3600;

  /** Idem for a page that was not HTML, was refused or failed (1 hour). */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  LINK_PREVIEW_NEGATIVE_TTL_SECONDS = 3600;

  /**
   * How long a process serves a resolved preview it read without reading it again (seconds; 0: never).
   * Another replica's new resolution shows within it (docs/decisions/0158-recent-link-previews-in-memory.md).
   */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(3600)
  LINK_PREVIEW_CACHE_SECONDS = 60;

  /**
   * Days between DELETE /profile and the erasure of the account; the person is deactivated and may
   * cancel with POST /profile/restore meanwhile (docs/decisions/0195-erasure-scheduled-by-the-users-module.md).
   */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(365)
  ACCOUNT_ERASURE_GRACE_DAYS = 30;

  /**
   * Key of the hashes an erased person's bans keep of their DID (HMAC-SHA256); the same on every
   * replica and kept for as long as those bans should hold (changing it lifts them). Required in
   * production; elsewhere a fixed development key (docs/decisions/0193-bans-of-erased-people-kept-as-keyed-hashes.md).
   */
  @IsOptional()
  @IsString()
  @MinLength(32)
  ERASED_BAN_SECRET?: string;

  /**
   * Days a personal export's archive is kept once ready, then swept
   * (docs/decisions/0213-export-expiry-and-signed-download.md).
   */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(90)
  EXPORT_RETENTION_DAYS = 7;

  /** Seconds a signed download URL of an export's archive stays valid (never past the archive's expiry). */
  @Type(() => Number)
  @IsInt()
  @Min(60)
  @Max(86_400)
  EXPORT_URL_TTL_SECONDS = 3600;

  /**
   * Largest archive POST /v1/spaces/imports accepts (bytes; 413 above): streamed into the media store
   * and kept there until the job settled it, never held whole
   * (docs/decisions/0237-a-space-import-streams-its-archive-through-the-store.md).
   */
  @Type(() => Number)
  @IsInt()
  @Min(1024)
  @Max(64 * 1024 * 1024 * 1024)
  IMPORT_MAX_ARCHIVE_BYTES = 2 * 1024 * 1024 * 1024;

  /**
   * Pause before an `imports.run` job's retry (milliseconds; 3 attempts, the pause doubling): a store
   * or database fault mid-import (docs/decisions/0221-space-import-a-durable-job-through-the-owning-modules.md).
   */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  IMPORT_RETRY_BACKOFF_MS = 30_000;

  /**
   * Largest inflated JSON file of an imported archive (bytes), declared or actual; all of them
   * together may be four times this (docs/decisions/0220-space-import-reads-an-archive-it-does-not-trust.md).
   */
  @Type(() => Number)
  @IsInt()
  @Min(1024)
  @Max(256 * 1024 * 1024)
  IMPORT_MAX_FILE_BYTES = 16 * 1024 * 1024;

  /** Deadline of one page's or image's fetch, redirects included (milliseconds). */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  LINK_PREVIEW_TIMEOUT_MS = 10_000;

  /** OUTBOUND_ALLOWED_PRIVATE_HOSTS as a list. */
  get outboundAllowedPrivateHosts(): string[] {
    return listEntries(this.OUTBOUND_ALLOWED_PRIVATE_HOSTS);
  }

  /** LINK_PREVIEW_DENY_HOSTS as a list of lower-case names. */
  get linkPreviewDenyHosts(): string[] {
    return listEntries(this.LINK_PREVIEW_DENY_HOSTS).map((host) => host.toLowerCase());
  }

  /** Whether this process serves the API (every route, not only health). */
  get servesApi(): boolean {
    return this.PLAT_ROLE !== 'worker';
  }

  /** Whether this process takes and runs jobs and schedules the repeating ones. */
  get runsJobs(): boolean {
    return this.PLAT_ROLE !== 'api';
  }

  /** Where processing copies media from S3 (MEDIA_SCRATCH_DIR, else the system's temporary directory). */
  get mediaScratchDir(): string {
    return this.MEDIA_SCRATCH_DIR ?? tmpdir();
  }

  get migrateOnBoot(): boolean {
    return this.MIGRATE_ON_BOOT ?? this.NODE_ENV !== 'production';
  }

  get publicBaseUrl(): string {
    return (this.PUBLIC_BASE_URL ?? `http://localhost:${this.PORT}`).replace(/\/+$/, '');
  }

  /** The relay base URL (no trailing slash): RELAY_URL, else the embedded relay under PUBLIC_BASE_URL. */
  get relayUrl(): string {
    return (this.RELAY_URL ?? `${this.publicBaseUrl}/relay`).replace(/\/+$/, '');
  }

  get corsAllowedOrigins(): string[] {
    return originListEntries(this.CORS_ALLOWED_ORIGINS);
  }

  get publicHost(): string {
    return this.PUBLIC_HOST ?? new URL(this.publicBaseUrl).host;
  }
}

export class ConfigValidationError extends Error {}

function listEntries(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}

/** Constraints that say what kind of value is expected; when one fails, range rules add only noise. */
const TYPE_CONSTRAINTS = ['isInt', 'isNumber', 'isBoolean', 'isIn', 'isEnum'];

/** `PORT=eighty` is "must be an integer", not also "must not be greater than 65535". */
function messagesWorthShowing(constraints: Record<string, string>): string[] {
  const typeRule = TYPE_CONSTRAINTS.find((name) => name in constraints);
  return typeRule ? [constraints[typeRule]] : Object.values(constraints);
}

/** libuv's thread pool when UV_THREADPOOL_SIZE is not set. */
const DEFAULT_UV_THREADPOOL_SIZE = 4;

/** The embedded database, per-process secrets and per-process state are development defaults only. */
const PRODUCTION_REQUIRED = [
  'DATABASE_URL',
  'REDIS_URL',
  'CURSOR_SECRET',
  'MEDIA_URL_SECRET',
  'ORIGIN_KEY',
  'ERASED_BAN_SECRET',
] as const;

export interface LoadOptions {
  /**
   * Refuse settings a serving process could not run with: production without its shared state,
   * secrets or lasting media store, a role without a queue it shares. Off only for one-off steps
   * that use nothing but the database (`npm run migrate`).
   */
  checkServiceSettings?: boolean;
}

/** Builds the typed config from an environment, throwing one readable error that lists every bad value. */
export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  { checkServiceSettings = true }: LoadOptions = {},
): AppConfig {
  const present = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ''),
  );
  const config = plainToInstance(AppConfig, present, { exposeDefaultValues: true });
  // whitelist strips every variable that is not a setting (PATH, HOME, ...).
  const errors = validateSync(config, { whitelist: true, forbidUnknownValues: false });
  if (errors.length > 0) {
    const lines = errors.flatMap((error) =>
      messagesWorthShowing(error.constraints ?? {}).map((message) => `  - ${error.property}: ${message}`),
    );
    throw new ConfigValidationError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  if (config.METRICS_PORT && config.METRICS_PORT === config.PORT) {
    throw new ConfigValidationError(
      'Invalid configuration:\n  - METRICS_PORT: must differ from PORT (metrics are never served on the API port)',
    );
  }
  if (Boolean(config.MEDIA_S3_ACCESS_KEY_ID) !== Boolean(config.MEDIA_S3_SECRET_ACCESS_KEY)) {
    throw new ConfigValidationError(
      'Invalid configuration:\n  - MEDIA_S3_ACCESS_KEY_ID, MEDIA_S3_SECRET_ACCESS_KEY: set both or neither',
    );
  }
  if (config.MEDIA_SCRATCH_MAX_BYTES < Math.max(config.MEDIA_MAX_AUDIO_BYTES, config.MEDIA_MAX_VIDEO_BYTES)) {
    // A file larger than the whole scratch budget could never be processed from S3.
    throw new ConfigValidationError(
      'Invalid configuration:\n  - MEDIA_SCRATCH_MAX_BYTES: must be at least MEDIA_MAX_AUDIO_BYTES and MEDIA_MAX_VIDEO_BYTES',
    );
  }
  const threadPool = Number(env.UV_THREADPOOL_SIZE) || DEFAULT_UV_THREADPOOL_SIZE;
  if (config.MEDIA_RENDER_CONCURRENCY > Math.floor(threadPool / 2)) {
    throw new ConfigValidationError(
      `Invalid configuration:\n  - MEDIA_RENDER_CONCURRENCY: must be at most half of UV_THREADPOOL_SIZE (${threadPool}): renders must leave libuv's threads to file reads and DNS`,
    );
  }
  const refusals = !checkServiceSettings
    ? []
    : config.NODE_ENV === 'production'
      ? productionRefusals(config, present)
      : roleRefusals(config);
  if (refusals.length > 0) {
    throw new ConfigValidationError(
      `Invalid configuration:\n${refusals.map((line) => `  - ${line}`).join('\n')}`,
    );
  }
  return config;
}

/**
 * What production cannot run without (docs/decisions/0118-production-config-refusals.md): shared state
 * (the database, Redis for jobs, limits and caches), secrets every replica shares, and a media
 * store that outlives the pod.
 */
function productionRefusals(config: AppConfig, present: Record<string, string | undefined>): string[] {
  const refusals: string[] = PRODUCTION_REQUIRED.filter((key) => !config[key]).map(
    (key) => `${key}: required in production`,
  );
  if (!config.MEDIA_S3_BUCKET && present.MEDIA_DIR === undefined) {
    refusals.push(
      'MEDIA_S3_BUCKET: required in production unless MEDIA_DIR is set to the absolute path of a mounted volume (the default directory does not survive the pod)',
    );
  } else if (!config.MEDIA_S3_BUCKET && !isAbsolute(config.MEDIA_DIR)) {
    refusals.push(
      'MEDIA_DIR: must be the absolute path of a mounted volume in production (or set MEDIA_S3_BUCKET)',
    );
  }
  if (config.outboundAllowedPrivateHosts.length > 0) {
    refusals.push(
      'OUTBOUND_ALLOWED_PRIVATE_HOSTS: must be empty in production (it lets outbound fetches reach private addresses)',
    );
  }
  return refusals;
}

/** A process that runs only one side of the queue needs a queue both sides reach (production requires Redis anyway). */
function roleRefusals(config: AppConfig): string[] {
  if (config.PLAT_ROLE === 'all' || config.REDIS_URL) return [];
  return [
    `REDIS_URL: required with PLAT_ROLE=${config.PLAT_ROLE} (the in-process job queue cannot cross processes)`,
  ];
}
