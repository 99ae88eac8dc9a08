import { createHash, randomUUID } from 'node:crypto';
import { STATUS_CODES, type ServerOptions } from 'node:http';
import type { Duplex } from 'node:stream';
import compress from '@fastify/compress';
import helmet from 'helmet';
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import { Redis } from 'ioredis';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import secureJson from 'secure-json-parse';
import { BOOT_SCRIPT } from '@bmet/shared/boot-script';
import {
  jsonSchemaTransformObject,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { AppError } from '@bmet/shared/errors';
import { m } from '@bmet/shared/paraglide/messages';
import type { Config } from './config';
import type { Db } from './db/client';
import { listenForAccessEvents } from './infra/access-events';
import { rememberSessions } from './lib/sessions';
import type { LocationBus } from './infra/location-bus';
import type { ObjectStore } from './infra/object-store';
import { accountRoutes } from './modules/accounts/routes';
import { authRoutes } from './modules/auth/routes';
import { downloadTicketRoutes } from './modules/auth/download-ticket-routes';
import { withoutTicket } from './lib/download-tickets';
import { backupRoutes, type BackupRoutesOptions } from './modules/backup/routes';
import { grievanceRoutes } from './modules/grievances/routes';
import { notificationRoutes } from './modules/notifications/routes';
import { carRateRoutes } from './modules/car-rates/routes';
import { vehicleRoutes } from './modules/vehicles/routes';
import { fareRuleRoutes } from './modules/fare-rules/routes';
import { auditRoutes } from './modules/audit/routes';
import { complianceRoutes } from './modules/compliance/routes';
import { customerRoutes } from './modules/customers/routes';
import { driverLocationRoutes } from './modules/driver-locations/routes';
import { driverRoutes } from './modules/drivers/routes';
import { searchRoutes } from './modules/search/routes';
import { settingsRoutes } from './modules/settings/routes';
import { dashboardRoutes } from './modules/dashboard/routes';
import { tripRoutes } from './modules/trips/routes';
import { API_COMPRESSION } from './plugins/compression';
import { responseSerializer } from './plugins/serializer';
import { authenticationPlugin } from './plugins/authentication';
import { errorsPlugin } from './plugins/errors';
import { openapiTransform } from './plugins/openapi';
import { healthRoutes } from './modules/health/routes';
import { firebaseLinkRoutes } from './modules/firebase-link/routes';
import { languageFromHeader, languagePlugin } from './infra/language';
import { metricsPlugin } from './infra/metrics';
import { textGuardPlugin } from './plugins/text-guard';
import { webPlugin } from './plugins/web';
import { closeConnectionsWhenStopping } from './plugins/stopping-connections';

export type AppOptions = {
  config: Pick<
    Config,
    'jwtSecret' | 'tokenTtlHours' | 'webDist' | 'trustProxy' | 'mapTileUrl' | 'mapAttribution'
  > &
    Partial<
      Pick<
        Config,
        | 'env'
        | 'requestTimeoutSeconds'
        | 'rateLimitPerMinute'
        | 'redisUrl'
        | 'metricsToken'
        | 'sessionsPerAccount'
        | 'streamsPerAccount'
        | 'mail'
        | 'requireSecondFactor'
      >
    >;
  db: Db;
  objectStore: ObjectStore;
  locationBus: LocationBus;
  logger?: FastifyServerOptions['logger'];
  /** Connections the database pool may open (1 for the embedded database), for the metrics. */
  poolSize?: number;
  /** The route `npm run backup` streams a backup from: the server on the embedded database only. */
  backup?: BackupRoutesOptions;
  /**
   * The link to the apps' Firebase database, when FIREBASE_DATABASE_URL is set (firebase-link/):
   * with write-back, rates, city dealers and franchises changed here are queued for Firebase.
   */
  firebaseLink?: { writeBack: boolean };
};

/** Defaults of the limits a deployment may tune (config.ts reads them from the environment). */
export const DEFAULT_REQUEST_TIMEOUT_SECONDS = 60;
export const DEFAULT_RATE_LIMIT_PER_MINUTE = 1200;
/** How long a rate-limit count may wait for Redis before the request passes uncounted. */
const RATE_REDIS_COMMAND_TIMEOUT_MS = 500;

/** Builds the whole server without listening: used by server.ts and by the tests (inject). */
export async function buildApp({
  config,
  db,
  objectStore,
  locationBus,
  logger = false,
  poolSize = 1,
  backup,
  firebaseLink,
}: AppOptions) {
  const firebaseWrites = { enabled: firebaseLink?.writeBack ?? false };
  const requestTimeoutMs = (config.requestTimeoutSeconds ?? DEFAULT_REQUEST_TIMEOUT_SECONDS) * 1000;
  const behindProxy = config.trustProxy !== false;
  const app = Fastify({
    logger: withRequestSerializer(logger),
    // A hop count trusts the addresses the nearest proxies appended (proxy-addr's rule for a number).
    trustProxy:
      typeof config.trustProxy === 'number'
        ? (_address: string, hop: number) => hop < (config.trustProxy as number)
        : config.trustProxy,
    bodyLimit: 1024 * 1024,
    // A request (headers and body) that is not received in time is answered 408 and its
    // connection closed: a client trickling a body cannot hold a connection for ever.
    requestTimeout: requestTimeoutMs,
    http: {
      headersTimeout: Math.min(requestTimeoutMs, 30_000),
      // How often Node looks for requests over their time (its default is 30 s).
      connectionsCheckingInterval: Math.min(requestTimeoutMs, 1000),
    } as ServerOptions,
    genReqId: (request) => {
      // A caller's own request id is kept only behind a trusted proxy: audit rows store it.
      const given = request.headers['x-request-id'];
      return behindProxy && typeof given === 'string' && /^[\w-]{8,64}$/.test(given) ? given : randomUUID();
    },
    routerOptions: { caseSensitive: true, ignoreTrailingSlash: false },
    // Errors met before routing answer the one error body too.
    frameworkErrors: (error, request, reply) => {
      const locale = languageFromHeader(request.headers['accept-language']);
      const appError =
        error.code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? new AppError('URI_TOO_LONG', m.uriTooLong({}, { locale }))
          : new AppError('VALIDATION', m.badUrl({}, { locale }));
      // Answered before any hook runs: the headers every answer carries are set here too.
      void (reply as FastifyReply).status(appError.status).headers(EDGE_HEADERS).send(appError.toBody());
    },
    clientErrorHandler: answerClientError,
  }).withTypeProvider<ZodTypeProvider>();
  closeConnectionsWhenStopping(app);

  // Many clients send Content-Type: application/json on a POST without a body; treat it as no body.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }));
    } catch {
      done(new AppError('VALIDATION', m.invalidJsonBody({}, { locale: request.language })), undefined);
    }
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializer);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
    // API answers carry personal data and ID tokens: no cache may keep them.
    if (request.url.startsWith('/api') && !reply.hasHeader('cache-control')) {
      reply.header('cache-control', 'no-store');
    }
    // HSTS means something only over HTTPS (behind a trusted proxy, X-Forwarded-Proto says so).
    if (request.protocol === 'https') {
      reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
    }
  });

  await app.register(languagePlugin);
  await app.register(metricsPlugin, {
    token: config.metricsToken,
    pool: { db, size: poolSize },
    ...(firebaseLink ? { link: { db, writeBack: firebaseLink.writeBack } } : {}),
  });
  await app.register(errorsPlugin);
  // Security headers on every answer. Helmet's middleware is built once here: the Fastify plugin
  // built it again for every request, parsing the content security policy each time (a tenth of
  // the server's work on a driver's position report).
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        // Same-origin scripts, and the page's one inline boot script by its hash.
        scriptSrc: ["'self'", `'sha256-${createHash('sha256').update(BOOT_SCRIPT).digest('base64')}'`],
        // Mantine sets style attributes at run time; scripts stay strictly same-origin.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
    // In step with frame-ancestors 'none' (SAMEORIGIN would contradict it).
    frameguard: { action: 'deny' },
    // Sent by the onSend hook above, over HTTPS only.
    strictTransportSecurity: false,
  });
  app.addHook('onRequest', (request, reply, done) => {
    securityHeaders(request.raw, reply.raw, (error?: unknown) => done(error as Error | undefined));
  });
  // API answers above 1 KB are compressed for browsers that accept it (web files come
  // precompressed from the build). Live streams take over the raw reply and are never buffered.
  await app.register(compress, { global: true, ...API_COMPRESSION });
  // With Redis, every limit (the global one, uploads, device reports) is counted across instances:
  // without it, N instances would each allow the limit (N times in all).
  const rateRedis = config.redisUrl
    ? new Redis(config.redisUrl, {
        connectTimeout: 2000,
        maxRetriesPerRequest: 1,
        enableOfflineQueue: false,
        // A Redis that holds the connection open but stops answering must not hold every request
        // with it: a count it has not answered within this time fails, and the request passes
        // uncounted (skipOnError below).
        commandTimeout: RATE_REDIS_COMMAND_TIMEOUT_MS,
        connectionName: 'bmet-rate-limits',
        enableAutoPipelining: true,
      })
    : undefined;
  if (rateRedis) {
    let trouble = '';
    rateRedis.on('error', (error: Error) => {
      if (error.message !== trouble) app.log.warn(`Redis rate limits: ${error.message}`);
      trouble = error.message;
    });
    rateRedis.on('ready', () => (trouble = ''));
    app.addHook('onClose', () => rateRedis.disconnect());
    // Commands are not queued while the connection opens (a request must not wait on Redis), so the
    // first requests after a start would pass uncounted: the server waits for the connection first,
    // as long as it may take to open (a Redis that is down costs the start at most that).
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        rateRedis.off('ready', done);
        rateRedis.off('error', done);
        resolve();
      };
      const timer = setTimeout(done, 2500);
      rateRedis.once('ready', done);
      rateRedis.once('error', done);
    });
  }
  await app.register(rateLimit, {
    global: false,
    ...(rateRedis
      ? {
          redis: rateRedis,
          nameSpace: 'bmet-rate:',
          // A Redis that is down must not take the console down with it: requests pass uncounted.
          skipOnError: true,
        }
      : {}),
    // A client that went away has no address any more.
    keyGenerator: (request) => request.ip || 'gone',
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      code: 'RATE_LIMITED',
      error: m.rateLimited(),
      message: `Rate limit exceeded, retry in ${context.after}`,
    }),
  });
  // The global API limit counts every /api request, refused or not, before any database work:
  // this hook runs before the authentication hook registered below.
  const globalLimit = app.createRateLimit({
    max: config.rateLimitPerMinute ?? DEFAULT_RATE_LIMIT_PER_MINUTE,
    timeWindow: 60_000,
    keyGenerator: (request) => `api:${request.ip || 'gone'}`,
  });
  app.addHook('onRequest', async (request, reply) => {
    if (!request.url.startsWith('/api')) return;
    const limit = await globalLimit(request);
    if ('isAllowed' in limit && limit.isAllowed) return;
    if (!limit.isExceeded) return;
    reply.header('x-ratelimit-limit', String(limit.max));
    reply.header('x-ratelimit-remaining', '0');
    throw new AppError('RATE_LIMITED', m.rateLimited(), {
      headers: { 'retry-after': String(Math.max(1, limit.ttlInSeconds)) },
    });
  });
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Book-My-ETaxi staff console API',
        version: '1.0.0',
        description: 'Every path answers JSON; errors share one body: { error, code, fieldErrors? }.',
      },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          downloadTicket: { type: 'apiKey', in: 'query', name: 'ticket' },
        },
      },
      security: [{ bearer: [] }],
    },
    transform: openapiTransform,
    // Schemas with an id (the error body) are written once, under components, and referred to.
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    staticCSP: true,
    // Same framing rule as every other response.
    transformStaticCSP: (header) => header.replace("frame-ancestors 'self'", "frame-ancestors 'none'"),
    uiConfig: { docExpansion: 'list' },
    uiHooks: {
      // The docs are part of the API: reachable without a token, like the spec of any public API.
      onRequest: async () => {},
    },
  });

  const accessEvents = await listenForAccessEvents(db, (message) => app.log.warn(message));
  app.addHook('onClose', () => accessEvents.close());
  const sessions = rememberSessions(accessEvents);
  app.addHook('onClose', async () => sessions.close());

  // Only the device cookie of the sign-in throttle (modules/auth/device-cookie.ts) is read.
  await app.register(cookie);
  await app.register(authenticationPlugin, { db, jwtSecret: config.jwtSecret, sessions });
  await app.register(textGuardPlugin);

  await app.register(
    async (api) => {
      await api.register(authRoutes, { db, ...config });
      await api.register(downloadTicketRoutes, { db });
      await api.register(settingsRoutes, config);
      await api.register(healthRoutes, { db, locationBus, firebaseLink });
      await api.register(firebaseLinkRoutes, { db, firebaseLink });
      await api.register(driverRoutes, { db, objectStore });
      await api.register(driverLocationRoutes, {
        db,
        locationBus,
        accessEvents,
        streamsPerAccount: config.streamsPerAccount,
      });
      await api.register(tripRoutes, { db });
      await api.register(dashboardRoutes, { db });
      await api.register(customerRoutes, { db });
      await api.register(carRateRoutes, { db, firebaseWrites });
      await api.register(fareRuleRoutes, { db });
      await api.register(vehicleRoutes, { db });
      await api.register(accountRoutes, { db, firebaseWrites });
      await api.register(auditRoutes, { db });
      await api.register(complianceRoutes, { db });
      await api.register(searchRoutes, { db });
      await api.register(grievanceRoutes, { db, objectStore, mail: config.mail });
      await api.register(notificationRoutes, { db });
      if (backup) await api.register(backupRoutes, backup);
    },
    { prefix: '/api' },
  );

  await app.register(webPlugin, { webDist: config.webDist, sourceMaps: config.env !== 'production' });
  return app;
}

/**
 * Requests are logged as Fastify logs them, but a download ticket in an address is a credential:
 * it never reaches the log.
 */
function withRequestSerializer(logger: AppOptions['logger']): AppOptions['logger'] {
  if (!logger) return logger;
  const options = logger === true ? {} : logger;
  return {
    ...options,
    serializers: {
      ...options.serializers,
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: withoutTicket(request.url),
        version: request.headers['accept-version'] as string | undefined,
        host: request.host,
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
    },
  };
}

/** What an answer given before any hook (a parser or router error) carries, as every answer does. */
const EDGE_HEADERS = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
} as const;

/**
 * Errors Node's HTTP parser meets before Fastify sees a request (headers too large, a request not
 * received in time, garbage) still answer the one error body, then close the connection.
 */
function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, appError] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, new AppError('REQUEST_TIMEOUT', m.requestTimeout())]
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, new AppError('HEADERS_TOO_LARGE', m.headersTooLarge())]
        : [400, new AppError('VALIDATION', m.badRequest())];
  const body = JSON.stringify(appError.toBody());
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        Object.entries(EDGE_HEADERS)
          .map(([name, value]) => `${name}: ${value}\r\n`)
          .join('') +
        `Connection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

export type App = Awaited<ReturnType<typeof buildApp>>;
