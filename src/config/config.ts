import { connectionStringProblem, redact } from '../event-store/kurrentdb/kurrentdb-connection';
import type { ConfigSection } from './config-section';
import { envReader, type Env } from './env-reader';

/** Where the S3 blob store keeps its objects (`BLOB_STORE=s3`). */
export interface S3Settings {
  bucket: string;
  /** An S3-compatible server (MinIO, Ceph, R2, …); null: AWS S3 itself. */
  endpoint: string | null;
  region: string;
  /** Both or neither; neither: the SDK's default chain (environment, profile, instance role). */
  accessKeyId: string | null;
  secretAccessKey: string | null;
  /** `endpoint/bucket/key` instead of `bucket.endpoint/key` (most self-hosted servers want it). */
  forcePathStyle: boolean;
}

/** Typed configuration from the environment variables of docs/configuration.md; every value is optional. */
export interface AppConfig {
  port: number;
  host: string;
  /** Time allowed to receive a whole request (headers and body); a slower client gets a 408. */
  httpRequestTimeoutMs: number;
  /** How long an Idempotency-Key is held by its request before another may take it over; renewed while it runs. */
  idempotencyLockMs: number;
  databaseUrl: string | null;
  eventStoreUrl: string | null;
  dataDir: string;
  baseUrl: string;
  recordingsUrl: string;
  roomsUrl: string;
  adminToken: string | null;
  webhookSecretKey: string | null;
  smtpUrl: string | null;
  mailFrom: string;
  mediaGatewayUrl: string | null;
  mediaGatewaySecret: string | null;
  /** Tries of one event by a processor before it is set aside as a dead letter (decision 23). */
  processorMaxAttempts: number;
  /** SIP_TRUNK_URI: the trunk production calls go out over (telephony; docs/telephony.md), also read to tell whether production telephony is configured. */
  sipTrunkUri: string | null;
  /** Streams whose folded state the command executor keeps between commands, per process; 0: none. */
  commandCacheStreams: number;
  /** The command executor's cached states, by their estimated size (COMMAND_CACHE_MB). */
  commandCacheMb: number;
  logLevel: string;
  /** Where recordings and voice samples are kept (BLOB_STORE): PostgreSQL, or the S3 bucket of `s3`. */
  blobStore: 'postgres' | 's3';
  s3: S3Settings | null;
  /** The registered contexts' sections, parsed: read one with `settingsOf(config, section)`. */
  readonly sections: ReadonlyMap<ConfigSection<unknown>, unknown>;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/**
 * Reads and validates the whole environment at once, naming every bad variable in one error: the
 * platform's settings here, and the given contexts' sections (`loadAppConfig()` in app.module.ts
 * passes every registered context's).
 */
export function loadConfig(env: Env = process.env, sections: readonly ConfigSection<unknown>[] = []): AppConfig {
  const problems: string[] = [];
  const reader = envReader(env, problems);
  const { str, int, bool, url } = reader;

  /** Not a URL: gossip seeds (`kurrentdb://a:2113,b:2113,c:2113`) are one string the client splits. */
  const eventStoreUrl = (): string | null => {
    const v = str('EVENTSTORE_URL');
    if (v === null) return null;
    const problem = connectionStringProblem(v);
    if (problem === null) return v;
    problems.push(`EVENTSTORE_URL is not a KurrentDB connection string (got "${redact(v)}"): ${problem}`);
    return null;
  };

  const port = int('PORT', 3000, 0, 65535);
  const host = str('HOST') ?? '127.0.0.1';
  const baseUrl = url('BASE_URL', ['http:', 'https:']) ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  const logLevel = (str('LOG_LEVEL') ?? 'info').toLowerCase();
  if (!LOG_LEVELS.includes(logLevel))
    problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${logLevel}")`);

  const webhookSecretKey = str('WEBHOOK_SECRET_KEY');
  if (webhookSecretKey !== null && Buffer.from(webhookSecretKey, 'base64').length !== 32) {
    problems.push('WEBHOOK_SECRET_KEY must be base64 of 32 bytes');
  }

  const mediaGatewaySecret = str('MEDIA_GATEWAY_SECRET');
  if (mediaGatewaySecret !== null && !/^whsec_[A-Za-z0-9+/=]{20,}$/.test(mediaGatewaySecret)) {
    problems.push('MEDIA_GATEWAY_SECRET must be whsec_ followed by base64 (at least 20 characters)');
  }
  if (str('MEDIA_GATEWAY_URL') !== null && mediaGatewaySecret === null) {
    problems.push(
      'MEDIA_GATEWAY_SECRET is required when MEDIA_GATEWAY_URL is set (it signs dispatches and ingest signals)',
    );
  }

  // The blob store: every instance must reach the same one (docs/configuration.md, "Stored files").
  const blobStore = (str('BLOB_STORE') ?? 'postgres').toLowerCase();
  if (blobStore !== 'postgres' && blobStore !== 's3')
    problems.push(`BLOB_STORE must be postgres or s3 (got "${blobStore}")`);
  const s3Key = [str('S3_ACCESS_KEY_ID'), str('S3_SECRET_ACCESS_KEY')] as const;
  if ((s3Key[0] === null) !== (s3Key[1] === null))
    problems.push('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together (neither: the AWS SDK default chain)');
  if (blobStore === 's3' && str('S3_BUCKET') === null) problems.push('S3_BUCKET is required when BLOB_STORE=s3');
  const s3: S3Settings | null =
    blobStore === 's3'
      ? {
          bucket: str('S3_BUCKET') ?? '',
          endpoint: url('S3_ENDPOINT', ['http:', 'https:']),
          region: str('S3_REGION') ?? str('AWS_REGION') ?? 'us-east-1',
          accessKeyId: s3Key[0],
          secretAccessKey: s3Key[1],
          forcePathStyle: bool('S3_FORCE_PATH_STYLE'),
        }
      : null;

  const config: AppConfig = {
    port,
    host,
    httpRequestTimeoutMs: int('HTTP_REQUEST_TIMEOUT_MS', 30000, 100, 600000),
    idempotencyLockMs: int('IDEMPOTENCY_LOCK_MS', 60000, 1000, 600000),
    databaseUrl: url('DATABASE_URL', ['postgres:', 'postgresql:']),
    eventStoreUrl: eventStoreUrl(),
    dataDir: str('DATA_DIR') ?? './.data',
    baseUrl,
    recordingsUrl: url('RECORDINGS_URL', ['http:', 'https:']) ?? `${baseUrl}/recordings`,
    roomsUrl: url('ROOMS_URL', ['http:', 'https:']) ?? `${baseUrl}/rooms`,
    adminToken: str('ADMIN_TOKEN'),
    webhookSecretKey,
    smtpUrl: url('SMTP_URL', ['smtp:', 'smtps:']),
    mailFrom: str('MAIL_FROM') ?? 'Voice Agent Platform <notices@localhost>',
    mediaGatewayUrl: url('MEDIA_GATEWAY_URL', ['http:', 'https:']),
    mediaGatewaySecret,
    processorMaxAttempts: int('PROCESSOR_MAX_ATTEMPTS', 5, 1, 1000),
    commandCacheStreams: int('COMMAND_CACHE_STREAMS', 2_000, 0, 1_000_000),
    commandCacheMb: int('COMMAND_CACHE_MB', 16, 1, 4_096),
    sipTrunkUri: str('SIP_TRUNK_URI'),
    logLevel,
    blobStore: blobStore === 's3' ? 's3' : 'postgres',
    s3,
    sections: new Map(sections.map((section) => [section, section.parse(reader)])),
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

export const APP_CONFIG = Symbol('APP_CONFIG');

/** A context's parsed section; it must have been loaded (registered as its `BoundedContext`'s `settings`). */
export function settingsOf<T>(config: AppConfig, section: ConfigSection<T>): T {
  if (!config.sections.has(section)) {
    throw new Error(`settings "${section.title}" were not loaded: load the configuration with loadAppConfig()`);
  }
  return config.sections.get(section) as T;
}
