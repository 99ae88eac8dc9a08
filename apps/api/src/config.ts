import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { isAbsolute, join, resolve } from 'node:path';
import { isIP } from 'node:net';
import { parseEnv } from 'node:util';
import { z } from 'zod';
import { REPO_ROOT } from './paths';
import { ROLES, type Role } from '@bmet/shared/constants';
import { resolveAddress, type FirebaseAddress, type FirebaseCredentials } from './firebase-link/rest-client';

export { REPO_ROOT } from './paths';

const booleanFromEnv = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], {
    message: 'must be true or false',
  })
  .transform((value) => ['true', '1', 'yes'].includes(value));

const PROXY_PRESETS = ['loopback', 'linklocal', 'uniquelocal'];

function isAddressOrRange(entry: string): boolean {
  if (PROXY_PRESETS.includes(entry)) return true;
  const [address = '', bits, extra] = entry.split('/');
  const version = isIP(address);
  if (!version || extra !== undefined) return false;
  if (bits === undefined) return true;
  const n = Number(bits);
  return /^\d+$/.test(bits) && n <= (version === 4 ? 32 : 128);
}

/** Proxies live in a network of their own: wider than /8 (IPv4) or /16 (IPv6) is most of the internet. */
const MIN_PROXY_PREFIX = { 4: 8, 6: 16 } as const;
function isTooWide(entry: string): boolean {
  const [address = '', bits] = entry.split('/');
  const version = isIP(address);
  if (bits === undefined || (version !== 4 && version !== 6)) return false;
  // An IPv4-mapped IPv6 range (::ffff:0:0/96) covers IPv4 clients: its width is counted in IPv4 terms.
  if (version === 6 && /^::ffff:/i.test(address)) return Number(bits) - 96 < MIN_PROXY_PREFIX[4];
  return Number(bits) < MIN_PROXY_PREFIX[version];
}

/**
 * Which proxies to believe about the client's address: none, a number of hops (the addresses the
 * nearest N proxies appended), or the proxies' own addresses and ranges. Never "any": a client
 * could then write its own X-Forwarded-For and pick the address every limit counts.
 */
const trustProxyFromEnv = z.string().transform((value, context): false | number | string => {
  const text = value.trim().toLowerCase();
  if (['', 'false', 'no', '0'].includes(text)) return false;
  if (/^\d+$/.test(text) && Number(text) <= 10) return Number(text);
  const entries = text.split(',').map((entry) => entry.trim());
  const tooWide = entries.filter((entry) => isAddressOrRange(entry) && isTooWide(entry));
  if (tooWide.length > 0) {
    context.addIssue({
      code: 'custom',
      message: `${tooWide.join(', ')} would believe the X-Forwarded-For of almost any address; name the proxies' own addresses or network (at most /8 for IPv4, /16 for IPv6)`,
    });
    return z.NEVER;
  }
  if (entries.every(isAddressOrRange)) return entries.join(',');
  context.addIssue({
    code: 'custom',
    message: ['true', 'yes'].includes(text)
      ? 'true would believe any X-Forwarded-For a client writes; give the number of proxies in front of the server (such as 1) or their addresses (such as 10.0.0.5,10.1.0.0/16)'
      : 'must be false, a number of proxies from 1 to 10, or addresses and ranges of the proxies (such as 10.0.0.5,10.1.0.0/16, or loopback)',
  });
  return z.NEVER;
});

/** The variables of the configuration, each with its check and default (.env.example lists them all). */
export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  TOKEN_TTL_HOURS: z.coerce.number().positive().max(720).default(3),
  DEMO_DATA: booleanFromEnv.optional(),
  DEMO_PASSWORD: z.string().min(8, 'must be at least 8 characters').default('etaxi-demo-2026'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_PRETTY: booleanFromEnv.optional(),
  TRUST_PROXY: trustProxyFromEnv.default(false),
  REQUEST_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(1200),
  SESSIONS_PER_ACCOUNT: z.coerce.number().int().min(1).max(100).default(10),
  STREAMS_PER_ACCOUNT: z.coerce.number().int().min(1).max(1000).default(20),
  WEB_DIST: z.string().optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must start with redis:// or rediss://')
    .optional(),
  MAP_TILE_URL: z
    .string()
    .regex(/\{z\}.*\{x\}.*\{y\}/, 'must contain {z}, {x} and {y}')
    .default('https://tile.openstreetmap.org/{z}/{x}/{y}.png'),
  MAP_ATTRIBUTION: z.string().default('© OpenStreetMap contributors'),
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  S3_BUCKET: z.string().min(1).optional(),
  S3_ENDPOINT: z.url().optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: booleanFromEnv.default(true),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^/\s]+/, 'must look like smtp://user:password@host:587 or smtps://host:465')
    .optional(),
  MAIL_FROM: z.string().min(3).default('Book-My-ETaxi <no-reply@bookmyetaxi.in>'),
  APP_URL: z.url({ message: 'must be a URL such as https://console.bookmyetaxi.in' }).optional(),
  FIREBASE_DATABASE_URL: z
    .url({
      message:
        'must be the database URL, such as https://PROJECT-default-rtdb.asia-southeast1.firebasedatabase.app',
    })
    .optional(),
  FIREBASE_DATABASE_SECRET: z.string().min(1).optional(),
  GOOGLE_APPLICATION_CREDENTIALS: z.string().min(1).optional(),
  FIREBASE_DATABASE_EMULATOR_HOST: z
    .string()
    .regex(/^[^/\s:]+:\d{1,5}$/, 'must be host:port, such as 127.0.0.1:9000')
    .optional(),
  FIREBASE_WRITE_BACK: booleanFromEnv.optional(),
  REQUIRE_SECOND_FACTOR: z
    .string()
    .default('')
    .transform((text) =>
      text
        .split(',')
        .map((role) => role.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.enum(ROLES, { message: `must list roles among ${ROLES.join(', ')}, comma-separated` }))),
});

export type Config = {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  jwtSecret: string;
  tokenTtlHours: number;
  demoData: boolean;
  demoPassword: string;
  logLevel: string;
  logPretty: boolean;
  /** false, a hop count, or proxy addresses and ranges (comma-separated), as Fastify's trustProxy. */
  trustProxy: false | number | string;
  /** A request's headers and body must arrive within this, or it is answered 408. */
  requestTimeoutSeconds: number;
  /** The global limit of /api requests per client address and minute. */
  rateLimitPerMinute: number;
  /** Live sessions an account keeps: a sign-in beyond them ends the oldest. */
  sessionsPerAccount: number;
  /** Live streams (maps) an account may hold open on one instance, all its sessions together. */
  streamsPerAccount: number;
  webDist: string;
  redisUrl: string | undefined;
  /** What a scraper from another host must send to read /metrics; without it only loopback may. */
  metricsToken: string | undefined;
  mapTileUrl: string;
  mapAttribution: string;
  /** Document images: a folder under DATA_DIR unless an S3 bucket is configured. */
  objectStore:
    | { kind: 'local'; root: string }
    | {
        kind: 's3';
        bucket: string;
        endpoint: string | undefined;
        region: string;
        accessKeyId: string | undefined;
        secretAccessKey: string | undefined;
        forcePathStyle: boolean;
      };
  /** Outgoing mail (password reset links): SMTP when configured, else printed to the log. */
  mail: { smtpUrl: string | undefined; from: string; appUrl: string };
  /** The roles whose accounts must pass a second factor at sign-in (REQUIRE_SECOND_FACTOR). */
  requireSecondFactor: Role[];
  /** The link to the apps' Firebase Realtime Database, when FIREBASE_DATABASE_URL is set. */
  firebase: FirebaseLinkConfig | null;
};

export type FirebaseLinkConfig = {
  address: FirebaseAddress;
  credentials: FirebaseCredentials;
  /** Rates, city dealers and franchises changed in the console are written to Firebase (FIREBASE_WRITE_BACK). */
  writeBack: boolean;
};

export class ConfigError extends Error {}

function resolveFromInvocation(path: string): string {
  if (isAbsolute(path)) return path;
  // npm runs workspace scripts inside the workspace; INIT_CWD is where the user typed the command.
  return resolve(process.env.INIT_CWD ?? REPO_ROOT, path);
}

/** Reads a secret kept in the data folder, creating it on first start, so tokens survive restarts. */
function loadOrCreateSecret(dataDir: string): string {
  const file = join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const secret = randomBytes(48).toString('base64url');
  try {
    // Created exclusively: of two processes starting at once, both read the one secret written.
    writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return readFileSync(file, 'utf8').trim();
  }
  return secret;
}

/**
 * What a server database without its companions breaks once several instances run: said at start,
 * so that an operator scaling out learns it before the users do.
 */
export function severalInstanceWarnings(
  config: Pick<Config, 'databaseUrl' | 'redisUrl' | 'objectStore'>,
): string[] {
  if (!config.databaseUrl) return [];
  const warnings: string[] = [];
  if (!config.redisUrl) {
    warnings.push(
      'DATABASE_URL is set without REDIS_URL: with several instances, a position reported to one ' +
        'reaches only the dashboards open on that one.',
    );
  }
  if (config.objectStore.kind === 'local') {
    warnings.push(
      "DATABASE_URL is set without S3_BUCKET: document images stay in this instance's DATA_DIR, " +
        'and other instances answer 404 for them.',
    );
  }
  return warnings;
}

/**
 * Fills `env` from a `.env` file in the folder where the command was typed, when there is one;
 * a variable already set in the environment wins. Answers the file read, or null.
 */
export function readEnvFile(env: NodeJS.ProcessEnv = process.env, folder?: string): string | null {
  const file = folder ? join(folder, '.env') : resolveFromInvocation('.env');
  if (!existsSync(file)) return null;
  let values: Record<string, string>;
  try {
    values = parseEnv(readFileSync(file, 'utf8')) as Record<string, string>;
  } catch (error) {
    throw new ConfigError(`Cannot read ${file}: ${(error as Error).message}`);
  }
  for (const [name, value] of Object.entries(values)) {
    if (env[name] === undefined) env[name] = value;
  }
  return file;
}

/** Only where the database is (for commands that touch nothing else, such as `npm run db:migrate`). */
export function loadDatabaseConfig(env: NodeJS.ProcessEnv = process.env): {
  databaseUrl?: string;
  dataDir: string;
} {
  if (env === process.env) readEnvFile(env);
  const parsed = envSchema.pick({ DATA_DIR: true, DATABASE_URL: true }).safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return { databaseUrl: parsed.data.DATABASE_URL, dataDir: resolveFromInvocation(parsed.data.DATA_DIR) };
}

/**
 * The Firebase link's address and credentials. Like Firebase's SDKs, FIREBASE_DATABASE_EMULATOR_HOST
 * sends it to the emulator with the emulator's owner credentials; otherwise a database secret or a
 * service account key is needed (none for a plain http server on a loopback address).
 */
function readFirebaseLink(e: z.infer<typeof envSchema>): FirebaseLinkConfig | null {
  if (!e.FIREBASE_DATABASE_URL) return null;
  const fail = (message: string) =>
    new ConfigError(`Invalid configuration:\n  FIREBASE_DATABASE_URL: ${message}`);
  let address: FirebaseAddress;
  try {
    address = resolveAddress(e.FIREBASE_DATABASE_URL, e.FIREBASE_DATABASE_EMULATOR_HOST);
  } catch (error) {
    throw fail((error as Error).message);
  }
  let credentials: FirebaseCredentials;
  if (e.FIREBASE_DATABASE_EMULATOR_HOST) credentials = { kind: 'emulator' };
  else if (e.FIREBASE_DATABASE_SECRET) credentials = { kind: 'secret', secret: e.FIREBASE_DATABASE_SECRET };
  else if (e.GOOGLE_APPLICATION_CREDENTIALS) {
    const keyFile = resolveFromInvocation(e.GOOGLE_APPLICATION_CREDENTIALS);
    if (!existsSync(keyFile)) {
      throw new ConfigError(
        `Invalid configuration:\n  GOOGLE_APPLICATION_CREDENTIALS: ${keyFile} does not exist`,
      );
    }
    credentials = { kind: 'service-account', keyFile };
  } else if (address.origin.startsWith('http:')) credentials = { kind: 'none' };
  else {
    throw fail(
      'needs GOOGLE_APPLICATION_CREDENTIALS (a service account key file) or FIREBASE_DATABASE_SECRET',
    );
  }
  return { address, credentials, writeBack: e.FIREBASE_WRITE_BACK ?? true };
}

/** Parses the environment, failing with one readable line per bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return readConfig(env, { signsTokens: true }) as Config;
}

/**
 * The configuration of a command that signs no token (`seed`, `create-admin`, `compliance:remind`):
 * it needs no JWT_SECRET beside DATABASE_URL, and creates no secret in the data folder.
 */
export function loadToolConfig(env: NodeJS.ProcessEnv = process.env): Omit<Config, 'jwtSecret'> {
  return readConfig(env, { signsTokens: false });
}

function readConfig(
  env: NodeJS.ProcessEnv,
  { signsTokens }: { signsTokens: boolean },
): Config | Omit<Config, 'jwtSecret'> {
  if (env === process.env) readEnvFile(env);
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = resolveFromInvocation(e.DATA_DIR);
  // With a server database several instances may run, and each would otherwise sign tokens with
  // a secret of its own (kept in its own DATA_DIR): tokens would fail at random.
  if (signsTokens && e.DATABASE_URL && !e.JWT_SECRET) {
    throw new ConfigError(
      'Invalid configuration:\n  JWT_SECRET: required with DATABASE_URL (32+ characters, the same for every instance)',
    );
  }
  // The demo accounts share one published password: a production server never creates them, and
  // asking it to is a mistake said at start rather than an admin anyone can sign in as.
  if (e.NODE_ENV === 'production' && e.DEMO_DATA) {
    throw new ConfigError(
      'Invalid configuration:\n  DEMO_DATA: the demo accounts have a published password and are never ' +
        'loaded with NODE_ENV=production; create the first admin with `npm run create-admin`',
    );
  }
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    ...(signsTokens ? { jwtSecret: e.JWT_SECRET ?? loadOrCreateSecret(dataDir) } : {}),
    tokenTtlHours: e.TOKEN_TTL_HOURS,
    demoData: e.DEMO_DATA ?? (e.NODE_ENV !== 'production' && !e.DATABASE_URL),
    demoPassword: e.DEMO_PASSWORD,
    logLevel: e.LOG_LEVEL,
    logPretty: e.LOG_PRETTY ?? (process.stdout.isTTY && e.NODE_ENV !== 'production'),
    trustProxy: e.TRUST_PROXY,
    requestTimeoutSeconds: e.REQUEST_TIMEOUT_SECONDS,
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    sessionsPerAccount: e.SESSIONS_PER_ACCOUNT,
    streamsPerAccount: e.STREAMS_PER_ACCOUNT,
    webDist: e.WEB_DIST ? resolveFromInvocation(e.WEB_DIST) : join(REPO_ROOT, 'apps/web/dist'),
    redisUrl: e.REDIS_URL,
    metricsToken: e.METRICS_TOKEN,
    mapTileUrl: e.MAP_TILE_URL,
    mapAttribution: e.MAP_ATTRIBUTION,
    objectStore: e.S3_BUCKET
      ? {
          kind: 's3',
          bucket: e.S3_BUCKET,
          endpoint: e.S3_ENDPOINT,
          region: e.S3_REGION,
          accessKeyId: e.S3_ACCESS_KEY_ID,
          secretAccessKey: e.S3_SECRET_ACCESS_KEY,
          forcePathStyle: e.S3_FORCE_PATH_STYLE,
        }
      : { kind: 'local', root: join(dataDir, 'objects') },
    mail: {
      smtpUrl: e.SMTP_URL,
      from: e.MAIL_FROM,
      // Links in mails lead here; without APP_URL, to this server on this machine.
      appUrl: (e.APP_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    },
    requireSecondFactor: e.REQUIRE_SECOND_FACTOR,
    firebase: readFirebaseLink(e),
  };
}
