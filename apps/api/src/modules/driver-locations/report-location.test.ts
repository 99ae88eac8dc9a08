import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROLES } from '@bmet/shared/constants';
import { m } from '@bmet/shared/paraglide/messages';
import type { LocationEvent } from '@bmet/shared/schemas/driver';
import { driverDeviceTokens, drivers } from '../../db/schema';
import { createDriver } from '../../seed/factories';
import { authHeader, uniqueAddress } from '../../../test/test-app';
import {
  createScope,
  issueDeviceToken,
  reportLocation,
  useLocationTestApp,
} from '../../../test/location-support';

const t = useLocationTestApp();
let s: Awaited<ReturnType<typeof createScope>>;
beforeAll(async () => {
  s = await createScope(t.db);
});

const unauthorized = { error: m.unauthorized(), code: 'UNAUTHORIZED' };

async function positionOf(driverId: string) {
  const [row] = await t.db
    .select({ lat: drivers.lat, long: drivers.long, positionAt: drivers.positionAt })
    .from(drivers)
    .where(eq(drivers.id, driverId));
  return row!;
}

const HOUR_AGO = () => new Date(Date.now() - 3_600_000);

/** A driver of the test franchise with a device token. */
async function driverWithDevice(positionAt: Date | null = HOUR_AGO()) {
  const driver = await createDriver(t.db, {
    franchiseId: s.franchise.account.id,
    lat: positionAt ? 18.52 : null,
    long: positionAt ? 73.85 : null,
    positionAt,
  });
  const device = await issueDeviceToken(t.app, s.franchise.token, driver.id);
  return { driver, device };
}

/** The positions the bus carries for one driver while `work` runs. */
async function eventsDuring(driverId: string, work: () => Promise<unknown>) {
  const events: LocationEvent[] = [];
  const unsubscribe = t.bus.subscribe((event) => {
    if (event.driverId === driverId) events.push(event);
  });
  try {
    await work();
  } finally {
    unsubscribe();
  }
  return events;
}

describe('POST /api/driver-app/location', () => {
  it('stores the position, marks the token used, publishes the position and answers 204', async () => {
    const { driver, device } = await driverWithDevice();
    const before = Date.now();
    let status = 0;
    let limit: unknown;
    const events = await eventsDuring(driver.id, async () => {
      const response = await reportLocation(t.app, device.token, { lat: 18.5312, long: 73.8478 });
      status = response.statusCode;
      limit = response.headers['x-ratelimit-limit'];
      expect(response.body).toBe('');
    });

    expect(status).toBe(204);
    expect(limit).toBe('60');
    const stored = await positionOf(driver.id);
    expect(stored).toMatchObject({ lat: 18.5312, long: 73.8478 });
    expect(stored.positionAt!.getTime()).toBeGreaterThanOrEqual(before - 1000);
    const [token] = await t.db.select().from(driverDeviceTokens).where(eq(driverDeviceTokens.id, device.id));
    expect(token!.lastUsedAt).not.toBeNull();
    expect(events).toEqual([
      { driverId: driver.id, lat: 18.5312, long: 73.8478, at: stored.positionAt!.toISOString() },
    ]);

    // The staff screens read it back.
    const polled = await t.app.inject({
      method: 'GET',
      url: `/api/drivers/location/${driver.id}`,
      headers: authHeader(s.franchise.token),
    });
    expect(polled.json().data).toMatchObject({
      position: { lat: 18.5312, long: 73.8478 },
      positionAt: stored.positionAt!.toISOString(),
    });
  });

  it("takes the phone's recordedAt as the time of the position, and a first position too", async () => {
    const { driver, device } = await driverWithDevice(null);
    const recordedAt = new Date(Date.now() - 5000).toISOString();
    const response = await reportLocation(t.app, device.token, { lat: -33.9, long: 151.2, recordedAt });
    expect(response.statusCode).toBe(204);
    const stored = await positionOf(driver.id);
    expect(stored).toEqual({ lat: -33.9, long: 151.2, positionAt: new Date(recordedAt) });
  });

  it('accepts the extremes of the ranges', async () => {
    const { driver, device } = await driverWithDevice();
    for (const body of [
      { lat: 90, long: 180 },
      { lat: -90, long: -180 },
      { lat: 0, long: 0 },
    ]) {
      const response = await reportLocation(t.app, device.token, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(204);
      expect(await positionOf(driver.id)).toMatchObject(body);
      // Stay under the per-second burst limit of one token.
      await new Promise((resolve) => setTimeout(resolve, 1100));
    }
  });

  it.each([
    ['lat above 90', { lat: 91, long: 73 }, 'lat'],
    ['lat below -90', { lat: -90.5, long: 73 }, 'lat'],
    ['long below -180', { lat: 18, long: -181 }, 'long'],
    ['long above 180', { lat: 18, long: 180.01 }, 'long'],
    ['lat as a string', { lat: '18.5', long: 73 }, 'lat'],
    ['long as a string', { lat: 18.5, long: 'east' }, 'long'],
    ['lat missing', { long: 73 }, 'lat'],
    ['long missing', { lat: 18 }, 'long'],
    ['lat not a number', { lat: null, long: 73 }, 'lat'],
    ['a recordedAt that is not a time', { lat: 18, long: 73, recordedAt: 'yesterday' }, 'recordedAt'],
  ])('refuses %s with 400 and changes nothing', async (_case, body, field) => {
    const { driver, device } = await driverWithDevice();
    const before = await positionOf(driver.id);
    const events = await eventsDuring(driver.id, async () => {
      const response = await reportLocation(t.app, device.token, body);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        code: 'VALIDATION',
        fieldErrors: { [field]: expect.any(Array) },
      });
    });
    expect(events).toEqual([]);
    expect(await positionOf(driver.id)).toEqual(before);
  });

  it('refuses a missing or non-JSON body with 400', async () => {
    const { driver, device } = await driverWithDevice();
    const before = await positionOf(driver.id);
    const empty = await t.app.inject({
      method: 'POST',
      url: '/api/driver-app/location',
      headers: authHeader(device.token),
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ code: 'VALIDATION' });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const garbage = await t.app.inject({
      method: 'POST',
      url: '/api/driver-app/location',
      headers: { ...authHeader(device.token), 'content-type': 'application/json' },
      payload: '{"lat": 18,',
    });
    expect(garbage.statusCode).toBe(400);
    expect(garbage.json()).toMatchObject({ code: 'VALIDATION' });
    expect(await positionOf(driver.id)).toEqual(before);
  });

  it('never moves a driver back in time: an older report is ignored', async () => {
    const { driver, device } = await driverWithDevice();
    const newer = new Date(Date.now() - 10_000).toISOString();
    expect(
      (await reportLocation(t.app, device.token, { lat: 18.6, long: 73.9, recordedAt: newer })).statusCode,
    ).toBe(204);
    await new Promise((resolve) => setTimeout(resolve, 1100));

    const older = new Date(Date.now() - 60_000).toISOString();
    const events = await eventsDuring(driver.id, async () => {
      const response = await reportLocation(t.app, device.token, { lat: 1, long: 1, recordedAt: older });
      expect(response.statusCode).toBe(204);
    });
    expect(events).toEqual([]);
    expect(await positionOf(driver.id)).toEqual({ lat: 18.6, long: 73.9, positionAt: new Date(newer) });
  });

  it('takes a time ahead of the server clock as now, so that it cannot block later reports', async () => {
    const { driver, device } = await driverWithDevice();
    const future = new Date(Date.now() + 86_400_000).toISOString();
    expect(
      (await reportLocation(t.app, device.token, { lat: 18.7, long: 73.7, recordedAt: future })).statusCode,
    ).toBe(204);
    const stored = await positionOf(driver.id);
    expect(stored.positionAt!.getTime()).toBeLessThanOrEqual(Date.now());
    await new Promise((resolve) => setTimeout(resolve, 1100));

    expect((await reportLocation(t.app, device.token, { lat: 18.71, long: 73.71 })).statusCode).toBe(204);
    expect(await positionOf(driver.id)).toMatchObject({ lat: 18.71, long: 73.71 });
  });

  it('answers 401 without a token, with a staff ID token of any role, or with an unknown token', async () => {
    const { driver } = await driverWithDevice();
    const before = await positionOf(driver.id);
    const body = { lat: 18.5, long: 73.8 };
    const staffTokens = [s.admin.token, s.dealer.token, s.franchise.token];
    expect(ROLES).toHaveLength(staffTokens.length);
    for (const token of [null, ...staffTokens, 'bmetd_not-a-real-token', 'Basic abc']) {
      const response = await reportLocation(t.app, token, body, { remoteAddress: uniqueAddress() });
      expect(response.statusCode, String(token)).toBe(401);
      expect(response.json()).toEqual(unauthorized);
    }
    // The body is not even read before the device is known.
    const invalidBody = await reportLocation(t.app, null, { lat: 91 }, { remoteAddress: uniqueAddress() });
    expect(invalidBody.statusCode).toBe(401);
    expect(await positionOf(driver.id)).toEqual(before);
  });

  it('answers 401 for the token of a driver deleted since', async () => {
    const { driver, device } = await driverWithDevice();
    await t.db.update(drivers).set({ deletedAt: new Date() }).where(eq(drivers.id, driver.id));
    const response = await reportLocation(t.app, device.token, { lat: 18.5, long: 73.8 });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual(unauthorized);
  });

  it('answers 401 once a token it has accepted is revoked, or its driver deleted, elsewhere', async () => {
    // Changed in the database, as another instance would: this one has seen both devices before.
    const { driver: revokedDriver, device: revoked } = await driverWithDevice();
    const { driver: deletedDriver, device: ofDeleted } = await driverWithDevice();
    const { driver: active, device } = await driverWithDevice();
    for (const phone of [revoked, ofDeleted, device]) {
      expect((await reportLocation(t.app, phone.token, { lat: 18.6, long: 73.9 })).statusCode).toBe(204);
    }
    await t.db
      .update(driverDeviceTokens)
      .set({ revokedAt: new Date() })
      .where(eq(driverDeviceTokens.id, revoked.id));
    await t.db.update(drivers).set({ deletedAt: new Date() }).where(eq(drivers.id, deletedDriver.id));
    const before = [await positionOf(revokedDriver.id), await positionOf(deletedDriver.id)];

    const published: LocationEvent[] = [];
    const unsubscribe = t.bus.subscribe((event) => published.push(event));
    // Sent together, so that they are stored together.
    const responses = await Promise.all(
      [revoked, ofDeleted, device].map((phone) =>
        reportLocation(t.app, phone.token, { lat: 18.7, long: 73.95 }),
      ),
    ).finally(unsubscribe);
    expect(responses.map((response) => response.statusCode)).toEqual([401, 401, 204]);
    expect(responses[0]!.json()).toEqual(unauthorized);
    expect(responses[1]!.json()).toEqual(unauthorized);
    expect([await positionOf(revokedDriver.id), await positionOf(deletedDriver.id)]).toEqual(before);
    expect(await positionOf(active.id)).toMatchObject({ lat: 18.7, long: 73.95 });
    expect(published.map((event) => event.driverId)).not.toContain(revokedDriver.id);
    expect(published.map((event) => event.driverId)).not.toContain(deletedDriver.id);
  });

  it("stores the new phone's report when the driver's old phone, revoked elsewhere, reports with it", async () => {
    const { driver, device: old } = await driverWithDevice();
    const current = await issueDeviceToken(t.app, s.franchise.token, driver.id);
    const minuteAgo = new Date(Date.now() - 60_000).toISOString();
    for (const phone of [old, current]) {
      const first = { lat: 18.6, long: 73.9, recordedAt: minuteAgo };
      expect((await reportLocation(t.app, phone.token, first)).statusCode).toBe(204);
    }
    await t.db
      .update(driverDeviceTokens)
      .set({ revokedAt: new Date() })
      .where(eq(driverDeviceTokens.id, old.id));
    // The new phone's fix is a second old; the old phone's report, without a time, is taken as now.
    const fixedAt = new Date(Date.now() - 1_000).toISOString();
    const responses = await Promise.all([
      reportLocation(t.app, old.token, { lat: 18.1, long: 73.1 }),
      reportLocation(t.app, current.token, { lat: 18.7, long: 73.95, recordedAt: fixedAt }),
    ]);
    expect(responses.map((response) => response.statusCode)).toEqual([401, 204]);
    expect(await positionOf(driver.id)).toEqual({ lat: 18.7, long: 73.95, positionAt: new Date(fixedAt) });
  });

  it('answers 401, not 400, to a bad body from a token it has accepted and that was revoked since', async () => {
    const { device } = await driverWithDevice();
    const { device: active } = await driverWithDevice();
    for (const phone of [device, active]) {
      expect((await reportLocation(t.app, phone.token, { lat: 18.6, long: 73.9 })).statusCode).toBe(204);
    }
    await t.db
      .update(driverDeviceTokens)
      .set({ revokedAt: new Date() })
      .where(eq(driverDeviceTokens.id, device.id));
    const address = uniqueAddress();
    const refused = await reportLocation(t.app, device.token, { lat: 91 }, { remoteAddress: address });
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual(unauthorized);
    // An active device's bad body is still a bad body.
    const invalid = await reportLocation(t.app, active.token, { lat: 91 });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toMatchObject({ code: 'VALIDATION' });
  });

  it('limits the reports of one token (429 with the one error body), not those of another', async () => {
    const { device } = await driverWithDevice();
    const { device: other } = await driverWithDevice();
    // Sent together so that they fall in one second even on a slow machine.
    const responses = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        reportLocation(t.app, device.token, { lat: 18.5 + i / 1000, long: 73.8 }),
      ),
    );
    const statuses = responses.map((response) => response.statusCode);
    expect(
      statuses.every((status) => status === 204 || status === 429),
      statuses.join(),
    ).toBe(true);
    const limited = responses.find((response) => response.statusCode === 429);
    expect(limited, statuses.join()).toBeDefined();
    expect(limited!.json()).toEqual({ error: m.rateLimited(), code: 'RATE_LIMITED' });
    expect(Number(limited!.headers['retry-after'])).toBeGreaterThanOrEqual(1);

    expect((await reportLocation(t.app, other.token, { lat: 18.5, long: 73.8 })).statusCode).toBe(204);
  });

  it('refuses a client address that keeps presenting unknown tokens (429)', async () => {
    const address = uniqueAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 32; i++) {
      const response = await reportLocation(
        t.app,
        `bmetd_guess-${i}`,
        { lat: 1, long: 1 },
        { remoteAddress: address },
      );
      statuses.push(response.statusCode);
    }
    expect(statuses.slice(0, 30).every((status) => status === 401)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });
});
