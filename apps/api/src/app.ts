import { randomUUID } from 'node:crypto';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyServerOptions } from 'fastify';
import secureJson from 'secure-json-parse';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { AppError } from '@bmet/shared/errors';
import type { Config } from './config';
import type { Db } from './db/client';
import type { LocationBus } from './infra/location-bus';
import type { ObjectStore } from './infra/object-store';
import { accountRoutes } from './modules/accounts/routes';
import { authRoutes } from './modules/auth/routes';
import { carRateRoutes } from './modules/car-rates/routes';
import { customerRoutes } from './modules/customers/routes';
import { driverLocationRoutes } from './modules/driver-locations/routes';
import { driverRoutes } from './modules/drivers/routes';
import { settingsRoutes } from './modules/settings/routes';
import { tripRoutes } from './modules/trips/routes';
import { authenticationPlugin } from './plugins/authentication';
import { errorsPlugin } from './plugins/errors';
import { textGuardPlugin } from './plugins/text-guard';
import { webPlugin } from './plugins/web';

export type AppOptions = {
  config: Pick<
    Config,
    'jwtSecret' | 'tokenTtlHours' | 'webDist' | 'trustProxy' | 'mapTileUrl' | 'mapAttribution'
  >;
  db: Db;
  objectStore: ObjectStore;
  locationBus: LocationBus;
  logger?: FastifyServerOptions['logger'];
};

/** Builds the whole server without listening: used by server.ts and by the tests (inject). */
export async function buildApp({ config, db, objectStore, locationBus, logger = false }: AppOptions) {
  const app = Fastify({
    logger,
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    genReqId: (request) => {
      // A caller's own request id is kept only behind a trusted proxy: audit rows store it.
      const given = request.headers['x-request-id'];
      return config.trustProxy && typeof given === 'string' && /^[\w-]{8,64}$/.test(given)
        ? given
        : randomUUID();
    },
    routerOptions: { caseSensitive: true, ignoreTrailingSlash: false },
  }).withTypeProvider<ZodTypeProvider>();

  // Many clients send Content-Type: application/json on a POST without a body; treat it as no body.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }));
    } catch {
      done(new AppError('VALIDATION', 'The request body is not valid JSON.'), undefined);
    }
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  await app.register(errorsPlugin);
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
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
  });
  await app.register(rateLimit, {
    global: true,
    max: 1200,
    // The limit protects the API; the web app's own files are not counted.
    allowList: (request) => !request.url.startsWith('/api'),
    timeWindow: '1 minute',
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      code: 'RATE_LIMITED',
      error: 'Too many requests. Please wait a moment and try again.',
      message: `Rate limit exceeded, retry in ${context.after}`,
    }),
  });
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Book-My-ETaxi staff console API',
        version: '1.0.0',
        description: 'Every path answers JSON; errors share one body: { error, code, fieldErrors? }.',
      },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
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

  await app.register(authenticationPlugin, { db, jwtSecret: config.jwtSecret });
  await app.register(textGuardPlugin);

  await app.register(
    async (api) => {
      await api.register(authRoutes, { db, ...config });
      await api.register(settingsRoutes, config);
      await api.register(driverRoutes, { db, objectStore });
      await api.register(driverLocationRoutes, { db, locationBus });
      await api.register(tripRoutes, { db });
      await api.register(customerRoutes, { db });
      await api.register(carRateRoutes, { db });
      await api.register(accountRoutes, { db });
    },
    { prefix: '/api' },
  );

  await app.register(webPlugin, { webDist: config.webDist });
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
