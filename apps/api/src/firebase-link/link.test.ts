import { randomUUID } from 'node:crypto';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import type { LocationEvent } from '@bmet/shared/schemas/driver';
import { auditLog, customers, drivers, trips, vehicles } from '../db/schema';
import { rowsOf } from '../db/rows';
import { createAccount } from '../seed/factories';
import { authHeader, issueToken, useTestApp } from '../../test/test-app';
import {
  pushIdTime,
  startFirebaseServer,
  type FirebaseJson,
  type FirebaseServer,
} from '../../test/firebase-server';
import { applyRecords, FOLLOWED_SECTIONS } from './apply';
import { FirebaseLink } from './link';
import { FirebaseRestClient, resolveAddress } from './rest-client';
import { readUntil } from '../../test/read-until';
import { appBooking } from '../../test/app-booking';

const t = useTestApp();
const running: { link: FirebaseLink; server: FirebaseServer }[] = [];
afterEach(async () => {
  for (const { link, server } of running.splice(0)) {
    await link.stop();
    await server.close();
  }
});

const quiet = { info: () => {}, warn: () => {} };

/** Keys of this test alone: the database is shared with the other tests of the run. */
function keys() {
  const run = randomUUID().slice(0, 8);
  const booked = pushIdTime(Date.now());
  return {
    driver: `drv-${run}`,
    customer: `cust-${run}`,
    // Push ids, as the customer app makes them: their first characters are the time of booking.
    trip: (n: number) => `${booked}link${run}${String(n).padStart(6, '0')}`,
  };
}

const booking = appBooking;

/** A time as the apps write dates: Dart's DateTime.toString() of Indian time. */
function istDate(ms: number): string {
  return new Date(ms + 330 * 60_000).toISOString().replace('T', ' ').replace('Z', '000');
}

const driverNode = (name: string): { [key: string]: FirebaseJson } => ({
  name,
  phoneNumber: '9876543210',
  email: '',
  amount: 450,
  car_details: { car_model: 'Nexon EV', vehicle_number: 'KA01AB1234', car_type: 'sedan' },
});

function link(server: FirebaseServer, events: LocationEvent[] = []) {
  const client = new FirebaseRestClient(resolveAddress(server.url), { kind: 'none' });
  const instance = new FirebaseLink(t.db, client, {
    logger: quiet,
    publish: async (event) => {
      events.push(event);
    },
  });
  running.push({ link: instance, server });
  instance.start();
  return instance;
}

const tripsOf = (firebaseKeys: string[]) =>
  t.db
    .select({ key: trips.firebaseKey, title: trips.title, driverId: trips.driverId })
    .from(trips)
    .where(inArray(trips.firebaseKey, firebaseKeys));

describe('the Firebase link', () => {
  it('brings in what the database holds, then each booking and change as the apps write them', async () => {
    const k = keys();
    const server = await startFirebaseServer({
      data: {
        driver: { [k.driver]: driverNode('Ravi Kumar') },
        customer: { [k.customer]: { name: 'Asha Rao', phoneNumber: '9123456789' } },
        trips: { [k.trip(1)]: booking(k.customer, 'Asha Rao') },
      },
    });
    link(server);
    expect(
      await readUntil(
        () => tripsOf([k.trip(1)]),
        (rows) => rows.length === 1,
      ),
    ).toHaveLength(1);

    // A new booking, as the customer app writes it.
    server.tree.set(`trips/${k.trip(2)}`, booking(k.customer, 'Meera Iyer'));
    const [added] = await readUntil(
      () => tripsOf([k.trip(2)]),
      (rows) => rows.length === 1,
    );
    expect(added).toMatchObject({ title: 'Meera Iyer', driverId: null });

    // A driver accepts: the driver app writes driver_info inside the trip.
    server.tree.set(`trips/${k.trip(2)}/driver_info`, {
      name: 'Ravi Kumar',
      vehicleNumber: 'KA01AB1234',
      phoneNumber: '9876543210',
      id: k.driver,
      applied: 'done',
    });
    const [driver] = await t.db
      .select({ id: drivers.id })
      .from(drivers)
      .where(eq(drivers.firebaseKey, k.driver));
    const [assigned] = await readUntil(
      () => tripsOf([k.trip(2)]),
      (rows) => rows[0]?.driverId === driver!.id,
    );
    expect(assigned!.driverId).toBe(driver!.id);

    // What staff see: the trip in the console's list.
    const admin = await createAccount(t.db, { role: 'admin' });
    const { token } = await issueToken(t.db, admin);
    const listed = await t.app.inject({ url: '/api/trips?q=Meera%20Iyer', headers: authHeader(token) });
    const listedTitles = Object.values(listed.json().data as Record<string, { title: string }>).map(
      (trip) => trip.title,
    );
    expect(listedTitles).toContain('Meera Iyer');
  });

  it('keeps a vehicle for the number the driver app reports, and a new one when it changes', async () => {
    const k = keys();
    // A series of three letters of this run's own, so that no other test reports the number.
    const series = k.driver
      .slice(4, 7)
      .replace(/\d/g, (digit) => 'GHIJKLMNOP'[Number(digit)]!)
      .toUpperCase();
    const number = (n: number) => `MH 12 ${series} ${n}`;
    const node = {
      ...driverNode('Imran Shaikh'),
      car_details: { car_model: 'Tiago EV', vehicle_number: number(4321) },
    };
    const server = await startFirebaseServer({ data: { driver: { [k.driver]: node } } });
    link(server);
    const driverRow = () => t.db.select().from(drivers).where(eq(drivers.firebaseKey, k.driver));
    const [driver] = await readUntil(driverRow, (rows) => rows.length === 1);
    const vehicleOf = () =>
      t.db
        .select({ number: vehicles.registrationNumber, model: vehicles.model })
        .from(vehicles)
        .where(eq(vehicles.driverId, driver!.id));
    expect(await readUntil(vehicleOf, (rows) => rows.length === 1)).toEqual([
      { number: number(4321).replace(/ /g, ''), model: 'Tiago EV' },
    ]);
    server.tree.set(`driver/${k.driver}/car_details/vehicle_number`, number(8765));
    const [now] = await readUntil(vehicleOf, (rows) => rows[0]?.number === number(8765).replace(/ /g, ''));
    expect(now).toMatchObject({ model: 'Tiago EV' });
  });

  it("stores a driver's new position and publishes it to the maps", async () => {
    const k = keys();
    const server = await startFirebaseServer({ data: { driver: { [k.driver]: driverNode('Sunil Patil') } } });
    const events: LocationEvent[] = [];
    link(server, events);
    const row = () => t.db.select().from(drivers).where(eq(drivers.firebaseKey, k.driver));
    const [driver] = await readUntil(row, (rows) => rows.length === 1);
    server.tree.set(`driver/${k.driver}/position`, { lat: 18.52, long: '73.85' });
    const [moved] = await readUntil(row, (rows) => rows[0]?.lat === 18.52);
    expect(moved).toMatchObject({ lat: 18.52, long: 73.85 });
    expect(events).toContainEqual(expect.objectContaining({ driverId: driver!.id, lat: 18.52, long: 73.85 }));
  });

  it('after a stop, applies every booking made meanwhile exactly once', async () => {
    const k = keys();
    const server = await startFirebaseServer({ data: { customer: { [k.customer]: { name: 'Asha Rao' } } } });
    const first = link(server);
    await readUntil(
      async () => first.status().applied.customers ?? 0,
      (applied) => applied >= 1,
    );
    await first.stop();
    const written = Array.from({ length: 100 }, (_, i) => k.trip(i));
    server.tree.update(
      'trips',
      Object.fromEntries(written.map((key, i) => [key, booking(k.customer, `Rider ${i}`)])),
    );
    link(server);
    const rows = await readUntil(
      () => tripsOf(written),
      (found) => found.length === 100,
    );
    expect(rows).toHaveLength(100);
    const [counted] = rowsOf(
      await t.db.execute(
        sql`select count(*)::int as n, count(distinct firebase_key)::int as keys from trips where firebase_key like ${`${k.trip(0).slice(0, -6)}%`}`,
      ),
    );
    expect(counted).toEqual({ n: 100, keys: 100 });
  });

  it('applies a burst of bookings and changes in the order the apps wrote them', async () => {
    const k = keys();
    const server = await startFirebaseServer({ data: { customer: { [k.customer]: { name: 'Asha Rao' } } } });
    const follower = link(server);
    await readUntil(
      async () => follower.status().applied.customers ?? 0,
      (applied) => applied >= 1,
    );
    // 200 bookings written one by one, faster than one transaction each could follow.
    const written = Array.from({ length: 200 }, (_, i) => k.trip(i));
    written.forEach((key, i) => server.tree.set(`trips/${key}`, booking(k.customer, `Rider ${i}`)));
    // One trip put whole, changed inside, then put whole again: the last write wins.
    server.tree.set(`trips/${written[0]}/title`, 'Changed Inside');
    server.tree.set(`trips/${written[0]}`, booking(k.customer, 'Put Again'));
    // Another put whole, then changed inside: the change is read with the record.
    server.tree.set(`trips/${written[1]}/title`, 'Renamed Last');
    const rows = await readUntil(
      () => tripsOf(written),
      (found) => found.length === 200 && found.some((trip) => trip.title === 'Renamed Last'),
    );
    expect(rows).toHaveLength(200);
    const titles = new Map(rows.map((row) => [row.key, row.title]));
    expect(titles.get(written[0]!)).toBe('Put Again');
    expect(titles.get(written[1]!)).toBe('Renamed Last');
    expect(titles.get(written[199]!)).toBe('Rider 199');
  });

  it('on a reconnect reads trips again from the oldest under way, and ends those removed meanwhile', async () => {
    const k = keys();
    const now = Date.now();
    // Booked three days ago and finished; booked an hour ago, under way; booked now, waiting.
    const old = `${pushIdTime(now - 3 * 86_400_000)}old${k.trip(0).slice(8)}`;
    const finishedLongAgo = {
      ...booking(k.customer, 'Finished Long Ago'),
      date: istDate(now - 3 * 86_400_000),
      isFinished: true,
    };
    // The console has it already, from the import.
    await applyRecords(t.db, 'trips', [{ key: old, value: finishedLongAgo }], { live: false });
    const server = await startFirebaseServer({
      data: {
        customer: { [k.customer]: { name: 'Asha Rao' } },
        trips: {
          [old]: finishedLongAgo,
          [k.trip(1)]: {
            ...booking(k.customer, 'Under Way'),
            date: istDate(now - 3_600_000),
            tripStarted: true,
          },
          [k.trip(2)]: { ...booking(k.customer, 'Waiting'), date: istDate(now) },
        },
      },
    });
    const first = link(server);
    expect(
      await readUntil(
        () => tripsOf([old, k.trip(1), k.trip(2)]),
        (rows) => rows.length === 3,
      ),
    ).toHaveLength(3);
    await first.stop();

    // While the console is away: one trip ends, one is withdrawn, one is booked.
    server.tree.set(`trips/${k.trip(1)}/isFinished`, true);
    server.tree.set(`trips/${k.trip(2)}`, null);
    server.tree.set(`trips/${k.trip(3)}`, { ...booking(k.customer, 'Booked Meanwhile'), date: istDate(now) });
    const streamsBefore = server.requests.length;
    link(server);
    const statusOf = async (key: string) =>
      (await t.db.select().from(trips).where(eq(trips.firebaseKey, key)))[0];
    const [finished, withdrawn, booked] = await readUntil(
      async () => [await statusOf(k.trip(1)), await statusOf(k.trip(2)), await statusOf(k.trip(3))],
      ([finished, withdrawn, booked]) =>
        finished?.status === 'completed' && withdrawn?.firebaseRemovedAt != null && booked !== undefined,
    );
    expect(finished?.status).toBe('completed');
    expect(withdrawn?.firebaseRemovedAt).not.toBeNull();
    expect(booked?.title).toBe('Booked Meanwhile');
    // Only the window was asked for: from a key at or before the oldest trip under way, after the
    // trip finished days ago.
    const stream = server.requests
      .slice(streamsBefore)
      .find((request) => request.path.endsWith('/trips.json') && request.query.orderBy !== undefined);
    expect(stream?.query.orderBy).toBe('"$key"');
    const startAt = JSON.parse(stream!.query.startAt!) as string;
    expect(startAt <= k.trip(1)).toBe(true);
    expect(startAt > old).toBe(true);
    expect((await statusOf(old))?.firebaseRemovedAt).toBeNull();
  });

  it('follows every trip when the server streams no range of keys', async () => {
    const k = keys();
    const server = await startFirebaseServer({
      noRangeStreams: true,
      data: { trips: { [k.trip(1)]: booking(k.customer, 'Asha Rao') } },
    });
    const first = link(server);
    await readUntil(
      () => tripsOf([k.trip(1)]),
      (rows) => rows.length === 1,
    );
    await first.stop();
    const instance = link(server);
    server.tree.set(`trips/${k.trip(2)}`, booking(k.customer, 'Whole Stream'));
    expect(
      await readUntil(
        () => tripsOf([k.trip(2)]),
        (rows) => rows.length === 1,
      ),
    ).toHaveLength(1);
    expect(instance.status().lastErrors[0]?.message).toMatch(/400/);
  });

  it('reconnects when the server cancels the stream, and catches up', async () => {
    const k = keys();
    const server = await startFirebaseServer({ data: { customer: { [k.customer]: { name: 'Asha Rao' } } } });
    const instance = link(server);
    await readUntil(
      async () => instance.status().applied.customers ?? 0,
      (applied) => applied >= 1,
    );
    server.cancelStreams(undefined, 'Permission denied.');
    server.tree.set(`trips/${k.trip(7)}`, booking(k.customer, 'After the cancel'));
    expect(
      await readUntil(
        () => tripsOf([k.trip(7)]),
        (rows) => rows.length === 1,
      ),
    ).toHaveLength(1);
    expect(instance.status().reconnects).toBeGreaterThanOrEqual(1);
    expect(instance.status().lastErrors[0]?.message).toMatch(/cancel/);
  });

  it('brings in a node too large to hold in one piece, a batch at a time', async () => {
    const k = keys();
    const many = Array.from({ length: 2500 }, (_, i) => k.trip(i));
    const server = await startFirebaseServer({
      data: {
        customer: { [k.customer]: { name: 'Asha Rao' } },
        trips: Object.fromEntries(
          many.map((key, i) => [
            key,
            { ...(booking(k.customer, `Rider ${i}`) as object), body: 'p'.repeat(600) },
          ]),
        ),
      },
    });
    const instance = link(server);
    const rows = await readUntil(
      () => tripsOf(many),
      (found) => found.length === many.length,
      60_000,
    );
    expect(rows).toHaveLength(2500);
    expect(instance.status().applied.trips).toBeGreaterThanOrEqual(2500);
  }, 90_000);

  it('says what it brought in once every section has caught up, with the import’s report', async () => {
    const k = keys();
    const server = await startFirebaseServer({
      data: {
        customer: { [k.customer]: { name: 'Asha Rao' }, [`${k.customer}-damaged`]: 'not a customer' },
        trips: { [k.trip(1)]: booking(k.customer, 'Asha Rao') },
      },
    });
    const said: string[] = [];
    const client = new FirebaseRestClient(resolveAddress(server.url), { kind: 'none' });
    const instance = new FirebaseLink(t.db, client, {
      logger: { info: (_object, message) => said.push(message), warn: () => {} },
    });
    running.push({ link: instance, server });
    instance.start();
    const report = await readUntil(
      async () => said.find((message) => message.includes('caught up')),
      (message) => message !== undefined,
    );
    expect(report).toMatch(/^Trips\s+1\s+0\s+0\s+0$/m);
    expect(report).toMatch(/^Customers\s+1\s+0\s+0\s+1$/m);
    expect(report).toMatch(/Skipped \(1\):\n.*damaged.*not a customer record/);
  });

  it('is followed by one instance at a time', async () => {
    const server = await startFirebaseServer({ data: {} });
    const one = link(server);
    await readUntil(async () => one.status().following, Boolean);
    const other = link(server);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect([one.status().following, other.status().following]).toEqual([true, false]);
  });

  it('attributes each change to Firebase with before and after, and ends records removed there', async () => {
    const k = keys();
    const server = await startFirebaseServer({
      data: {
        driver: { [k.driver]: driverNode('Imran Shaikh') },
        customer: { [k.customer]: { name: 'Asha Rao', phoneNumber: '9123456789' } },
        trips: { [k.trip(1)]: booking(k.customer, 'Asha Rao') },
      },
    });
    link(server);
    const [first] = await readUntil(
      () =>
        t.db
          .select({ id: trips.id })
          .from(trips)
          .where(eq(trips.firebaseKey, k.trip(1))),
      (rows) => rows.length === 1,
    );
    const auditOf = (id: string) =>
      t.db
        .select({
          action: auditLog.action,
          source: auditLog.source,
          before: auditLog.before,
          after: auditLog.after,
        })
        .from(auditLog)
        .where(eq(auditLog.resourceId, id))
        .orderBy(auditLog.id);
    // Brought in by the first sync, as an import would: not a change anyone made.
    expect(await auditOf(first!.id)).toEqual([]);

    // A booking made now is audited as created by Firebase; its cancellation as a change.
    server.tree.set(`trips/${k.trip(2)}`, booking(k.customer, 'Live Booking'));
    const [second] = await readUntil(
      () =>
        t.db
          .select({ id: trips.id })
          .from(trips)
          .where(eq(trips.firebaseKey, k.trip(2))),
      (rows) => rows.length === 1,
    );
    server.tree.set(`trips/${k.trip(2)}/cancel_trip`, { reason: 'Driver did not come' });
    const audit = await readUntil(
      () => auditOf(second!.id),
      (rows) => rows.length === 2,
    );
    expect(audit[0]).toMatchObject({ action: 'create', source: 'firebase', before: null });
    expect(audit[0]!.after).toMatchObject({ title: 'Live Booking' });
    expect(audit[1]).toMatchObject({
      action: 'update',
      source: 'firebase',
      before: expect.objectContaining({ cancel_reason: null }),
      after: expect.objectContaining({ cancel_reason: 'Driver did not come' }),
    });

    // Removed in Firebase: the trip stays (it is history), marked; the driver is ended softly.
    server.tree.set(`trips/${k.trip(1)}`, null);
    server.tree.set(`driver/${k.driver}`, null);
    const [kept] = await readUntil(
      () =>
        t.db
          .select()
          .from(trips)
          .where(eq(trips.firebaseKey, k.trip(1))),
      (rows) => rows[0]?.firebaseRemovedAt != null,
    );
    expect(kept!.firebaseRemovedAt).not.toBeNull();
    expect(await auditOf(first!.id)).toEqual([
      { action: 'delete', source: 'firebase', before: null, after: { removedInFirebase: true } },
    ]);
    const [ended] = await readUntil(
      () => t.db.select().from(drivers).where(eq(drivers.firebaseKey, k.driver)),
      (rows) => rows[0]?.deletedAt != null,
    );
    expect(ended!.deletedAt).not.toBeNull();
    // A customer's change too, with only the fields that changed.
    server.tree.set(`customer/${k.customer}/name`, 'Asha R.');
    const [customer] = await readUntil(
      () => t.db.select().from(customers).where(eq(customers.firebaseKey, k.customer)),
      (rows) => rows[0]?.name === 'Asha R.',
    );
    expect(await auditOf(customer!.id)).toEqual([
      { action: 'update', source: 'firebase', before: { name: 'Asha Rao' }, after: { name: 'Asha R.' } },
    ]);
  });
});

describe('the Firebase link through faults', () => {
  async function following() {
    const k = keys();
    const server = await startFirebaseServer({ data: { customer: { [k.customer]: { name: 'Asha Rao' } } } });
    const instance = link(server);
    await readUntil(
      async () => instance.status().applied.customers ?? 0,
      (applied) => applied >= 1,
    );
    const caughtUp = async (n: number, title: string) => {
      server.tree.set(`trips/${k.trip(n)}`, booking(k.customer, title));
      return readUntil(
        () => tripsOf([k.trip(n)]),
        (rows) => rows.length === 1,
        20_000,
      );
    };
    return { server, instance, caughtUp };
  }

  it('reconnects after a stream cut in the middle of an event, through 307s and 401s', async () => {
    const { server, instance, caughtUp } = await following();
    // Cut mid-event; every stream is then sent to another host name of the server (307).
    server.redirectNext(FOLLOWED_SECTIONS.length);
    server.dropStreams();
    expect(await caughtUp(11, 'After the cut')).toMatchObject([{ title: 'After the cut' }]);
    expect(server.requests.some((request) => request.headers.host?.startsWith('localhost'))).toBe(true);
    // Cut again, and refused twice: it backs off, tries again, and catches up.
    server.failNext(401, { error: 'Unauthorized request.' }, 2);
    server.dropStreams();
    expect(await caughtUp(12, 'After the refusals')).toMatchObject([{ title: 'After the refusals' }]);
    const status = instance.status();
    expect(status.reconnects).toBeGreaterThanOrEqual(3);
    const errors = status.lastErrors.map((error) => error.message).join('\n');
    expect(errors).toMatch(/Firebase answered 401: Unauthorized request/);
    expect(errors).toMatch(/the connection to Firebase was cut/);
  });

  it('waits out a server that stops answering, while the console keeps serving', async () => {
    const { server, caughtUp } = await following();
    server.pause();
    const admin = await createAccount(t.db, { role: 'admin' });
    const { token } = await issueToken(t.db, admin);
    const answered = await t.app.inject({ url: '/api/trips', headers: authHeader(token) });
    expect(answered.statusCode).toBe(200);
    setTimeout(() => server.resume(), 1000);
    expect(await caughtUp(13, 'After the silence')).toMatchObject([{ title: 'After the silence' }]);
  });

  it('skips, counts and shows an event it cannot read, and goes on', async () => {
    const { server, instance, caughtUp } = await following();
    const before = instance.status().skipped;
    // A damaged trip (not a record) in the apps' tree: skipped, never stopping the link.
    server.tree.set(`trips/${pushIdTime(Date.now())}damagedTrip`, 'not a trip');
    expect(await caughtUp(14, 'After the damage')).toMatchObject([{ title: 'After the damage' }]);
    expect(instance.status().skipped).toBeGreaterThan(before);
  });
});
