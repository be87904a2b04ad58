import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
const int = (min: number, max = Number.MAX_SAFE_INTEGER) => z.coerce.number().int().min(min).max(max);
const optionalUrl = z
  .string()
  .url()
  .optional()
  .or(z.literal('').transform(() => undefined));
const optionalSecret = z
  .string()
  .min(16, 'must be at least 16 characters')
  .optional()
  .or(z.literal('').transform(() => undefined));
const hostPortList = z
  .string()
  .default('')
  .transform((list) =>
    list
      .split(',')
      .map((entry) => entry.trim().toLowerCase())
      .filter(Boolean),
  )
  .pipe(
    z.array(
      z
        .string()
        .regex(
          /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+):\d{1,5}$/,
          'each entry must be host:port, e.g. intranet.example:443 or [fd00::5]:80',
        ),
    ),
  );

/**
 * The checkout this file belongs to, whether it runs from its source (packages/config/src) or compiled into
 * dist/: the nearest folder up with the lockfile. Each checkout gets its own default data dir, so two clones
 * never share a database, and `npm start` and `npm run dev` of one clone share theirs.
 */
const checkoutRoot = findUp(path.dirname(fileURLToPath(import.meta.url)), 'package-lock.json');

function findUp(from: string, file: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, file))) return dir;
    if (path.dirname(dir) === dir) return path.resolve(from, '../../..');
  }
}
const defaultDataDir = path.join(
  os.tmpdir(),
  `quire-${path.basename(checkoutRoot)}-${createHash('sha256').update(checkoutRoot).digest('hex').slice(0, 8)}`,
);

/** Every setting quire reads, with its default. `.env.example` documents the same list. */
const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),

  HOST: z.string().default('127.0.0.1'),
  PORT: int(0, 65535).default(3000),
  /** Base URL clients reach the api at; used in upload/download URLs and Location headers. */
  PUBLIC_URL: optionalUrl,

  /** Where the embedded stack keeps its data. As root, Postgres runs as user `postgres`, so this must not be root-only. */
  QUIRE_DATA_DIR: z.string().default(defaultDataDir),

  DATABASE_URL: optionalUrl,
  DATABASE_POOL_SIZE: int(1, 100).default(10),
  REDIS_URL: optionalUrl,
  QUEUE_PREFIX: z.string().min(1).default('quire'),
  /**
   * How long the api waits for Redis to answer one command (enqueue, rate limit) before answering 503. A
   * refused connection fails at once; this bounds a partition, where packets go unanswered.
   */
  REDIS_COMMAND_TIMEOUT_MS: int(100, 600_000).default(5_000),

  S3_ENDPOINT: z.string().optional(),
  S3_PORT: int(1, 65535).optional(),
  S3_USE_SSL: bool.default(false),
  S3_ACCESS_KEY: z.string().default(''),
  S3_SECRET_KEY: z.string().default(''),
  S3_REGION: z.string().default('us-east-1'),
  S3_BUCKET: z.string().default('quire'),
  /** Prefix for every object key (lets several deployments or test runs share a bucket). */
  STORAGE_KEY_PREFIX: z
    .string()
    .regex(/^([\w.-]+\/)*$/, 'segments of letters, digits, ".", "-", "_", each ending in "/"')
    .default(''),
  /** Directory of the local-disk driver, used when S3_ENDPOINT is not set. */
  STORAGE_DIR: z.string().optional(),
  /** HMAC secret for the local driver's upload/download URLs; api and workers must share it. */
  STORAGE_SIGNING_SECRET: z.string().min(16).optional(),

  UPLOAD_MAX_BYTES: int(1).default(2 * 1024 ** 3),
  UPLOAD_URL_TTL_SECONDS: int(60, 7 * 24 * 3600).default(3600),
  DOWNLOAD_URL_TTL_SECONDS: int(60, 7 * 24 * 3600).default(3600),
  /** A material's URLs are signed for this much longer and reused by the responses of that span (0: signed per response). */
  DOWNLOAD_URL_REUSE_SECONDS: int(0, 3600).default(60),
  JSON_BODY_MAX_BYTES: int(1024).default(1024 * 1024),
  TEXT_MATERIAL_MAX_CHARS: int(1).default(5_000_000),
  BATCH_MAX_ITEMS: int(1, 1000).default(100),
  /** Name-search counts an api process keeps (each exact while the organization's materials keep their names); 0 = count every time. */
  LIST_COUNT_CACHE_ENTRIES: int(0).default(10_000),
  /** Megabytes of materials' rendered JSON an api process keeps per row version (0: rendered for every response). */
  MATERIAL_JSON_CACHE_MB: int(0, 16_384).default(64),
  /** Longest startDate..endDate of an analytics report (a bound on the work and the size of one answer). */
  ANALYTICS_MAX_RANGE_DAYS: int(1, 36_600).default(3660),
  /** Most periods one usage summary may have (hourly periods are read from raw events, one range scan each). */
  USAGE_SUMMARY_MAX_PERIODS: int(1, 100_000).default(4000),
  /** Which API requests become `api_call` usage events: none, a sample (API_CALL_SAMPLE_RATE of them) or all. */
  API_CALL_EVENTS: z.enum(['off', 'sampled', 'all']).default('all'),
  API_CALL_SAMPLE_RATE: z.coerce.number().gt(0).max(1).default(0.1),
  /** Days an `api_call` event is kept (the analytics events are kept for ever); 0 keeps them for ever too. */
  API_CALL_RETENTION_DAYS: int(0, 36_600).default(30),
  /** An api process writes its `api_call` events in batches: at most this often, or when this many wait. */
  API_CALL_FLUSH_MS: int(10, 600_000).default(1000),
  API_CALL_BATCH_MAX: int(1, 10_000).default(500),
  /** Text fields one multipart upload may carry, and the bytes of each (the file is bounded by UPLOAD_MAX_BYTES). */
  UPLOAD_MAX_FIELDS: int(1, 1000).default(20),
  UPLOAD_MAX_FIELD_BYTES: int(1024).default(512 * 1024),
  /** A connection that sends and receives nothing for this long is dropped (stalled uploads, idle clients). */
  HTTP_IDLE_TIMEOUT_MS: int(1000).default(120_000),
  /** How long SIGTERM lets running requests finish before closing their connections. */
  API_SHUTDOWN_MS: int(0).default(25_000),
  /** Time a client has to send its request headers. */
  HTTP_HEADERS_TIMEOUT_MS: int(1000).default(60_000),

  /** Requests per minute from one client address, counted before authentication. */
  RATE_LIMIT_PER_IP: int(1).default(1200),
  /** Requests per minute with one API key. */
  RATE_LIMIT_PER_KEY: int(1).default(600),
  /** How long an api process may answer from its own copy of a key's row; revocations reach it at once anyway. 0 = no copy. */
  API_KEY_CACHE_TTL_MS: int(0, 3_600_000).default(30_000),
  /** Most keys one api process keeps a copy of (the least recently used go first). */
  API_KEY_CACHE_MAX_ENTRIES: int(1).default(10_000),
  /** How often the api checks that its connection listening for revocations still answers (and how long it may take). */
  AUTH_LISTEN_HEARTBEAT_MS: int(100, 600_000).default(5_000),
  /** Set when the api runs behind a proxy that sets X-Forwarded-For (Express `trust proxy`). */
  TRUST_PROXY: z.string().default('false'),

  /** Bearer token (or basic-auth password) of the queue dashboard at /admin/queues; unset = no dashboard (404). */
  ADMIN_TOKEN: optionalSecret,
  /** Bearer token `/metrics` asks for; unset = open, for a Prometheus on a private network. */
  METRICS_TOKEN: optionalSecret,
  /** Port of the worker's own HTTP server (`/metrics`, `/healthz`), bound to HOST; 0 = any free port. */
  WORKER_METRICS_PORT: int(0, 65535).default(9464),
  /** Comment lines sent on an idle `/events` stream so proxies and clients keep it open; the row is re-read then too. */
  SSE_HEARTBEAT_MS: int(100).default(15_000),

  /** Attempts per webhook delivery, spaced by exponential backoff from WEBHOOK_BACKOFF_MS. */
  WEBHOOK_ATTEMPTS: int(1, 30).default(10),
  WEBHOOK_BACKOFF_MS: int(10).default(10_000),
  /** Time a receiver has to answer one delivery attempt. */
  WEBHOOK_TIMEOUT_MS: int(100).default(10_000),
  /** `host:port` pairs webhooks may be delivered to although they resolve to private addresses. */
  WEBHOOK_ALLOW_HOSTS: hostPortList,

  WORKER_CONCURRENCY: int(1, 64).default(2),
  /** Slots a worker keeps for materials someone waits for (`*-and-process`), besides WORKER_CONCURRENCY. */
  WORKER_INTERACTIVE_CONCURRENCY: int(1, 64).default(1),
  JOB_ATTEMPTS: int(1, 20).default(3),
  /** How long a job stays locked to a worker without renewal; a dead worker's jobs return after this. */
  WORKER_LOCK_MS: int(1000).default(60_000),
  /** How long SIGTERM waits for running jobs before handing them back to the queue. */
  WORKER_SHUTDOWN_MS: int(0).default(30_000),
  EXTRACT_TIMEOUT_MS: int(1000).default(10 * 60 * 1000),
  EXTRACT_MAX_MEMORY_MB: int(64).default(2048),
  /** Jobs one warm sandbox child serves before it is replaced; 1 is a fresh process per job. */
  EXTRACT_CHILD_MAX_JOBS: int(1).default(100),
  /** A child whose resident memory after a job is above this is replaced before the next job. */
  EXTRACT_CHILD_RECYCLE_RSS_MB: int(64).default(512),
  /** Sandbox children a worker keeps started ahead, so that a replaced child's slot never waits for a new one. */
  EXTRACT_SPARE_CHILDREN: int(0, 8).default(1),
  /** The share of a document's time budget its image extraction may use once the text is out (0.05..1). */
  EXTRACT_IMAGES_SHARE: z.coerce.number().min(0.05).max(1).default(0.5),
  /** PDF text engine: PDFium (WebAssembly) or pdf.js (through pdf-parse), which also takes over whatever PDFium refuses. */
  PDF_ENGINE: z.enum(['pdfium', 'pdf-parse']).default('pdfium'),
  /** Ceiling of an audio or video file's budget, which otherwise grows with its duration (known from ffprobe). */
  MEDIA_TIMEOUT_MAX_MS: int(1000).default(4 * 3600 * 1000),
  /** Recordings longer than this are cut at silences into chunks of about this length, transcribed as separate jobs. */
  MEDIA_CHUNK_SECONDS: int(2, 3600).default(120),
  /**
   * Shares of the processing slots, as `organizationId=weight` pairs (comma separated): while several
   * organizations have work waiting, one of weight 2 gets twice the slots of one of weight 1 (the default).
   */
  FAIR_SHARE_WEIGHTS: z
    .string()
    .default('')
    .transform((list) =>
      list
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean)
        .map((entry) => entry.split('=').map((part) => part.trim())),
    )
    .pipe(
      z.array(
        z.tuple(
          [z.string().min(1), z.string().transform(Number).pipe(z.number().positive().max(1000))],
          'each entry must be organizationId=weight, the weight a number above 0 and at most 1000',
        ),
      ),
    )
    .transform((pairs) => new Map<string, number>(pairs)),
  /** Organizations named in the per-organization queue depth of /metrics (the most waiting jobs); the rest add up as `other`. */
  METRICS_QUEUE_ORGANIZATIONS: int(0, 1000).default(10),
  /** Materials in `processing` longer than this are re-enqueued by the sweeper. */
  PROCESSING_STALE_MS: int(60_000).default(30 * 60 * 1000),
  SWEEP_INTERVAL_MS: int(1000).default(60_000),

  /** `npm start` restarts a process that exits; more than this many exits within the window and it gives up. */
  SUPERVISOR_MAX_RESTARTS: int(0).default(5),
  SUPERVISOR_RESTART_WINDOW_MS: int(1000).default(60_000),
  /** Wait before the first restart, doubled for each further exit within the window (at most 30 s). */
  SUPERVISOR_BACKOFF_MS: int(0).default(1000),
  /** How long the api or worker may take to report ready before `npm start` counts it as failed to start. */
  SUPERVISOR_START_TIMEOUT_MS: int(1000).default(60_000),
  /** Extracted text longer than this is kept in storage (`metadata.textKey`) instead of the row. */
  INLINE_TEXT_MAX_CHARS: int(0).default(200_000),

  URL_FETCH_MAX_BYTES: int(1).default(200 * 1024 * 1024),
  URL_FETCH_TIMEOUT_MS: int(1000).default(60_000),
  /** `host:port` pairs (comma separated) URL materials may fetch from although they resolve to private addresses. */
  URL_FETCH_ALLOW_HOSTS: hostPortList,

  FFMPEG_PATH: z.string().default('ffmpeg'),
  FFPROBE_PATH: z.string().default('ffprobe'),
  SPEECH_ENGINE: z.enum(['pocketsphinx', 'none']).default('pocketsphinx'),
  POCKETSPHINX_PATH: z.string().default('pocketsphinx_continuous'),
  /** A CMUSphinx model: one acoustic model folder, one `*.lm.bin` language model, one `*.dict` dictionary. */
  POCKETSPHINX_MODEL_DIR: z.string().default('/usr/share/pocketsphinx/model/en-us'),

  /** Languages OCR may read (tesseract codes); a material without `ocrLanguages` is read with all of them. */
  OCR_LANGUAGES: z
    .string()
    .default('eng')
    .transform((list) => [...new Set(list.split(/[,+\s]+/).filter(Boolean))])
    .pipe(z.array(z.string().regex(/^[a-z]{3}(_[a-z]+)?$/i, 'tesseract language codes, e.g. eng,fra')).min(1)),
  /** A folder of `<lang>.traineddata` files, used for languages not installed from npm (`@tesseract.js-data/<lang>`). */
  OCR_DATA_DIR: z.string().optional(),
  /** Page-count budget: pages without a text layer recognized per PDF; 0 turns OCR of PDF pages off. */
  OCR_MAX_PAGES: int(0).default(500),
  /** Per-page budget of OCR: a page that takes longer is given up and listed in `metadata.ocr.skipped`. */
  OCR_PAGE_TIMEOUT_MS: int(1000).default(60_000),
  /** Resolution pages without a text layer are rendered at for OCR. */
  OCR_DPI: int(72, 600).default(300),
});

type Env = z.infer<typeof envSchema>;

/** Where objects live: an S3-compatible service when S3_ENDPOINT is set, else a directory with signed URLs. */
export type StorageConfig = { keyPrefix: string } & (
  | {
      driver: 's3';
      endpoint: string;
      port?: number;
      useSsl: boolean;
      accessKey: string;
      secretKey: string;
      region: string;
      bucket: string;
    }
  | { driver: 'local'; dir: string; signingSecret?: string }
);

/** Every setting, in sections; each comes from one environment variable of `envSchema` (see `.env.example`). */
export interface Config {
  nodeEnv: Env['NODE_ENV'];
  logLevel: Env['LOG_LEVEL'];
  /** Where the embedded stack (npm start) keeps Postgres, Redis and local storage. */
  dataDir: string;
  server: {
    host: string;
    port: number;
    /** Base URL clients reach the api at, without a trailing slash. */
    publicUrl: string;
    trustProxy: string;
    idleTimeoutMs: number;
    headersTimeoutMs: number;
    shutdownMs: number;
    adminToken?: string;
    metricsToken?: string;
    sseHeartbeatMs: number;
    workerMetricsPort: number;
  };
  database: { url?: string; poolSize: number };
  /** The api's copy of API keys (see docs/operations.md, "API keys and revocation"). */
  auth: { keyCacheTtlMs: number; keyCacheMaxEntries: number; listenHeartbeatMs: number };
  redis: { url?: string; queuePrefix: string; commandTimeoutMs: number };
  storage: StorageConfig;
  extraction: {
    timeoutMs: number;
    maxMemoryMb: number;
    childMaxJobs: number;
    childRecycleRssMb: number;
    spareChildren: number;
    imagesShare: number;
    pdfEngine: Env['PDF_ENGINE'];
    mediaTimeoutMaxMs: number;
    mediaChunkSeconds: number;
    inlineTextMaxChars: number;
    ffmpegPath: string;
    ffprobePath: string;
    speechEngine: Env['SPEECH_ENGINE'];
    pocketsphinxPath: string;
    pocketsphinxModelDir: string;
    ocr: { languages: string[]; dataDir?: string; maxPages: number; pageTimeoutMs: number; dpi: number };
    urlFetch: { maxBytes: number; timeoutMs: number; allowHosts: string[] };
  };
  limits: {
    uploadMaxBytes: number;
    uploadMaxFields: number;
    uploadMaxFieldBytes: number;
    uploadUrlTtlSeconds: number;
    downloadUrlTtlSeconds: number;
    downloadUrlReuseSeconds: number;
    jsonBodyMaxBytes: number;
    textMaterialMaxChars: number;
    batchMaxItems: number;
    listCountCacheEntries: number;
    materialJsonCacheMb: number;
    analyticsMaxRangeDays: number;
    usageSummaryMaxPeriods: number;
    ratePerIp: number;
    ratePerKey: number;
  };
  worker: {
    concurrency: number;
    interactiveConcurrency: number;
    jobAttempts: number;
    lockMs: number;
    shutdownMs: number;
    processingStaleMs: number;
    sweepIntervalMs: number;
  };
  webhooks: { attempts: number; backoffMs: number; timeoutMs: number; allowHosts: string[] };
  /** Which requests the api records as `api_call` usage events, for how long, and how it writes them. */
  apiCalls: {
    mode: 'off' | 'sampled' | 'all';
    sampleRate: number;
    retentionDays: number;
    flushIntervalMs: number;
    batchMax: number;
  };
  /** How processing slots are shared between organizations (see docs/operations.md). */
  fairShare: { weights: ReadonlyMap<string, number>; metricsOrganizations: number };
  /** How `npm start` keeps the processes it started running. */
  supervisor: { maxRestarts: number; restartWindowMs: number; backoffMs: number; startTimeoutMs: number };
}

/** The configuration of a process that talks to Postgres and Redis: both URLs are known to be there. */
export type ServiceConfig = Config & {
  database: Config['database'] & { url: string };
  redis: Config['redis'] & { url: string };
};

/** Parses the environment once; a bad value stops startup with the variable named. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  const storage: StorageConfig = e.S3_ENDPOINT
    ? {
        driver: 's3',
        keyPrefix: e.STORAGE_KEY_PREFIX,
        endpoint: e.S3_ENDPOINT,
        ...(e.S3_PORT !== undefined ? { port: e.S3_PORT } : {}),
        useSsl: e.S3_USE_SSL,
        accessKey: e.S3_ACCESS_KEY,
        secretKey: e.S3_SECRET_KEY,
        region: e.S3_REGION,
        bucket: e.S3_BUCKET,
      }
    : {
        driver: 'local',
        keyPrefix: e.STORAGE_KEY_PREFIX,
        dir: e.STORAGE_DIR ?? path.join(e.QUIRE_DATA_DIR, 'storage'),
        ...(e.STORAGE_SIGNING_SECRET ? { signingSecret: e.STORAGE_SIGNING_SECRET } : {}),
      };
  return {
    nodeEnv: e.NODE_ENV,
    logLevel: e.LOG_LEVEL,
    dataDir: e.QUIRE_DATA_DIR,
    server: {
      host: e.HOST,
      port: e.PORT,
      publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
      trustProxy: e.TRUST_PROXY,
      idleTimeoutMs: e.HTTP_IDLE_TIMEOUT_MS,
      headersTimeoutMs: e.HTTP_HEADERS_TIMEOUT_MS,
      shutdownMs: e.API_SHUTDOWN_MS,
      ...(e.ADMIN_TOKEN ? { adminToken: e.ADMIN_TOKEN } : {}),
      ...(e.METRICS_TOKEN ? { metricsToken: e.METRICS_TOKEN } : {}),
      sseHeartbeatMs: e.SSE_HEARTBEAT_MS,
      workerMetricsPort: e.WORKER_METRICS_PORT,
    },
    database: { ...(e.DATABASE_URL ? { url: e.DATABASE_URL } : {}), poolSize: e.DATABASE_POOL_SIZE },
    auth: {
      keyCacheTtlMs: e.API_KEY_CACHE_TTL_MS,
      keyCacheMaxEntries: e.API_KEY_CACHE_MAX_ENTRIES,
      listenHeartbeatMs: e.AUTH_LISTEN_HEARTBEAT_MS,
    },
    redis: {
      ...(e.REDIS_URL ? { url: e.REDIS_URL } : {}),
      queuePrefix: e.QUEUE_PREFIX,
      commandTimeoutMs: e.REDIS_COMMAND_TIMEOUT_MS,
    },
    storage,
    extraction: {
      timeoutMs: e.EXTRACT_TIMEOUT_MS,
      maxMemoryMb: e.EXTRACT_MAX_MEMORY_MB,
      childMaxJobs: e.EXTRACT_CHILD_MAX_JOBS,
      childRecycleRssMb: e.EXTRACT_CHILD_RECYCLE_RSS_MB,
      spareChildren: e.EXTRACT_SPARE_CHILDREN,
      imagesShare: e.EXTRACT_IMAGES_SHARE,
      pdfEngine: e.PDF_ENGINE,
      mediaTimeoutMaxMs: e.MEDIA_TIMEOUT_MAX_MS,
      mediaChunkSeconds: e.MEDIA_CHUNK_SECONDS,
      inlineTextMaxChars: e.INLINE_TEXT_MAX_CHARS,
      ffmpegPath: e.FFMPEG_PATH,
      ffprobePath: e.FFPROBE_PATH,
      speechEngine: e.SPEECH_ENGINE,
      pocketsphinxPath: e.POCKETSPHINX_PATH,
      pocketsphinxModelDir: e.POCKETSPHINX_MODEL_DIR,
      ocr: {
        languages: e.OCR_LANGUAGES,
        ...(e.OCR_DATA_DIR ? { dataDir: e.OCR_DATA_DIR } : {}),
        maxPages: e.OCR_MAX_PAGES,
        pageTimeoutMs: e.OCR_PAGE_TIMEOUT_MS,
        dpi: e.OCR_DPI,
      },
      urlFetch: {
        maxBytes: e.URL_FETCH_MAX_BYTES,
        timeoutMs: e.URL_FETCH_TIMEOUT_MS,
        allowHosts: e.URL_FETCH_ALLOW_HOSTS,
      },
    },
    limits: {
      uploadMaxBytes: e.UPLOAD_MAX_BYTES,
      uploadMaxFields: e.UPLOAD_MAX_FIELDS,
      uploadMaxFieldBytes: e.UPLOAD_MAX_FIELD_BYTES,
      uploadUrlTtlSeconds: e.UPLOAD_URL_TTL_SECONDS,
      downloadUrlTtlSeconds: e.DOWNLOAD_URL_TTL_SECONDS,
      downloadUrlReuseSeconds: e.DOWNLOAD_URL_REUSE_SECONDS,
      jsonBodyMaxBytes: e.JSON_BODY_MAX_BYTES,
      textMaterialMaxChars: e.TEXT_MATERIAL_MAX_CHARS,
      batchMaxItems: e.BATCH_MAX_ITEMS,
      listCountCacheEntries: e.LIST_COUNT_CACHE_ENTRIES,
      materialJsonCacheMb: e.MATERIAL_JSON_CACHE_MB,
      analyticsMaxRangeDays: e.ANALYTICS_MAX_RANGE_DAYS,
      usageSummaryMaxPeriods: e.USAGE_SUMMARY_MAX_PERIODS,
      ratePerIp: e.RATE_LIMIT_PER_IP,
      ratePerKey: e.RATE_LIMIT_PER_KEY,
    },
    worker: {
      concurrency: e.WORKER_CONCURRENCY,
      interactiveConcurrency: e.WORKER_INTERACTIVE_CONCURRENCY,
      jobAttempts: e.JOB_ATTEMPTS,
      lockMs: e.WORKER_LOCK_MS,
      shutdownMs: e.WORKER_SHUTDOWN_MS,
      processingStaleMs: e.PROCESSING_STALE_MS,
      sweepIntervalMs: e.SWEEP_INTERVAL_MS,
    },
    webhooks: {
      attempts: e.WEBHOOK_ATTEMPTS,
      backoffMs: e.WEBHOOK_BACKOFF_MS,
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      allowHosts: e.WEBHOOK_ALLOW_HOSTS,
    },
    apiCalls: {
      mode: e.API_CALL_EVENTS,
      sampleRate: e.API_CALL_SAMPLE_RATE,
      retentionDays: e.API_CALL_RETENTION_DAYS,
      flushIntervalMs: e.API_CALL_FLUSH_MS,
      batchMax: e.API_CALL_BATCH_MAX,
    },
    fairShare: { weights: e.FAIR_SHARE_WEIGHTS, metricsOrganizations: e.METRICS_QUEUE_ORGANIZATIONS },
    supervisor: {
      maxRestarts: e.SUPERVISOR_MAX_RESTARTS,
      restartWindowMs: e.SUPERVISOR_RESTART_WINDOW_MS,
      backoffMs: e.SUPERVISOR_BACKOFF_MS,
      startTimeoutMs: e.SUPERVISOR_START_TIMEOUT_MS,
    },
  };
}

/**
 * The configuration of the api or a worker, which cannot run without Postgres and Redis: a missing
 * DATABASE_URL or REDIS_URL stops startup here, naming the variable, instead of failing later.
 */
export function loadServiceConfig(env: NodeJS.ProcessEnv = process.env): ServiceConfig {
  return requireServices(loadConfig(env));
}

export function requireServices(config: Config): ServiceConfig {
  const { database, redis } = config;
  const missing = [...(database.url ? [] : ['DATABASE_URL']), ...(redis.url ? [] : ['REDIS_URL'])];
  if (missing.length > 0 || !database.url || !redis.url)
    throw new Error(`Invalid configuration: ${missing.join(' and ')} must be set`);
  return { ...config, database: { ...database, url: database.url }, redis: { ...redis, url: redis.url } };
}
