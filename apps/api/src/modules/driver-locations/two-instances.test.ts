import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../app';
import { createDriver } from '../../seed/factories';
import { createRedisLocationBus } from '../../infra/redis-location-bus';
import type { LocationBus } from '../../infra/location-bus';
import { findTestRedis } from '../../../test/redis';
import { getTestDatabase } from '../../../test/test-database';
import {
  createScope,
  issueDeviceToken,
  openLocationStream,
  reportLocation,
  SseReader,
} from '../../../test/location-support';
import { authHeader, testAppOptions } from '../../../test/test-app';

const redis = await findTestRedis();

/**
 * Two API instances on one database and one Redis, as behind a load balancer: a position reported
 * to one reaches a dashboard connected to the other.
 */
describe.skipIf(!redis.url)(
  `two API instances on one Redis${redis.url ? '' : ` (skipped: ${redis.reason})`}`,
  () => {
    // A channel of this run only, so that parallel runs on the same Redis do not mix.
    const channel = `bmet:test:${randomUUID()}`;
    const instances: { app: App; bus: LocationBus; baseUrl: string }[] = [];

    beforeAll(async () => {
      const { db } = await getTestDatabase();
      for (let i = 0; i < 2; i++) {
        const bus = await createRedisLocationBus(redis.url!, { channel });
        const app = await buildApp({ ...testAppOptions(db), locationBus: bus });
        const address = await app.listen({ port: 0, host: '127.0.0.1' });
        instances.push({ app, bus, baseUrl: address });
      }
    });
    afterAll(async () => {
      for (const { app, bus } of instances) {
        await app.close();
        await bus.close();
      }
    });

    it('pushes a position reported to instance A to a stream open on instance B', async () => {
      const [a, b] = instances as [(typeof instances)[0], (typeof instances)[0]];
      const { db } = await getTestDatabase();
      const s = await createScope(db);
      const driver = await createDriver(db, {
        franchiseId: s.franchise.account.id,
        lat: 28.6139,
        long: 77.209,
        positionAt: new Date(Date.now() - 120_000),
      });
      const device = await issueDeviceToken(a.app, s.admin.token, driver.id);

      const stream = await openLocationStream(b.baseUrl, driver.id, s.dealer.token);
      expect(stream.response.status).toBe(200);
      expect(await stream.nextLocation()).toMatchObject({ driverId: driver.id, lat: 28.6139, long: 77.209 });

      const response = await reportLocation(a.app, device.token, { lat: 28.62, long: 77.21 });
      expect(response.statusCode).toBe(204);
      expect(await stream.nextLocation(30_000)).toMatchObject({
        driverId: driver.id,
        lat: 28.62,
        long: 77.21,
      });
      stream.abort();
    }, 60_000);

    it('pushes an SOS raised on instance A to the staff of B whose scope holds the driver, within 2 s', async () => {
      const [a, b] = instances as [(typeof instances)[0], (typeof instances)[0]];
      const { db } = await getTestDatabase();
      const s = await createScope(db);
      const device = await issueDeviceToken(a.app, s.admin.token, s.driver.id);
      const controller = new AbortController();
      const response = await fetch(`${b.baseUrl}/api/sos/stream`, {
        headers: authHeader(s.franchise.token),
        signal: controller.signal,
      });
      const stream = new SseReader(response, controller);
      const next = async (event: string, timeoutMs: number) => {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
          const message = await stream.next(Math.max(1, deadline - Date.now()));
          if (message && 'event' in message && message.event === event) return JSON.parse(message.data);
          if (message === null) throw new Error('The stream ended');
        }
      };
      await next('open', 20_000);
      const raised = await a.app.inject({
        method: 'POST',
        url: '/api/driver-app/sos',
        headers: authHeader(device.token),
        payload: { lat: 19.07, long: 72.88 },
      });
      expect(raised.statusCode, raised.body).toBe(201);
      // The issue's bound: every in-scope staff screen hears of it within 2 s.
      expect(await next('sos', 2_000)).toMatchObject({
        kind: 'raised',
        alert: { id: raised.json().data.id },
      });
      controller.abort();
    }, 60_000);
  },
);
