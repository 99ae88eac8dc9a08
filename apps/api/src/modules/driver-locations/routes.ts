import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { decodeJwt } from 'jose';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import { AppError } from '@bmet/shared/errors';
import { can } from '@bmet/shared/permissions';
import { m } from '@bmet/shared/paraglide/messages';
import { idParamSchema } from '@bmet/shared/schemas/common';
import {
  deviceTokensResponseSchema,
  driverLocationResponseSchema,
  issueDeviceTokenBodySchema,
  issuedDeviceTokenResponseSchema,
  reportLocationBodySchema,
  type LocationEvent,
} from '@bmet/shared/schemas/driver';
import type { Db } from '../../db/client';
import { recordAudit } from '../../infra/audit';
import type { AccessEvents } from '../../infra/access-events';
import type { LocationBus } from '../../infra/location-bus';
import { errorResponses } from '../../lib/error-responses';
import { currentUser } from '../../plugins/authentication';
import { generateDeviceToken, hashDeviceToken } from './device-tokens';
import { createLocationStreams, HEARTBEAT_MS, type StreamSource, type TabPositions } from './location-stream';
import { fleetRoutes } from '../fleet/routes';
import { sosRoutes } from '../sos/routes';
import { createFleetHub } from '../fleet/fleet-stream';
import { createGroupCommit } from '../../lib/group-commit';
import {
  findActiveDevices,
  findDeviceTokenForUpdate,
  findDeviceTokens,
  findStreamAccess,
  findVisibleDriver,
  insertDeviceToken,
  recordPositions,
  type ActiveDevice,
  type PositionReport,
  type StreamAccess,
  revokeDeviceToken,
  type DeviceTokenRow,
} from './repository';
import { findPlacedDrivers } from '../fleet/repository';
import { EVENT_STREAM_CONTENT } from '../../plugins/openapi';

export type DriverLocationRoutesOptions = {
  db: Db;
  locationBus: LocationBus;
  accessEvents?: AccessEvents;
  /** Live streams one account may hold open here, all its sessions together (20 when unset). */
  streamsPerAccount?: number;
};

const driverKeyParamsSchema = z.object({ driverKey: z.uuid({ message: 'Not a valid id.' }) });
const tokenParamsSchema = idParamSchema.extend({ tokenId: z.uuid({ message: 'Not a valid id.' }) });

const errors = errorResponses(400, 401, 403, 404, 429);

const AUDIT_RESOURCE = 'driver-device-tokens';

// The driver app reports every few seconds; a burst limit and a steady limit per device token.
const REPORTS_PER_SECOND = 2;
const REPORTS_PER_MINUTE = 60;
/** How many devices the driver-app endpoint knows from memory (each a few hundred bytes). */
const KNOWN_DEVICES = 100_000;
/** How often a device token's last use is written (each report would otherwise be a second write). */
const TOUCH_EVERY_MS = 60_000;
// Failed device sign-ins per client address and minute, against guessing at tokens.
const FAILED_DEVICE_AUTH_PER_MINUTE = 30;

const notFound = () => new AppError('NOT_FOUND', m.notFound());
const deviceUnauthorized = () => new AppError('UNAUTHORIZED', m.unauthorized());

function bearerToken(request: FastifyRequest): string | null {
  const [scheme, token, extra] = (request.headers.authorization ?? '').split(' ');
  return scheme?.toLowerCase() === 'bearer' && token && extra === undefined ? token : null;
}

const tokenHashes = new WeakMap<FastifyRequest, string | null>();
/** The hash of a report's device token, worked out once for the request's three uses. */
function deviceTokenHash(request: FastifyRequest): string | null {
  let hash = tokenHashes.get(request);
  if (hash === undefined) {
    const token = bearerToken(request);
    hash = token ? hashDeviceToken(token) : null;
    tokenHashes.set(request, hash);
  }
  return hash;
}

/** Rate-limit key of a report: its device token's hash (the same token, the same bucket). */
function deviceRateKey(request: FastifyRequest): string {
  const hash = deviceTokenHash(request);
  return hash ? `device:${hash}` : `address:${request.ip}`;
}

/** When the caller's ID token expires; the authentication hook has already verified it. */
function idTokenExpiry(request: FastifyRequest): number {
  const token = bearerToken(request);
  try {
    return token ? (decodeJwt(token).exp ?? 0) * 1000 : 0;
  } catch {
    return 0;
  }
}

function toDeviceToken(row: DeviceTokenRow) {
  return {
    id: row.id,
    label: row.label,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}

function toLocationEvent(driver: {
  id: string;
  lat: number | null;
  long: number | null;
  positionAt: Date | null;
}): LocationEvent | null {
  if (driver.lat === null || driver.long === null || !driver.positionAt) return null;
  return { driverId: driver.id, lat: driver.lat, long: driver.long, at: driver.positionAt.toISOString() };
}

/**
 * Live driver positions: the spec's polled location, a Server-Sent Events stream of new
 * positions, the device tokens staff issue to drivers' phones, and the endpoint those phones
 * report positions to.
 */
export const driverLocationRoutes: FastifyPluginAsyncZod<DriverLocationRoutesOptions> = async (
  app,
  options,
) => {
  const { db, locationBus } = options;
  const streams = createLocationStreams(locationBus, HEARTBEAT_MS, options.accessEvents, {
    perAccount: options.streamsPerAccount,
  });
  app.metrics.watchOpenStreams(() => streams.size);
  // The driver-app endpoint's devices seen before, by token hash, so that a report needs no lookup.
  // The statement that stores a position reads again whether its device is still active: a
  // revoked token, or the token of a driver deleted since, stores nothing and fails from the
  // moment the revocation or deletion commits, on whichever instance it was made.
  const knownDevices = new LRUCache<string, ActiveDevice>({ max: KNOWN_DEVICES });
  // The streams' backstop checks of one moment, as one query.
  const checkStream = createGroupCommit((checks: StreamAccess[]) => findStreamAccess(db, checks), {
    maxBatch: 1_000,
  });
  // Before the server stops accepting: it waits for open responses, and a stream never ends alone.
  app.addHook('preClose', (done) => {
    streams.endAll();
    done();
  });
  const hub = createFleetHub({
    bus: locationBus,
    readDrivers: (ids) => findPlacedDrivers(db, ids),
    accessEvents: options.accessEvents,
    onError: (error) => app.log.warn({ err: error }, 'could not read the drivers of a fleet update'),
  });
  await app.register(fleetRoutes, { db, streams, hub, idTokenExpiry });

  const readCurrentOf = (request: FastifyRequest, driverId: string) => async () => {
    const now = await findVisibleDriver(db, currentUser(request), driverId);
    return now ? toLocationEvent(now) : null;
  };
  const tabPositions: TabPositions = async (request, wants) => {
    const caller = currentUser(request);
    if (
      (wants.fleet && !can(caller, ['fleet', 'view'])) ||
      (wants.driverIds.length > 0 && !can(caller, ['drivers', 'view']))
    )
      throw new AppError('FORBIDDEN', m.forbidden());
    // A driver the caller may not see (out of scope, deleted, unknown) is named in `refused`, at
    // the start: the tab goes on with the others, and stops asking for it.
    const found = await Promise.all(wants.driverIds.map((id) => findVisibleDriver(db, caller, id)));
    const refused = wants.driverIds.filter((_id, index) => !found[index]);
    const driverIds = [...new Set(found.flatMap((driver) => (driver ? [driver.id] : [])))];
    const refusedSource: StreamSource = {
      attach: async () => ({
        start: (write) => write(`event: refused\ndata: ${JSON.stringify(refused)}\n\n`),
        detach: () => undefined,
      }),
    };
    return {
      // The refused first: the client knows at once which of its maps to poll instead.
      sources: [
        ...(refused.length > 0 ? [refusedSource] : []),
        ...(wants.fleet ? [hub.source(caller)] : []),
        ...driverIds.map((id) => streams.driverSource(id, readCurrentOf(request, id))),
      ],
      driverIds,
      stillVisible: async () => {
        const checks = await Promise.all(
          driverIds.map((driverId) =>
            checkStream({ sessionId: caller.sessionId, accountId: caller.id, driverId }),
          ),
        );
        return checks.every(Boolean);
      },
    };
  };
  await app.register(sosRoutes, { db, bus: locationBus, streams, idTokenExpiry, tabPositions });

  async function visibleDriverOr404(request: FastifyRequest, driverId: string) {
    const driver = await findVisibleDriver(db, currentUser(request), driverId);
    if (!driver) throw notFound();
    return driver;
  }

  app.get(
    '/drivers/location/:driverKey',
    {
      config: { access: ['drivers', 'view'] },
      schema: {
        tags: ['drivers'],
        summary: "A driver's name, contact and last known position (the dashboard's polling)",
        params: driverKeyParamsSchema,
        response: { 200: driverLocationResponseSchema, ...errors },
      },
    },
    async (request) => {
      const driver = await visibleDriverOr404(request, request.params.driverKey);
      const event = toLocationEvent(driver);
      return {
        data: {
          name: driver.name,
          email: driver.email,
          phoneNumber: driver.phoneNumber,
          position: event ? { lat: event.lat, long: event.long } : null,
          positionAt: event?.at ?? null,
        },
      };
    },
  );

  app.get(
    '/drivers/location/:driverKey/stream',
    {
      config: { access: ['drivers', 'view'], openapi: { responses: { 200: EVENT_STREAM_CONTENT } } },
      // A HEAD request would otherwise hold a stream open with nothing to send.
      exposeHeadRoute: false,
      schema: {
        tags: ['drivers'],
        summary: "A driver's positions as they arrive (Server-Sent Events)",
        description:
          'text/event-stream: `event: location` with `{ driverId, lat, long, at }`, the current ' +
          'position first; a comment every 20 s. Send the ID token as a bearer token (read it ' +
          'with fetch, not EventSource). The stream ends when the ID token expires, and within a ' +
          "second of a logout, a revocation or the driver leaving the caller's scope. At most " +
          '10 streams per session (429 beyond).',
        params: driverKeyParamsSchema,
        response: errors,
      },
    },
    async (request, reply) => {
      const driver = await visibleDriverOr404(request, request.params.driverKey);
      const owner = currentUser(request);
      await streams.open(request, reply, {
        driverId: driver.id,
        owner: { sessionId: owner.sessionId, accountId: owner.id },
        readCurrent: readCurrentOf(request, driver.id),
        expiresAt: idTokenExpiry(request),
        stillAllowed: () => {
          const user = currentUser(request);
          return checkStream({ sessionId: user.sessionId, accountId: user.id, driverId: driver.id });
        },
      });
    },
  );

  app.get(
    '/drivers/driver/:id/device-tokens',
    {
      config: { access: ['drivers', 'devices'] },
      schema: {
        tags: ['drivers'],
        summary: "A driver's device tokens (never the secrets)",
        params: idParamSchema,
        response: { 200: deviceTokensResponseSchema, ...errors },
      },
    },
    async (request) => {
      const driver = await visibleDriverOr404(request, request.params.id);
      const rows = await findDeviceTokens(db, driver.id);
      return { data: rows.map(toDeviceToken) };
    },
  );

  app.post(
    '/drivers/driver/:id/device-tokens',
    {
      config: { access: ['drivers', 'devices'] },
      schema: {
        tags: ['drivers'],
        summary: 'Issue a device token for a driver\'s phone; the secret "token" is shown only here',
        params: idParamSchema,
        body: issueDeviceTokenBodySchema,
        response: { 201: issuedDeviceTokenResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const driver = await visibleDriverOr404(request, request.params.id);
      const token = generateDeviceToken();
      const row = await db.transaction(async (tx) => {
        const inserted = await insertDeviceToken(tx, {
          driverId: driver.id,
          tokenHash: hashDeviceToken(token),
          label: request.body.label,
          createdBy: user.id,
        });
        await recordAudit(
          tx,
          { id: user.id, requestId: request.id },
          {
            action: 'issue',
            resource: AUDIT_RESOURCE,
            resourceId: inserted.id,
            before: null,
            after: { driverId: driver.id, ...toDeviceToken(inserted) },
          },
        );
        return inserted;
      });
      // The secret must not linger in any cache on the way.
      reply.header('cache-control', 'no-store');
      return reply.status(201).send({ data: { ...toDeviceToken(row), token } });
    },
  );

  app.delete(
    '/drivers/driver/:id/device-tokens/:tokenId',
    {
      config: { access: ['drivers', 'devices'] },
      schema: {
        tags: ['drivers'],
        summary: 'Revoke a device token: the phone can no longer report positions',
        params: tokenParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const driver = await visibleDriverOr404(request, request.params.id);
      await db.transaction(async (tx) => {
        const before = await findDeviceTokenForUpdate(tx, driver.id, request.params.tokenId);
        if (!before) throw notFound();
        if (before.revokedAt) return; // already revoked: nothing changes, nothing to record
        const after = await revokeDeviceToken(tx, driver.id, before.id);
        await recordAudit(
          tx,
          { id: user.id, requestId: request.id },
          {
            action: 'revoke',
            resource: AUDIT_RESOURCE,
            resourceId: before.id,
            before: { driverId: driver.id, ...toDeviceToken(before) },
            after: after ? { driverId: driver.id, ...toDeviceToken(after) } : null,
          },
        );
      });
      return reply.status(204).send(null);
    },
  );

  // The driver app's endpoint. Not a staff route: the caller is a phone holding a device token,
  // checked below before the body is even read. Staff ID tokens are not accepted here.
  const devices = new WeakMap<FastifyRequest, { hash: string; device: ActiveDevice; fromMemory: boolean }>();
  // A fleet reports thousands of positions a second: the phones of one moment are looked up
  // together and their positions stored together (lib/group-commit.ts), each answered only once
  // its position is committed. A device seen before is known from memory (knownDevices).
  const lookUpDevice = createGroupCommit(
    async (hashes: string[]) => {
      const found = await findActiveDevices(db, [...new Set(hashes)]);
      return hashes.map((hash) => found.get(hash) ?? null);
    },
    { maxBatch: 1_000 },
  );
  // When each device last reported, to the minute: its token's last use is written once a minute.
  const touched = new Map<string, number>();
  let lastSweep = Date.now();
  const storePosition = createGroupCommit(
    (reports: PositionReport[]) => {
      const now = Date.now();
      const touch = [...new Set(reports.map((report) => report.tokenId))].filter(
        (tokenId) => now - (touched.get(tokenId) ?? 0) >= TOUCH_EVERY_MS,
      );
      for (const tokenId of touch) touched.set(tokenId, now);
      // Forgotten once a minute has passed: the map holds the devices of the last minute or so.
      if (now - lastSweep >= TOUCH_EVERY_MS) {
        lastSweep = now;
        for (const [tokenId, at] of touched) if (now - at >= TOUCH_EVERY_MS) touched.delete(tokenId);
      }
      return recordPositions(db, reports, touch);
    },
    { maxBatch: 1_000 },
  );
  const burstLimit = app.createRateLimit({
    max: REPORTS_PER_SECOND,
    timeWindow: 1000,
    keyGenerator: deviceRateKey,
  });
  const failedDeviceAuth = app.createRateLimit({
    max: FAILED_DEVICE_AUTH_PER_MINUTE,
    timeWindow: 60_000,
    keyGenerator: (request) => `device-auth-failures:${request.ip}`,
  });
  /** A device known from memory found revoked, or its driver deleted: forgotten, and refused. */
  const refuseDevice = async (request: FastifyRequest, hash: string): Promise<never> => {
    knownDevices.delete(hash);
    devices.delete(request);
    await failedDeviceAuth(request);
    throw deviceUnauthorized();
  };
  const tooMany = (retryAfterSeconds: number) =>
    new AppError('RATE_LIMITED', m.rateLimited(), {
      headers: { 'retry-after': String(Math.max(1, retryAfterSeconds)) },
    });

  app.post(
    '/driver-app/location',
    {
      config: {
        access: 'public',
        deviceToken: true,
        rateLimit: { max: REPORTS_PER_MINUTE, timeWindow: '1 minute', keyGenerator: deviceRateKey },
      },
      // After the per-minute limit (onRequest), before the body is parsed and validated.
      preParsing: async (request, _reply, payload) => {
        // Both asked at once: with Redis, one round trip of waiting instead of two.
        const [burst, failures] = await Promise.all([
          burstLimit(request),
          failedDeviceAuth(request, { increment: false }),
        ]);
        if (!burst.isAllowed && burst.isExceeded) throw tooMany(burst.ttlInSeconds);
        if (!failures.isAllowed && failures.isExceeded) throw tooMany(failures.ttlInSeconds);
        const hash = deviceTokenHash(request);
        const known = hash ? knownDevices.get(hash) : undefined;
        const device = known ?? (hash ? await lookUpDevice(hash) : null);
        if (!hash || !device) {
          await failedDeviceAuth(request);
          throw deviceUnauthorized();
        }
        if (!known) knownDevices.set(hash, device);
        devices.set(request, { hash, device, fromMemory: Boolean(known) });
        return payload;
      },
      // A report refused for its body (not JSON, too large, out of range) by a device known only
      // from memory: the device is looked up first, so that one revoked or deleted since is
      // answered 401, as it would have been before its body was read.
      errorHandler: async (error, request) => {
        const known = devices.get(request);
        const status = (error as { statusCode?: number }).statusCode ?? 500;
        if (known?.fromMemory && status >= 400 && status < 500 && status !== 401 && status !== 429) {
          if (!(await lookUpDevice(known.hash))) await refuseDevice(request, known.hash);
        }
        throw error;
      },
      schema: {
        tags: ['driver-app'],
        summary: "The driver app reports the phone's position (Authorization: Bearer <device token>)",
        body: reportLocationBodySchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      const { hash, device } = devices.get(request) ?? {};
      if (!hash || !device) throw deviceUnauthorized();
      const now = new Date();
      const reported = request.body.recordedAt ? new Date(request.body.recordedAt) : now;
      // A phone whose clock runs ahead must not pin the driver to a future time.
      const at = reported > now ? now : reported;
      const recorded = await storePosition({
        driverId: device.driverId,
        tokenId: device.tokenId,
        lat: request.body.lat,
        long: request.body.long,
        at,
      });
      if (!recorded.active) return refuseDevice(request, hash);
      const stored = recorded.position;
      if (stored) {
        app.metrics.positionsAccepted.inc();
        const event: LocationEvent = {
          driverId: device.driverId,
          lat: stored.lat,
          long: stored.long,
          at: stored.positionAt.toISOString(),
        };
        // The position is stored: dashboards that miss the push still see it by polling.
        locationBus.publish(event).catch((error: unknown) => {
          request.log.warn({ err: error }, 'could not publish a driver position');
        });
      }
      return reply.status(204).send(null);
    },
  );
};
