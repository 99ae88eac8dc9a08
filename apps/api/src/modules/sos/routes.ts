import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { Histogram } from 'prom-client';
import { AppError } from '@bmet/shared/errors';
import { m } from '@bmet/shared/paraglide/messages';
import { idParamSchema } from '@bmet/shared/schemas/common';
import {
  createSosBodySchema,
  deviceSosBodySchema,
  deviceSosResponseSchema,
  sosAlertResponseSchema,
  sosListQuerySchema,
  tabStreamQuerySchema,
  sosListResponseSchema,
  updateSosBodySchema,
} from '@bmet/shared/schemas/sos';
import type { Db } from '../../db/client';
import type { AlertNotice, LocationBus } from '../../infra/location-bus';
import { errorResponses } from '../../lib/error-responses';
import { keyedList } from '../../lib/keyed-list';
import { findActiveSession } from '../../lib/sessions';
import { currentUser } from '../../plugins/authentication';
import { EVENT_STREAM_CONTENT } from '../../plugins/openapi';
import { hashDeviceToken } from '../driver-locations/device-tokens';
import { combineSources, type LocationStreams, type TabPositions } from '../driver-locations/location-stream';
import { FLEET_MAX_BUFFERED_BYTES } from '../fleet/fleet-stream';
import { findActiveDevices, type ActiveDevice } from '../driver-locations/repository';
import { registerSosExport } from './export';
import {
  createSos,
  findOpenAlerts,
  findPlacedAlert,
  findSosAlert,
  findSosAlerts,
  raiseFromDevice,
  updateSos,
} from './repository';
import { createSosHub } from './sos-stream';

export type SosRoutesOptions = {
  db: Db;
  bus: LocationBus;
  streams: LocationStreams;
  /** When the caller's ID token expires (ms since the epoch). */
  idTokenExpiry: (request: FastifyRequest) => number;
  /** The positions a tab's stream carries where the tab shows them (the fleet, some drivers). */
  tabPositions: TabPositions;
};

const TAGS = ['sos'];
const errors = errorResponses(400, 401, 403, 404);
/** A phone may raise this many alerts a minute (a driver pressing again and again is one emergency). */
const DEVICE_ALERTS_PER_MINUTE = 10;
const FAILED_DEVICE_AUTH_PER_MINUTE = 30;

function deviceToken(request: FastifyRequest): string | null {
  const [scheme, token, extra] = (request.headers.authorization ?? '').split(' ');
  return scheme?.toLowerCase() === 'bearer' && token && extra === undefined ? token : null;
}

/**
 * The control room: SOS alerts from drivers' phones and from staff, their steps, and a stream that
 * tells every staff member whose scope holds the driver within moments, on every instance (the
 * bus carries each change by id). Registered beside the location streams, whose terms it shares.
 */
export const sosRoutes: FastifyPluginAsyncZod<SosRoutesOptions> = async (
  app,
  { db, bus, streams, idTokenExpiry, tabPositions },
) => {
  const hub = createSosHub({
    bus,
    readAlert: (id) => findPlacedAlert(db, id),
    readOpen: (viewer) => findOpenAlerts(db, viewer),
    onError: (error) => app.log.warn({ err: error }, 'could not read an SOS alert for the streams'),
  });
  const acknowledgeSeconds = new Histogram({
    name: 'bmet_sos_acknowledge_seconds',
    help: 'Seconds from an SOS alert to its acknowledgement by staff',
    buckets: [5, 10, 20, 30, 60, 120, 300, 900],
    registers: [app.metrics.registry],
  });
  const announce = (request: FastifyRequest, notice: Extract<AlertNotice, { alertId: string }>) =>
    bus.publishAlert(notice).catch((error: unknown) => {
      // Stored all the same: the control room's list shows it, and its stream's next start.
      request.log.error({ err: error, alertId: notice.alertId }, 'could not announce an SOS alert');
    });
  const callerOf = (request: FastifyRequest) => {
    const user = currentUser(request);
    return { id: user.id, role: user.role, requestId: request.id };
  };
  const failedDeviceAuth = app.createRateLimit({
    max: FAILED_DEVICE_AUTH_PER_MINUTE,
    timeWindow: 60_000,
    keyGenerator: (request) => `sos-device-auth-failures:${request.ip}`,
  });

  const devices = new WeakMap<FastifyRequest, ActiveDevice>();
  app.post(
    '/driver-app/sos',
    {
      config: {
        access: 'public',
        deviceToken: true,
        rateLimit: {
          max: DEVICE_ALERTS_PER_MINUTE,
          timeWindow: '1 minute',
          keyGenerator: (request) => `sos:${deviceToken(request) ?? request.ip}`,
        },
      },
      // The phone is known before its body is read: a wrong token is a 401 whatever it sent.
      preParsing: async (request, _reply, payload) => {
        const failures = await failedDeviceAuth(request, { increment: false });
        if (!failures.isAllowed && failures.isExceeded) {
          throw new AppError('RATE_LIMITED', m.rateLimited(), {
            headers: { 'retry-after': String(Math.max(1, failures.ttlInSeconds)) },
          });
        }
        const token = deviceToken(request);
        const hash = token ? hashDeviceToken(token) : null;
        const device = hash ? (await findActiveDevices(db, [hash])).get(hash) : undefined;
        if (!device) {
          await failedDeviceAuth(request);
          throw new AppError('UNAUTHORIZED', m.unauthorized());
        }
        devices.set(request, device);
        return payload;
      },
      schema: {
        tags: ['driver-app'],
        summary:
          "The driver app's panic button (Authorization: Bearer <device token>), with the phone's position",
        description:
          'Raises an SOS alert about the driver (and the trip named, or the one under way): every ' +
          'staff member whose scope holds the driver is told at once; nobody acknowledging it within ' +
          '60 s raises it again to every admin and mails the grievance officer.',
        body: deviceSosBodySchema,
        response: { 201: deviceSosResponseSchema, ...errorResponses(400, 401, 429) },
      },
    },
    async (request, reply) => {
      const device = devices.get(request);
      if (!device) throw new AppError('UNAUTHORIZED', m.unauthorized());
      const now = new Date();
      const reported = request.body.recordedAt ? new Date(request.body.recordedAt) : now;
      const id = await raiseFromDevice(
        db,
        device,
        {
          lat: request.body.lat,
          long: request.body.long,
          at: reported > now ? now : reported,
          tripId: request.body.tripId,
        },
        request.id,
      );
      await announce(request, { alertId: id, kind: 'raised' });
      const alert = await findPlacedAlert(db, id);
      return reply.status(201).send({ data: { id, number: alert!.alert.number } });
    },
  );

  app.get(
    '/sos',
    {
      config: { access: ['sos', 'list'] },
      schema: {
        tags: TAGS,
        summary: "The caller's SOS alerts, newest first unless sorted otherwise",
        description:
          '`status=open` keeps those not yet resolved (the control room asks them oldest first, ' +
          '`order=asc`); `status=resolved` the history, with `outcome`, `driverId`, `from` and `to` (IST days).',
        querystring: sosListQuerySchema,
        response: { 200: sosListResponseSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const page = await findSosAlerts(db, callerOf(request), request.query);
      return keyedList(page.alerts, page);
    },
  );

  app.post(
    '/sos',
    {
      config: { access: ['sos', 'create'] },
      schema: {
        tags: TAGS,
        summary: 'Log an SOS alert from a call (a passenger or a driver in danger); audited',
        description:
          'About a trip (and so its driver) or a driver of the caller’s; every staff member in scope is told at once.',
        body: createSosBodySchema,
        response: { 201: sosAlertResponseSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const id = await createSos(db, caller, request.body);
      await announce(request, { alertId: id, kind: 'raised' });
      return reply.status(201).send({ data: await findSosAlert(db, caller, id) });
    },
  );

  app.get(
    '/sos/stream',
    {
      config: { access: ['sos', 'list'], openapi: { responses: { 200: EVENT_STREAM_CONTENT } } },
      exposeHeadRoute: false,
      schema: {
        tags: TAGS,
        summary: "A tab's one live stream: the caller's SOS alerts, inbox news, and the positions it shows",
        description:
          'text/event-stream: first `event: open` with every alert not yet resolved in the caller’s ' +
          'scope (oldest first), then `event: sos` with `{kind, alert}` for each alert raised, ' +
          'changed or raised again (`reraised`: nobody acknowledged it in the time its state ' +
          'allows), and `event: inbox` when the caller’s inbox has news. With `fleet=true`, also the ' +
          'fleet map’s events of `GET /api/fleet/stream` (`positions`, `gone`, `refresh`; load ' +
          '`GET /api/fleet` once `open` arrives); with `drivers` (up to 10 ids, by commas), also ' +
          '`event: location` for each of those drivers as `GET /api/drivers/location/{id}/stream` ' +
          'sends it, the current position first; those not in the caller’s scope are named at the ' +
          'start in `event: refused` (an array of ids) and not followed. A comment every 20 s. It ' +
          'ends when the ID token expires, within a second of a revocation or of a followed driver ' +
          'leaving the caller’s scope, and counts toward the 10 streams of a session.',
        querystring: tabStreamQuerySchema,
        response: errorResponses(400, 401, 403, 429),
      },
    },
    async (request, reply) => {
      const viewer = currentUser(request);
      const positions = await tabPositions(request, {
        fleet: request.query.fleet ?? false,
        driverIds: request.query.drivers ?? [],
      });
      await streams.serve(request, reply, combineSources(hub.source(viewer), ...positions.sources), {
        owner: { sessionId: viewer.sessionId, accountId: viewer.id },
        expiresAt: idTokenExpiry(request),
        driverIds: positions.driverIds,
        ...(request.query.fleet ? { maxBufferedBytes: FLEET_MAX_BUFFERED_BYTES } : {}),
        stillAllowed: async () => {
          const session = await findActiveSession(db, viewer.sessionId, viewer.id);
          return session !== null && session.role === viewer.role && (await positions.stillVisible());
        },
      });
    },
  );

  app.get(
    '/sos/:id',
    {
      config: { access: ['sos', 'view'] },
      schema: {
        tags: TAGS,
        summary: 'One SOS alert, with its escalations',
        params: idParamSchema,
        response: { 200: sosAlertResponseSchema, ...errors },
      },
    },
    async (request) => ({ data: await findSosAlert(db, callerOf(request), request.params.id) }),
  );

  app.patch(
    '/sos/:id',
    {
      config: { access: ['sos', 'update'] },
      schema: {
        tags: TAGS,
        summary: 'Acknowledge, escalate (police, ambulance, the franchise) or resolve an alert; audited',
        description:
          'Acknowledge first (the time from the alert is kept); escalate as often as needed, with ' +
          '`to` and a `note`; resolve with the `outcome` (help given, false alarm, test, other).',
        params: idParamSchema,
        body: updateSosBodySchema,
        response: { 200: sosAlertResponseSchema, ...errors },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      const { acknowledgedAfterMs } = await updateSos(db, caller, request.params.id, request.body);
      if (acknowledgedAfterMs !== null) acknowledgeSeconds.observe(acknowledgedAfterMs / 1000);
      await announce(request, { alertId: request.params.id, kind: 'changed' });
      return { data: await findSosAlert(db, caller, request.params.id) };
    },
  );

  registerSosExport(app, db);
};
