import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { fleetQuerySchema, fleetResponseSchema } from '@bmet/shared/schemas/fleet';
import type { Db } from '../../db/client';
import { errorResponses } from '../../lib/error-responses';
import { EVENT_STREAM_CONTENT } from '../../plugins/openapi';
import { currentUser } from '../../plugins/authentication';
import { findActiveSession } from '../../lib/sessions';
import { FLEET_FLUSH_MS, FLEET_MAX_BUFFERED_BYTES, type FleetHub } from './fleet-stream';
import type { LocationStreams } from '../driver-locations/location-stream';
import { findFleetJson } from './repository';

export type FleetRoutesOptions = {
  db: Db;
  streams: LocationStreams;
  hub: FleetHub;
  /** When the caller's ID token expires (ms since the epoch). */
  idTokenExpiry: (request: Parameters<LocationStreams['serve']>[0]) => number;
};

const errors = errorResponses(400, 401, 403, 429);

/**
 * The live fleet map: every driver in the caller's scope with a known position, and a stream of
 * their moves. Both follow driverScope, as the driver lists do.
 */
export const fleetRoutes: FastifyPluginAsyncZod<FleetRoutesOptions> = async (
  app,
  { db, streams, hub, idTokenExpiry },
) => {
  app.get(
    '/fleet',
    {
      config: { access: ['fleet', 'view'] },
      schema: {
        tags: ['fleet'],
        summary: 'Every driver in the caller’s scope with a known position: the fleet map’s whole state',
        description:
          'No paging: the map shows every car at once, so each is kept to seven fields. `since` ' +
          '(ISO 8601) answers only the cars whose position is at least that recent, for polling ' +
          'while the stream is down.',
        querystring: fleetQuerySchema,
        response: { 200: fleetResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const since = request.query.since ? new Date(request.query.since) : undefined;
      const fleet = await findFleetJson(db, currentUser(request), { since });
      // Written by the database in the schema's shape; a string is sent as it is, not checked again.
      return reply.type('application/json; charset=utf-8').send(`{"data":${fleet}}` as never);
    },
  );

  app.get(
    '/fleet/stream',
    {
      config: { access: ['fleet', 'view'], openapi: { responses: { 200: EVENT_STREAM_CONTENT } } },
      // A HEAD request would otherwise hold a stream open with nothing to send.
      exposeHeadRoute: false,
      schema: {
        tags: ['fleet'],
        summary: 'The moves of every car in the caller’s scope (Server-Sent Events)',
        description:
          `text/event-stream, at most one message of each kind every ${FLEET_FLUSH_MS} ms: ` +
          '`event: positions` with an array of cars as `GET /api/fleet` answers them (new and ' +
          'moved), `event: gone` with an array of ids that left the caller’s scope or were ' +
          'deleted, `event: refresh` when many cars changed scope at once (load `GET /api/fleet` ' +
          'again); a comment every 20 s. Open it first, then load `GET /api/fleet` once the ' +
          '`: connected` comment arrives, keeping the newer position of each car. Send the ID ' +
          'token as a bearer token. The stream ends when the ID token expires, and within a ' +
          'second of a logout or a revocation. It counts toward the 10 streams of a session.',
        response: errors,
      },
    },
    async (request, reply) => {
      const viewer = currentUser(request);
      await streams.serve(request, reply, hub.source(viewer), {
        owner: { sessionId: viewer.sessionId, accountId: viewer.id },
        expiresAt: idTokenExpiry(request),
        maxBufferedBytes: FLEET_MAX_BUFFERED_BYTES,
        stillAllowed: async () => {
          // The scope was taken at the start: a change of role ends the stream (the client reconnects).
          const session = await findActiveSession(db, viewer.sessionId, viewer.id);
          return session !== null && session.role === viewer.role;
        },
      });
    },
  );
};
