import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { m } from '@bmet/shared/paraglide/messages';
import { buildApp } from '../../app';
import { createDriver } from '../../seed/factories';
import { createInProcessLocationBus, type LocationBus } from '../../infra/location-bus';
import { authHeader, issueToken, testAppOptions } from '../../../test/test-app';
import { createLocationStreams } from './location-stream';
import {
  createScope,
  eventually,
  issueDeviceToken,
  openLocationStream,
  reportLocation,
  SseReader,
  useLocationTestApp,
} from '../../../test/location-support';

/** An in-process bus that counts its subscribers, to see streams let go of theirs. */
function countingBus(): LocationBus & { subscribers: () => number } {
  const inner = createInProcessLocationBus();
  let count = 0;
  return {
    publish: (event) => inner.publish(event),
    subscribe(listener) {
      count++;
      const stop = inner.subscribe(listener);
      let stopped = false;
      return () => {
        if (stopped) return;
        stopped = true;
        count--;
        stop();
      };
    },
    publishAlert: (notice) => inner.publishAlert(notice),
    subscribeAlerts: (listener) => inner.subscribeAlerts(listener),
    close: () => inner.close(),
    subscribers: () => count,
  };
}

const bus = countingBus();
const t = useLocationTestApp({ listen: true, bus: async () => bus });
let s: Awaited<ReturnType<typeof createScope>>;
beforeAll(async () => {
  s = await createScope(t.db);
});

describe('GET /api/drivers/location/:driverKey/stream', () => {
  it('sends the current position, then each new one, and lets go of the bus when the client leaves', async () => {
    const driver = await createDriver(t.db, {
      franchiseId: s.franchise.account.id,
      lat: 19.0544,
      long: 72.8406,
      positionAt: new Date(Date.now() - 30_000),
    });
    const device = await issueDeviceToken(t.app, s.franchise.token, driver.id);
    const subscribersBefore = bus.subscribers();

    const stream = await openLocationStream(t.baseUrl, driver.id, s.dealer.token);
    expect(stream.response.status).toBe(200);
    expect(stream.response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(stream.response.headers.get('cache-control')).toBe('no-cache, no-transform');
    // fetch asks for compressed answers; a stream is never compressed (it would be buffered).
    expect(stream.response.headers.get('content-encoding')).toBeNull();
    expect(stream.response.headers.get('x-request-id')).toEqual(expect.any(String));
    // The security headers of every other response still apply.
    expect(stream.response.headers.get('x-content-type-options')).toBe('nosniff');

    expect(await stream.next()).toEqual({ comment: 'connected' });
    expect(await stream.nextLocation()).toEqual({
      driverId: driver.id,
      lat: 19.0544,
      long: 72.8406,
      at: driver.positionAt!.toISOString(),
    });
    expect(bus.subscribers()).toBe(subscribersBefore + 1);

    // A position of another driver is not sent on this stream.
    const other = await issueDeviceToken(t.app, s.admin.token, s.sisterDriver.id);
    expect((await reportLocation(t.app, other.token, { lat: 10, long: 10 })).statusCode).toBe(204);

    expect((await reportLocation(t.app, device.token, { lat: 19.06, long: 72.85 })).statusCode).toBe(204);
    const pushed = await stream.nextLocation();
    expect(pushed).toMatchObject({ driverId: driver.id, lat: 19.06, long: 72.85 });
    expect(Date.parse(pushed!.at as string)).toBeGreaterThan(driver.positionAt!.getTime());

    stream.abort();
    await eventually(() => bus.subscribers() === subscribersBefore);
  });

  it('opens on a driver without a position and sends the first one that arrives', async () => {
    const driver = s.unlocatedDriver;
    const device = await issueDeviceToken(t.app, s.admin.token, driver.id);
    const subscribersBefore = bus.subscribers();
    const stream = await openLocationStream(t.baseUrl, driver.id, s.franchise.token);
    expect(stream.response.status).toBe(200);
    expect(await stream.next()).toEqual({ comment: 'connected' });

    expect((await reportLocation(t.app, device.token, { lat: 19.1, long: 72.9 })).statusCode).toBe(204);
    expect(await stream.nextLocation()).toMatchObject({ driverId: driver.id, lat: 19.1, long: 72.9 });
    stream.abort();
    await eventually(() => bus.subscribers() === subscribersBefore);
  });

  it("answers 404 for a driver outside the caller's scope and 401 without a token, before streaming", async () => {
    const subscribersBefore = bus.subscribers();
    const outside = await openLocationStream(t.baseUrl, s.otherDriver.id, s.dealer.token);
    expect(outside.response.status).toBe(404);
    expect(await outside.response.json()).toEqual({ error: m.notFound(), code: 'NOT_FOUND' });

    const deleted = await openLocationStream(t.baseUrl, s.deletedDriver.id, s.admin.token);
    expect(deleted.response.status).toBe(404);

    const head = await fetch(`${t.baseUrl}/api/drivers/location/${s.driver.id}/stream`, {
      method: 'HEAD',
      headers: authHeader(s.admin.token),
    });
    expect(head.status).toBe(404);

    const anonymous = await fetch(`${t.baseUrl}/api/drivers/location/${s.driver.id}/stream`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({ error: m.unauthorized(), code: 'UNAUTHORIZED' });
    expect(bus.subscribers()).toBe(subscribersBefore);
  });

  it('ends the stream when the ID token expires', async () => {
    const { token } = await issueToken(t.db, s.admin.account, { expiresAt: new Date(Date.now() + 4000) });
    const subscribersBefore = bus.subscribers();
    const stream = await openLocationStream(t.baseUrl, s.driver.id, token);
    expect(stream.response.status).toBe(200);
    expect(await stream.nextLocation()).toMatchObject({ driverId: s.driver.id });
    await stream.waitForEnd(30_000);
    await eventually(() => bus.subscribers() === subscribersBefore);
  }, 60_000);
});

describe('closing the server', () => {
  it('ends open streams instead of waiting for them', async () => {
    const closingBus = countingBus();
    const app = await buildApp({ ...testAppOptions(t.db), locationBus: closingBus });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    const baseUrl = `http://127.0.0.1:${address.port}`;

    const streams = await Promise.all([
      openLocationStream(baseUrl, s.driver.id, s.admin.token),
      openLocationStream(baseUrl, s.driver.id, s.dealer.token),
    ]);
    for (const stream of streams)
      expect(await stream.nextLocation()).toMatchObject({ driverId: s.driver.id });
    // The streams share one subscription.
    expect(closingBus.subscribers()).toBe(1);

    // Without the shutdown hook this never returns: the server waits for every open response.
    await app.close();
    for (const stream of streams) await stream.waitForEnd();
    expect(closingBus.subscribers()).toBe(0);
    await closingBus.close();
  }, 60_000);
});

describe('a location stream on its own', () => {
  it('ends at a heartbeat once the caller is no longer allowed (revoked session, driver moved)', async () => {
    const ownBus = countingBus();
    const streams = createLocationStreams(ownBus, 100);
    let allowed = true;
    const server = Fastify();
    server.get('/stream', async (request, reply) => {
      await streams.open(request, reply, {
        driverId: randomUUID(),
        readCurrent: async () => null,
        expiresAt: Date.now() + 60_000,
        stillAllowed: async () => allowed,
      });
    });
    server.addHook('preClose', (done) => {
      streams.endAll();
      done();
    });
    const address = await server.listen({ port: 0, host: '127.0.0.1' });
    const controller = new AbortController();
    const stream = new SseReader(await fetch(`${address}/stream`, { signal: controller.signal }), controller);
    expect(await stream.next()).toEqual({ comment: 'connected' });
    expect(await stream.next()).toEqual({ comment: 'heartbeat' });
    allowed = false;
    await stream.waitForEnd();
    expect(streams.size).toBe(0);
    expect(ownBus.subscribers()).toBe(0);
    await server.close();
  });

  it('keeps positions that arrive while the current one is read, skips stale ones, and beats', async () => {
    const ownBus = countingBus();
    const streams = createLocationStreams(ownBus, 200);
    const driverId = randomUUID();
    const at = (secondsAgo: number) => new Date(Date.now() - secondsAgo * 1000).toISOString();
    const server = Fastify();
    server.get('/stream', async (request, reply) => {
      await streams.open(request, reply, {
        driverId,
        readCurrent: async () => {
          // Published after the subscription, before the stream is ready: must not be lost.
          await ownBus.publish({ driverId, lat: 2, long: 2, at: at(5) });
          return { driverId, lat: 1, long: 1, at: at(10) };
        },
        expiresAt: Date.now() + 60_000,
      });
    });
    server.addHook('preClose', (done) => {
      streams.endAll();
      done();
    });
    const address = await server.listen({ port: 0, host: '127.0.0.1' });
    const controller = new AbortController();
    const response = await fetch(`${address}/stream`, { signal: controller.signal });
    const stream = new SseReader(response, controller);

    expect(await stream.next()).toEqual({ comment: 'connected' });
    expect(await stream.nextLocation()).toMatchObject({ lat: 1 });
    expect(await stream.nextLocation()).toMatchObject({ lat: 2 });
    await ownBus.publish({ driverId, lat: 3, long: 3, at: at(60) }); // older than what was sent
    await ownBus.publish({ driverId: randomUUID(), lat: 4, long: 4, at: at(0) }); // another driver
    await ownBus.publish({ driverId, lat: 5, long: 5, at: at(0) });
    expect(await stream.nextLocation()).toMatchObject({ lat: 5 });
    expect(await stream.next()).toEqual({ comment: 'heartbeat' });
    expect(streams.size).toBe(1);

    await server.close();
    await stream.waitForEnd();
    expect(streams.size).toBe(0);
    expect(ownBus.subscribers()).toBe(0);
  });
});
