import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { DAY_RANGE } from '@bmet/shared/constants';
import { m } from '@bmet/shared/paraglide/messages';
import { fleetDriverSchema, type FleetDriver } from '@bmet/shared/schemas/fleet';
import { accounts, drivers } from '../../db/schema';
import { createAccount, createDriver } from '../../seed/factories';
import { authHeader, issueToken } from '../../../test/test-app';
import { isDriverInScope } from '../../lib/scope';
import { FLEET_FLUSH_MS } from './fleet-stream';
import { findPlacedDrivers } from './repository';
import { findVisibleDriver } from '../driver-locations/repository';
import {
  createScope,
  issueDeviceToken,
  reportLocation,
  SseReader,
  useLocationTestApp,
  type SseMessage,
} from '../../../test/location-support';

const t = useLocationTestApp({ listen: true });
let s: Awaited<ReturnType<typeof createScope>>;
beforeAll(async () => {
  s = await createScope(t.db);
});

async function getFleet(token: string, query = '') {
  return t.app.inject({ method: 'GET', url: `/api/fleet${query}`, headers: authHeader(token) });
}

const idsOf = (cars: { id: string }[]) => cars.map((car) => car.id);

/** A fleet stream as the map opens it, read up to its `: connected` comment. */
async function openFleet(token: string) {
  const controller = new AbortController();
  const response = await fetch(`${t.baseUrl}/api/fleet/stream`, {
    headers: authHeader(token),
    signal: controller.signal,
  });
  const stream = new SseReader(response, controller);
  expect(response.status).toBe(200);
  expect(await stream.next()).toEqual({ comment: 'connected' });
  return stream;
}

type FleetMessage = { event: string; data: unknown };

/** Every message (comments skipped) the stream carries within `ms`. */
async function collect(stream: SseReader, ms: number): Promise<FleetMessage[]> {
  const messages: FleetMessage[] = [];
  const until = Date.now() + ms;
  for (;;) {
    const left = until - Date.now();
    if (left <= 0) return messages;
    let message: SseMessage | null;
    try {
      message = await stream.next(left);
    } catch {
      return messages; // nothing more within the time
    }
    if (message === null) return messages;
    if ('event' in message) messages.push({ event: message.event, data: JSON.parse(message.data) });
  }
}

/** Reads until a message of this kind mentions the driver; fails after `ms`. */
async function waitFor(stream: SseReader, event: string, driverId: string, ms = 5_000) {
  const until = Date.now() + ms;
  for (;;) {
    const message = await stream.next(Math.max(1, until - Date.now()));
    if (message === null) throw new Error('The stream ended');
    if (!('event' in message) || message.event !== event) continue;
    const data = JSON.parse(message.data) as (FleetDriver | string)[];
    const found = data.find((item) => (typeof item === 'string' ? item : item.id) === driverId);
    if (found) return found;
  }
}

const positionsOf = (messages: FleetMessage[]) =>
  messages.filter((m) => m.event === 'positions').flatMap((m) => m.data as FleetDriver[]);

describe('GET /api/fleet', () => {
  it('answers every driver in the caller’s scope with a known position, compactly', async () => {
    const response = await getFleet(s.dealer.token);
    expect(response.statusCode).toBe(200);
    const { data } = response.json<{ data: FleetDriver[] }>();
    expect(idsOf(data).sort()).toEqual([s.driver.id, s.sisterDriver.id].sort());
    expect(data.find((car) => car.id === s.driver.id)).toEqual({
      id: s.driver.id,
      name: s.driver.name,
      lat: s.driver.lat,
      long: s.driver.long,
      updatedAt: s.driver.positionAt!.toISOString(),
      carType: s.driver.carType,
      franchiseId: s.franchise.account.id,
    });
  });

  it('writes each car with the schema’s fields only, whatever its name holds', async () => {
    const odd = await createDriver(t.db, {
      franchiseId: s.franchise.account.id,
      name: 'Ravi "Rocket" \\ Kumar </script> ✓',
      carType: null,
      lat: -0.00001,
      long: 72.5,
      positionAt: null,
    });
    const response = await getFleet(s.franchise.token);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    const { data } = response.json<{ data: FleetDriver[] }>();
    for (const car of data) {
      expect(Object.keys(car).sort()).toEqual(Object.keys(fleetDriverSchema.shape).sort());
      expect(fleetDriverSchema.parse(car)).toEqual(car);
    }
    expect(data.find((car) => car.id === odd.id)).toEqual({
      id: odd.id,
      name: 'Ravi "Rocket" \\ Kumar </script> ✓',
      lat: -0.00001,
      long: 72.5,
      updatedAt: null,
      carType: null,
      franchiseId: s.franchise.account.id,
    });
    await t.db.delete(drivers).where(eq(drivers.id, odd.id));
  });

  it('follows each role’s scope: a dealer never sees another dealer’s cars', async () => {
    const seen = async (token: string) => idsOf((await getFleet(token)).json<{ data: FleetDriver[] }>().data);
    expect(await seen(s.franchise.token)).toEqual([s.driver.id]);
    expect(await seen(s.otherDealer.token)).toEqual([s.otherDriver.id]);
    expect(await seen(s.otherFranchise.token)).toEqual([s.otherDriver.id]);
    const all = await seen(s.admin.token);
    expect(all).toEqual(
      expect.arrayContaining([s.driver.id, s.sisterDriver.id, s.otherDriver.id, s.unassignedDriver.id]),
    );
    // No position, or deleted: not on the map.
    expect(all).not.toContain(s.unlocatedDriver.id);
    expect(all).not.toContain(s.deletedDriver.id);
  });

  it('answers only recent positions with since, and refuses a since that is no time', async () => {
    const fresh = await createDriver(t.db, {
      franchiseId: s.franchise.account.id,
      lat: 19.1,
      long: 72.9,
      positionAt: new Date(),
    });
    const since = new Date(Date.now() - 10_000).toISOString();
    const recent = (await getFleet(s.franchise.token, `?since=${encodeURIComponent(since)}`)).json<{
      data: FleetDriver[];
    }>().data;
    expect(idsOf(recent)).toEqual([fresh.id]);

    const bad = await getFleet(s.franchise.token, '?since=yesterday');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'VALIDATION', error: 'since: Not a valid time.' });
    const yearZero = await getFleet(s.franchise.token, '?since=0000-01-01T00:00:00Z');
    expect(yearZero.statusCode).toBe(400);
    expect(yearZero.json()).toMatchObject({
      code: 'VALIDATION',
      error: `since: ${m.dateOutOfRange(DAY_RANGE)}`,
    });
  });

  it('needs a signed-in caller', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/fleet' });
    expect(response.statusCode).toBe(401);
  });
});

describe('GET /api/fleet/stream', () => {
  it('pushes each viewer the moves of its own cars only, batched', async () => {
    const dealer = await openFleet(s.dealer.token);
    const otherDealer = await openFleet(s.otherDealer.token);
    const admin = await openFleet(s.admin.token);
    const mine = await issueDeviceToken(t.app, s.admin.token, s.driver.id);
    const theirs = await issueDeviceToken(t.app, s.admin.token, s.otherDriver.id);

    expect((await reportLocation(t.app, mine.token, { lat: 19.08, long: 72.88 })).statusCode).toBe(204);
    expect((await reportLocation(t.app, theirs.token, { lat: 12.98, long: 77.6 })).statusCode).toBe(204);

    const [dealerSaw, otherSaw, adminSaw] = await Promise.all(
      [dealer, otherDealer, admin].map((stream) => collect(stream, 3 * FLEET_FLUSH_MS + 500)),
    );
    expect(idsOf(positionsOf(dealerSaw!))).toEqual([s.driver.id]);
    expect(positionsOf(dealerSaw!)[0]).toMatchObject({
      id: s.driver.id,
      name: s.driver.name,
      lat: 19.08,
      long: 72.88,
      franchiseId: s.franchise.account.id,
      updatedAt: expect.any(String),
    });
    expect(idsOf(positionsOf(otherSaw!))).toEqual([s.otherDriver.id]);
    expect(idsOf(positionsOf(adminSaw!)).sort()).toEqual([s.driver.id, s.otherDriver.id].sort());
    for (const stream of [dealer, otherDealer, admin]) stream.abort();
  });

  it('sends many reports of one moment as one message', async () => {
    const franchise = await createAccount(t.db, { role: 'franchise', dealerId: s.dealer.account.id });
    const viewer = await issueToken(t.db, franchise);
    const drivers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        createDriver(t.db, { franchiseId: franchise.id, lat: 19 + i / 1000, long: 72.8, positionAt: null }),
      ),
    );
    const phones = await Promise.all(drivers.map((d) => issueDeviceToken(t.app, s.admin.token, d.id)));
    const stream = await openFleet(viewer.token);

    const reports = await Promise.all(
      phones.map((phone, i) => reportLocation(t.app, phone.token, { lat: 18.5 + i / 1000, long: 73.85 })),
    );
    expect(reports.map((r) => r.statusCode)).toEqual(reports.map(() => 204));

    const messages = await collect(stream, 3 * FLEET_FLUSH_MS + 500);
    const positions = messages.filter((m) => m.event === 'positions');
    expect(new Set(idsOf(positionsOf(messages)))).toEqual(new Set(idsOf(drivers)));
    // 30 reports within a moment: one or two flushes, never a message per report.
    expect(positions.length).toBeLessThanOrEqual(3);
    stream.abort();
  });

  it('moves a driver reassigned to another dealer’s franchise from one stream to the other', async () => {
    const driver = await createDriver(t.db, {
      franchiseId: s.franchise.account.id,
      lat: 19.07,
      long: 72.87,
      positionAt: new Date(),
    });
    const phone = await issueDeviceToken(t.app, s.admin.token, driver.id);
    const dealer = await openFleet(s.dealer.token);
    const otherDealer = await openFleet(s.otherDealer.token);

    const assigned = await t.app.inject({
      method: 'PATCH',
      url: `/api/drivers/driver/${driver.id}/assignment`,
      headers: authHeader(s.admin.token),
      payload: { franchiseId: s.otherFranchise.account.id, state: null },
    });
    expect(assigned.statusCode).toBe(200);
    expect(await waitFor(dealer, 'gone', driver.id)).toBe(driver.id);
    expect(await waitFor(otherDealer, 'positions', driver.id)).toMatchObject({
      id: driver.id,
      franchiseId: s.otherFranchise.account.id,
    });

    // Its next moves reach the new dealer only.
    expect((await reportLocation(t.app, phone.token, { lat: 12.99, long: 77.61 })).statusCode).toBe(204);
    const [dealerSaw, otherSaw] = await Promise.all(
      [dealer, otherDealer].map((stream) => collect(stream, 3 * FLEET_FLUSH_MS + 500)),
    );
    expect(idsOf(positionsOf(dealerSaw!))).not.toContain(driver.id);
    expect(positionsOf(otherSaw!)).toContainEqual(expect.objectContaining({ id: driver.id, lat: 12.99 }));
    dealer.abort();
    otherDealer.abort();
  });

  it('tells every viewer of a deleted driver that it is gone', async () => {
    const driver = await createDriver(t.db, {
      franchiseId: s.sisterFranchise.account.id,
      lat: 19.06,
      long: 72.86,
      positionAt: new Date(),
    });
    const dealer = await openFleet(s.dealer.token);
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/drivers/driver/${driver.id}`,
      headers: authHeader(s.admin.token),
    });
    expect(deleted.statusCode).toBeLessThan(300);
    expect(await waitFor(dealer, 'gone', driver.id)).toBe(driver.id);
    dealer.abort();
  });

  it('asks a city dealer to load the fleet again when a franchise moves to another dealer', async () => {
    const dealer = await createAccount(t.db, { role: 'city_dealer', state: 'goa' });
    const franchise = await createAccount(t.db, { role: 'franchise', dealerId: dealer.id, state: 'goa' });
    const viewer = await issueToken(t.db, dealer);
    const stream = await openFleet(viewer.token);
    await t.db
      .update(accounts)
      .set({ dealerId: s.otherDealer.account.id })
      .where(eq(accounts.id, franchise.id));
    const messages = await collect(stream, 3 * FLEET_FLUSH_MS + 1000);
    expect(messages.map((m) => m.event)).toContain('refresh');
    stream.abort();
  });

  it('ends within a second of a sign-out', async () => {
    const { token } = await issueToken(t.db, s.dealer.account);
    const stream = await openFleet(token);
    const signOut = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-out',
      headers: authHeader(token),
    });
    expect(signOut.statusCode).toBe(204);
    await stream.waitForEnd(1500);
  });

  it('needs a signed-in caller', async () => {
    const response = await fetch(`${t.baseUrl}/api/fleet/stream`);
    expect(response.status).toBe(401);
  });
});

describe('isDriverInScope', () => {
  it('agrees with driverScope for every role and driver', async () => {
    const viewers = [s.admin, s.dealer, s.franchise, s.sisterFranchise, s.otherDealer, s.otherFranchise];
    const drivers = [
      s.driver,
      s.sisterDriver,
      s.otherDriver,
      s.unassignedDriver,
      s.unlocatedDriver,
      s.deletedDriver,
    ];
    // An account that is not a franchise, named as a driver's franchise, places nobody under a dealer.
    const odd = await createDriver(t.db, { franchiseId: s.otherDealer.account.id });
    const placed = await findPlacedDrivers(t.db, [...idsOf(drivers), odd.id]);
    expect(placed).toHaveLength(drivers.length + 1);
    for (const viewer of viewers) {
      for (const driver of placed) {
        const inSql = (await findVisibleDriver(t.db, viewer.account, driver.id)) !== null;
        expect(isDriverInScope(viewer.account, driver), `${viewer.account.role} / ${driver.name}`).toBe(
          inSql,
        );
      }
    }
  });
});
