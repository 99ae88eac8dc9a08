/**
 * The Firebase link at the apps' peak, against a server that speaks Firebase's REST protocol (the
 * tests' stand-in, apps/api/test/firebase-server.ts, in this process) and the real console server:
 *
 * 1. Live: 10,000 drivers moving (2,000 position writes a second) and 50 new trips a second, each
 *    then assigned, started and finished, for a minute, while staff read the trip list. Prints the
 *    time from a write in Firebase to the record visible through the console's API (a trip in the
 *    trip list, a position on the fleet map's stream), what never arrived, and the list's p99.
 * 2. First sync: a console started on a Firebase database of N trips brings them in, with the
 *    indexes it leaves out during the sync built (BENCH_DATABASE_URL is emptied first, as a new
 *    console's database is). Prints trips a second, CPU per trip and the console's peak memory,
 *    at N and at N/4 (memory that does not grow with the database stays about the same).
 *
 *   npm run bench:firebase-link                    the embedded database (a fresh one per part)
 *   BENCH_DATABASE_URL=postgres://.../bench npm run bench:firebase-link
 *   BENCH_FL_DRIVERS=10000 BENCH_FL_POSITIONS=2000 BENCH_FL_TRIPS=50 BENCH_FL_SECONDS=60
 *   BENCH_FL_PARTS=sync                             only the first syncs (or live)
 *   BENCH_FL_SYNC_TRIPS=100000                      trips of the first sync (a stream's first
 *                                                   event is one string in the stand-in: keep it
 *                                                   under about 400,000)
 *
 * Writes bench/results/firebase-link-<database>.json and latest.json. It fails on nothing.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../src/db/client';
import { dartTime } from '../src/infra/firebase-outbox';
import { createAccount } from '../src/seed/factories';
import {
  pushIdTime,
  startFirebaseServer,
  type FirebaseJson,
  type FirebaseServer,
} from '../test/firebase-server';
import { appBooking } from '../test/app-booking';
import { emptyDatabase, headersOf, JWT_SECRET } from './bench-data';
import { readCpu } from './cpu-time';
import { startServer } from './bench-server';
import { writeResults } from './results';
import { readServerSentEvents } from './server-sent-events';

const DRIVERS = Number(process.env.BENCH_FL_DRIVERS ?? 10_000);
const POSITIONS = Number(process.env.BENCH_FL_POSITIONS ?? 2_000);
const TRIPS = Number(process.env.BENCH_FL_TRIPS ?? 50);
const SECONDS = Number(process.env.BENCH_FL_SECONDS ?? 60);
const SYNC_TRIPS = Number(process.env.BENCH_FL_SYNC_TRIPS ?? 100_000);
const DATABASE_URL = process.env.BENCH_DATABASE_URL;
const PARTS = (process.env.BENCH_FL_PARTS ?? 'live,sync').split(',');
const TICK_MS = 10;
const RUN = randomUUID().slice(0, 6);

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0
    ? null
    : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A console server following `firebase`, on a fresh embedded database (or BENCH_DATABASE_URL). */
async function startConsole(firebase: FirebaseServer) {
  const dataDir = join(tmpdir(), `bmet-bench-firebase-link-${randomUUID()}`);
  const database = await openDatabase(
    DATABASE_URL ? { databaseUrl: DATABASE_URL, dataDir: 'memory://' } : { dataDir },
  );
  const admin = await createAccount(database.db, {
    role: 'admin',
    email: `bench-link-${randomUUID()}@example.in`,
  });
  const headers = await headersOf(database.db, admin, 3);
  await database.close();
  const server = await startServer({
    url: DATABASE_URL,
    env: { DATA_DIR: dataDir, JWT_SECRET, FIREBASE_DATABASE_URL: firebase.url },
  });
  const get = async <T>(path: string): Promise<T> => {
    const response = await fetch(`${server.baseUrl}${path}`, { headers });
    return ((await response.json()) as { data: T }).data;
  };
  return { server, headers, get };
}

type Console = Awaited<ReturnType<typeof startConsole>>;
type LinkStatus = { following: boolean; applied: Record<string, number>; buildingIndexes: boolean };

async function untilApplied(console: Console, kind: string, count: number, timeoutS: number) {
  const end = Date.now() + timeoutS * 1000;
  for (;;) {
    const status = await console.get<LinkStatus | null>('/api/firebase-link').catch(() => null);
    // Done once the records are in and the indexes a first sync left out are built.
    if ((status?.applied[kind] ?? 0) >= count && !status?.buildingIndexes) return true;
    if (Date.now() > end) return false;
    await sleep(250);
  }
}

/** The resident memory of a process, in MB, from /proc. */
function residentMb(pid: number): number {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/);
    return line ? Math.round(Number(line[1]) / 1024) : 0;
  } catch {
    return 0;
  }
}

/** A booking made now, as the customer app writes it. */
const booking = (customer: string, title: string) =>
  appBooking(customer, title, { date: dartTime(new Date()).replace(/000$/, '') });

async function live() {
  const drivers = Array.from({ length: DRIVERS }, (_, i) => `fl${RUN}d${i}`);
  const customers = Array.from({ length: 1000 }, (_, i) => `fl${RUN}c${i}`);
  // The apps' peak on a console that follows them from its first day (on PostgreSQL, an empty
  // database: a first sync's million trips from an earlier run would be measured instead).
  if (DATABASE_URL) await emptyDatabase(DATABASE_URL);
  const firebase = await startFirebaseServer({
    data: {
      driver: Object.fromEntries(
        drivers.map((uid, i) => [
          uid,
          {
            name: `Bench Driver ${i}`,
            phoneNumber: `98${String(i).padStart(8, '0')}`,
            car_details: { car_model: 'Nexon EV', vehicle_number: `KA01FL${i}`, car_type: 'sedan' },
            position: { lat: 12.9, long: 77.5 },
          },
        ]),
      ),
      customer: Object.fromEntries(customers.map((uid, i) => [uid, { name: `Bench Customer ${i}` }])),
    },
  });
  const console_ = await startConsole(firebase);
  const started = performance.now();
  const synced = await untilApplied(console_, 'drivers', DRIVERS, 300);
  console.log(
    `Live: ${DRIVERS} drivers followed in ${((performance.now() - started) / 1000).toFixed(1)} s${synced ? '' : ' (not all)'}`,
  );

  // The fleet map tab's stream: each car's new position, as the map receives it.
  const positionSeen = new Map<string, number>();
  const fleet = new AbortController();
  void (async () => {
    const response = await fetch(`${console_.server.baseUrl}/api/sos/stream?fleet=true`, {
      headers: console_.headers,
      signal: fleet.signal,
    });
    await readServerSentEvents(response, (event, data) => {
      if (event !== 'positions') return;
      for (const car of JSON.parse(data) as { lat: number; long: number }[]) {
        const key = `${car.lat},${car.long}`;
        if (!positionSeen.has(key)) positionSeen.set(key, performance.now());
      }
    });
  })().catch(() => undefined);
  await sleep(1000);

  // The apps' writes, and when each was made.
  const positionWritten = new Map<string, number>();
  const tripsWritten = new Map<string, number>();
  const lastPosition = new Map<string, string>();
  let stopAt = Infinity;

  // Staff reading the trip list meanwhile, and a watcher of the new trips.
  const tripSeen = new Map<string, number>();
  const listTimes: number[] = [];
  let running = true;
  const readers = Array.from({ length: 4 }, async () => {
    while (running) {
      const at = performance.now();
      await fetch(`${console_.server.baseUrl}/api/trips?limit=50`, { headers: console_.headers }).then((r) =>
        r.arrayBuffer(),
      );
      listTimes.push(performance.now() - at);
    }
  });
  const watcher = (async () => {
    while (running || tripSeen.size < tripsWritten.size) {
      const page = await console_
        .get<Record<string, { title: string }>>(`/api/trips?q=Bench${RUN}&limit=200`)
        .catch(() => ({}));
      const now = performance.now();
      for (const trip of Object.values(page ?? {}))
        if (!tripSeen.has(trip.title)) tripSeen.set(trip.title, now);
      if (!running && performance.now() - stopAt > 15_000) return;
      await sleep(100);
    }
  })();

  let sequence = 0;
  // Writes owed since the start, at the set rates: a tick that comes late (this process shares the
  // machine with the console and PostgreSQL) makes up for the writes it missed, so the rates hold
  // as the apps' would, in larger groups.
  let positionDebt = 0;
  let tripDebt = 0;
  let last = performance.now();
  let tripNumber = 0;
  const updates: { at: number; key: string; path: string; value: FirebaseJson }[] = [];
  const until = performance.now() + SECONDS * 1000;
  while (performance.now() < until) {
    const now = performance.now();
    positionDebt += (POSITIONS * (now - last)) / 1000;
    tripDebt += (TRIPS * (now - last)) / 1000;
    last = now;
    for (; positionDebt >= 1; positionDebt--) {
      sequence++;
      const uid = drivers[sequence % drivers.length]!;
      const lat = 12 + sequence / 1e6;
      const long = 77 + (sequence % 1000) / 1e4;
      firebase.tree.set(`driver/${uid}/position`, { lat, long });
      positionWritten.set(`${lat},${long}`, performance.now());
      lastPosition.set(uid, `${lat},${long}`);
    }
    while (tripDebt >= 1) {
      tripDebt -= 1;
      const key = firebase.pushId();
      const title = `Bench${RUN} Rider ${tripNumber++}`;
      firebase.tree.set(`trips/${key}`, booking(customers[tripNumber % customers.length]!, title));
      tripsWritten.set(title, performance.now());
      const driver = drivers[tripNumber % drivers.length]!;
      updates.push(
        {
          at: now + 2000,
          key,
          path: 'driver_info',
          value: { name: 'Bench Driver', id: driver, applied: 'done', otp: '1234' },
        },
        { at: now + 4000, key, path: 'tripStarted', value: true },
        { at: now + 6000, key, path: 'isFinished', value: true },
      );
    }
    while (updates.length > 0 && updates[0]!.at <= now) {
      const update = updates.shift()!;
      firebase.tree.set(`trips/${update.key}/${update.path}`, update.value);
    }
    await sleep(TICK_MS);
  }
  stopAt = performance.now();
  running = false;
  await Promise.all(readers);
  await watcher;
  await sleep(3000);
  fleet.abort();

  const tripLatency = [...tripsWritten].flatMap(([title, at]) => {
    const seen = tripSeen.get(title);
    return seen === undefined ? [] : [seen - at];
  });
  const positionLatency = [...positionWritten].flatMap(([key, at]) => {
    const seen = positionSeen.get(key);
    return seen === undefined ? [] : [seen - at];
  });
  // A position replaced before the map's next flush is not lost: the car's last one must arrive.
  const fleetNow = await console_
    .get<{ id: string; lat: number; long: number }[]>('/api/fleet')
    .catch(() => []);
  const onMap = new Set((Array.isArray(fleetNow) ? fleetNow : []).map((car) => `${car.lat},${car.long}`));
  const lastLost = [...lastPosition.values()].filter((key) => !onMap.has(key)).length;
  const status = await console_.get<Record<string, unknown>>('/api/firebase-link');
  await console_.server.stop();
  await firebase.close();
  const ms = (value: number | null) => (value === null ? null : Math.round(value));
  return {
    seconds: SECONDS,
    drivers: DRIVERS,
    positionWritesPerSecond: Math.round(positionWritten.size / SECONDS),
    tripsPerSecond: Math.round(tripsWritten.size / SECONDS),
    trips: {
      written: tripsWritten.size,
      seenInTheList: tripSeen.size,
      p50Ms: ms(percentile(tripLatency, 50)),
      p99Ms: ms(percentile(tripLatency, 99)),
    },
    positions: {
      written: positionWritten.size,
      seenOnTheFleetStream: positionLatency.length,
      p50Ms: ms(percentile(positionLatency, 50)),
      p99Ms: ms(percentile(positionLatency, 99)),
      driversWhoseLastPositionIsNotOnTheMap: lastLost,
    },
    tripList: {
      requests: listTimes.length,
      p50Ms: ms(percentile(listTimes, 50)),
      p99Ms: ms(percentile(listTimes, 99)),
    },
    serverErrors: console_.server.errors(),
    serverErrorLines: console_.server.errorLines(),
    link: status,
  };
}

async function firstSync(count: number) {
  const customers = Array.from({ length: 1000 }, (_, i) => `fs${RUN}c${i}`);
  const trips: Record<string, FirebaseJson> = {};
  for (let i = 0; i < count; i++) {
    // Keys as the customer app makes them (push ids begin with the time of booking).
    trips[`${pushIdTime(Date.now())}fs${RUN}${String(i).padStart(9, '0')}`] = booking(
      customers[i % customers.length]!,
      `Sync${RUN} Rider ${i}`,
    );
  }
  const firebase = await startFirebaseServer({
    data: {
      customer: Object.fromEntries(customers.map((uid, i) => [uid, { name: `Sync Customer ${i}` }])),
      trips,
    },
  });
  const eventMb = Math.round(JSON.stringify(trips).length / 1e6);
  // A first sync is a console's first start: on PostgreSQL, an empty database.
  if (DATABASE_URL) await emptyDatabase(DATABASE_URL);
  const console_ = await startConsole(firebase);
  const before = residentMb(console_.server.pid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, residentMb(console_.server.pid))), 200);
  const cpuBefore = readCpu(console_.server.pid, Boolean(DATABASE_URL));
  const standInBefore = process.cpuUsage();
  const started = performance.now();
  const done = await untilApplied(console_, 'trips', count, 1200);
  const seconds = (performance.now() - started) / 1000;
  const cpuAfter = readCpu(console_.server.pid, Boolean(DATABASE_URL));
  const perTrip = (before?: number | null, after?: number | null) =>
    before == null || after == null ? null : Math.round(((after - before) * 1e6) / count);
  const standIn = process.cpuUsage(standInBefore);
  clearInterval(sampler);
  await console_.server.stop();
  await firebase.close();
  return {
    trips: count,
    complete: done,
    firstEventMb: eventMb,
    seconds: Number(seconds.toFixed(1)),
    tripsPerSecond: Math.round(count / seconds),
    consoleMemoryMb: { atStart: before, peak },
    // CPU per trip, in microseconds: the console, PostgreSQL, and this process (the stand-in
    // serving the tree; in production Firebase's own).
    cpuPerTripUs: {
      console: perTrip(cpuBefore?.server, cpuAfter?.server),
      database: perTrip(cpuBefore?.database, cpuAfter?.database),
      standIn: Math.round((standIn.user + standIn.system) / count),
    },
  };
}

const figures: Record<string, unknown> = { database: DATABASE_URL ? 'postgres' : 'pglite' };
console.log(
  `Firebase link, ${figures.database}: live ${SECONDS} s, then first syncs of ${SYNC_TRIPS / 4} and ${SYNC_TRIPS} trips`,
);
if (PARTS.includes('live')) {
  figures.live = await live();
  console.log(JSON.stringify(figures.live, null, 2));
}
if (PARTS.includes('sync')) {
  figures.firstSync = [await firstSync(Math.round(SYNC_TRIPS / 4)), await firstSync(SYNC_TRIPS)];
  console.log(JSON.stringify(figures.firstSync, null, 2));
}
writeResults(`firebase-link-${String(figures.database)}`, figures);
process.exit(0);
