import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '@bmet/shared/errors';
import { m } from '@bmet/shared/paraglide/messages';

export const LANDING_PAGE = '/landingPage/index.html';

type WebOptions = {
  webDist: string;
  /** Source maps hold the web app's whole sources: served for debugging, never in production. */
  sourceMaps: boolean;
};

/**
 * Serves the built web app and the landing page, answers client-side routes with index.html,
 * and keeps unknown /api paths a JSON 404.
 */
export const webPlugin = fp(async (app: FastifyInstance, options: WebOptions) => {
  const built = existsSync(join(options.webDist, 'index.html'));

  // The spec: '/' goes straight to the landing page.
  app.get('/', { schema: { hide: true } }, (_request, reply) => reply.redirect(LANDING_PAGE, 302));

  if (built) {
    await app.register(fastifyStatic, {
      root: options.webDist,
      // Files are looked up per request, so a rebuild of the web app is served without a restart.
      wildcard: true,
      index: false,
      allowedPath: options.sourceMaps ? undefined : (path) => !path.endsWith('.map'),
      // The build writes .br and .gz copies; the one the browser accepts is sent (Vary set).
      preCompressed: true,
      setHeaders(reply, path) {
        // Hashed bundles never change; everything else is checked on each visit.
        reply.header(
          'cache-control',
          path.includes(`${join(options.webDist, 'assets')}`)
            ? 'public, max-age=31536000, immutable'
            : 'no-cache',
        );
      },
    });
    app.get('/landingPage', { schema: { hide: true } }, (_request, reply) =>
      reply.redirect(LANDING_PAGE, 301),
    );
    app.get('/landingPage/', { schema: { hide: true } }, (_request, reply) =>
      reply.redirect(LANDING_PAGE, 301),
    );
  }

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    if (path === '/api' || path.startsWith('/api/')) {
      throw new AppError('NOT_FOUND', m.notFound());
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      throw new AppError('NOT_FOUND', m.notFound());
    }
    // A probe or a script asking for JSON at an unknown path (`/health`, say) must not take the
    // web app's page for an answer.
    const accept = request.headers.accept ?? '';
    if (/json/i.test(accept) && !/text\/html/i.test(accept)) {
      throw new AppError('NOT_FOUND', m.notFound());
    }
    // A missing file (an old bundle after a deploy) is a 404, not the app's HTML under a .js name.
    if (/\.[a-z0-9]{1,8}$/i.test(path)) {
      return reply.status(404).type('text/plain').send('Not found');
    }
    if (!built) {
      return reply
        .status(503)
        .type('text/plain')
        .send('The web app is not built. Run `npm start` (it builds it) or `npm run dev`.');
    }
    // The router on the client decides which screen (or its not-found page) to show.
    reply.header('cache-control', 'no-cache');
    return reply.sendFile('index.html');
  });
});
