import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { killServerProcesses, startServerProcess, type ServerProcess } from '../test/server-process';
import { againstPostgres } from '../test/test-database';

/**
 * Acknowledged writes survive a crash: a real server process under write load (trip feedback, rate
 * saves, driver positions, account creation) is killed with SIGKILL while requests are in flight,
 * started again on the same data, and every write it answered as done must be there. On the
 * embedded database always; on PostgreSQL too when TEST_DATABASE_URL is set.
 */

const PASSWORD = 'crash-test-password-2026';
const LOAD_MS = 2_500;

type Server = ServerProcess;
const cleanups: (() => Promise<void> | void)[] = [];

afterAll(async () => {
  killServerProcesses();
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** A server with the demo data, a known secret and no rate limit in the way of the load. */
function startServer(env: Record<string, string>): Promise<Server> {
  return startServerProcess({
    DEMO_DATA: 'true',
    DEMO_PASSWORD: PASSWORD,
    JWT_SECRET: 'crash-test-secret-crash-test-secret-0123',
    RATE_LIMIT_PER_MINUTE: '100000',
    ...env,
  });
}

type Client = (method: string, path: string, body?: unknown, token?: string) => Promise<Response>;

function clientOf(baseUrl: string, bearer?: string): Client {
  return (method, path, body, token = bearer) =>
    fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
}

async function signIn(baseUrl: string, email: string, role: string): Promise<string> {
  const response = await clientOf(baseUrl)('POST', '/api/auth/sign-in', { email, password: PASSWORD, role });
  expect(response.status, await response.clone().text()).toBe(200);
  return ((await response.json()) as { data: { idToken: string } }).data.idToken;
}

async function json<T>(response: Response): Promise<T> {
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as T;
}

type RateSet = Record<string, number | null> & { version: number };
type Acknowledged = {
  feedback: { tripId: string; marker: string }[];
  rates: { basePrice: number; version: number }[];
  positions: Map<string, { lat: number; at: string }>;
  dealers: string[];
};

/**
 * Sends writes of every kind without pause until `stop`, and records the ones answered as done.
 * Requests that fail because the server died are not acknowledged, and may or may not have landed.
 */
async function writeLoad(api: Client, setup: Setup, stop: Promise<void>): Promise<Acknowledged> {
  const acknowledged: Acknowledged = { feedback: [], rates: [], positions: new Map(), dealers: [] };
  let stopped = false;
  void stop.then(() => (stopped = true));
  const loop = async (step: () => Promise<void>) => {
    while (!stopped) await step().catch(() => new Promise((resolve) => setTimeout(resolve, 20)));
  };

  let feedbackCount = 0;
  const feedback = async () => {
    const tripId = setup.tripIds[feedbackCount++ % setup.tripIds.length]!;
    const marker = `crash-${randomUUID()}`;
    const response = await api('POST', `/api/trips/${tripId}/feedback`, { feedback: marker, rating: 4 });
    if (response.status === 201 || response.status === 200) acknowledged.feedback.push({ tripId, marker });
  };

  let rates = setup.sedan;
  const rateSave = async () => {
    const basePrice = (rates.basePrice ?? 0) + 1;
    const { version, ...values } = rates;
    const response = await api('PUT', '/api/admin/updateRates/kerala', {
      sedan: { ...values, basePrice, version },
    });
    if (response.status !== 200) return;
    const saved = ((await response.json()) as { data: Record<string, RateSet> }).data.sedan!;
    acknowledged.rates.push({ basePrice: saved.basePrice!, version: saved.version });
    rates = saved;
  };

  const positions = setup.devices.map(({ driverId, token }, index) => {
    let lat = 18 + index * 0.01;
    return async () => {
      lat += 0.0001;
      const at = new Date().toISOString();
      const response = await api(
        'POST',
        '/api/driver-app/location',
        { lat, long: 73, recordedAt: at },
        token,
      );
      if (response.status === 204) acknowledged.positions.set(driverId, { lat, at });
      // The driver app's own limit is 2 reports a second per phone.
      await new Promise((resolve) => setTimeout(resolve, 550));
    };
  });

  const dealer = async () => {
    const email = `crash.${randomUUID().slice(0, 8)}@bookmyetaxi.test`;
    const response = await api('POST', '/api/city_dealer/create', {
      name: 'Crash Test Dealer',
      email,
      password: PASSWORD,
      state: 'goa',
    });
    if (response.status === 201 || response.status === 200) acknowledged.dealers.push(email);
  };

  await Promise.all([
    loop(feedback),
    loop(feedback),
    loop(rateSave),
    ...positions.map((position) => loop(position)),
    loop(dealer),
  ]);
  return acknowledged;
}

type Setup = { tripIds: string[]; sedan: RateSet; devices: { driverId: string; token: string }[] };

async function prepare(api: Client): Promise<Setup> {
  const trips = await json<{ data: Record<string, unknown> }>(await api('GET', '/api/trips?limit=40'));
  const rates = await json<{ data: Record<string, Record<string, RateSet>> }>(
    await api('GET', '/api/admin/getAllRates'),
  );
  const drivers = await json<{ data: Record<string, unknown> }>(await api('GET', '/api/drivers?limit=3'));
  const devices = [];
  for (const driverId of Object.keys(drivers.data)) {
    const response = await api('POST', `/api/drivers/driver/${driverId}/device-tokens`, {
      label: 'Crash test',
    });
    expect(response.status).toBe(201);
    devices.push({ driverId, token: ((await response.json()) as { data: { token: string } }).data.token });
  }
  return { tripIds: Object.keys(trips.data), sedan: rates.data.kerala!.sedan!, devices };
}

async function expectAllPresent(api: Client, acknowledged: Acknowledged): Promise<void> {
  const byTrip = new Map<string, Set<string>>();
  for (const tripId of new Set(acknowledged.feedback.map((entry) => entry.tripId))) {
    const trip = await json<{ data: { feedback: { feedback: string }[] } }>(
      await api('GET', `/api/trips/${tripId}`),
    );
    byTrip.set(tripId, new Set(trip.data.feedback.map((entry) => entry.feedback)));
  }
  const lostFeedback = acknowledged.feedback.filter((entry) => !byTrip.get(entry.tripId)!.has(entry.marker));
  expect(lostFeedback).toEqual([]);

  // The last save answered may be followed by one more that committed as the process died.
  const lastRates = acknowledged.rates.at(-1)!;
  const rates = await json<{ data: { kerala: { sedan: RateSet } } }>(
    await api('GET', '/api/admin/getAllRates'),
  );
  const stored = rates.data.kerala.sedan;
  expect([lastRates.version, lastRates.version + 1]).toContain(stored.version);
  expect(stored.basePrice).toBe(lastRates.basePrice + (stored.version - lastRates.version));

  for (const [driverId, last] of acknowledged.positions) {
    const location = await json<{ data: { positionAt: string | null } }>(
      await api('GET', `/api/drivers/location/${driverId}`),
    );
    expect(new Date(location.data.positionAt!).getTime()).toBeGreaterThanOrEqual(new Date(last.at).getTime());
  }

  for (const email of acknowledged.dealers) {
    const list = await json<{ data: Record<string, { email: string }> }>(
      await api('POST', '/api/city_dealer/getcitydealers', { q: email }),
    );
    expect(Object.values(list.data).map((dealer) => dealer.email)).toContain(email);
  }
}

async function crashAndCheck(env: Record<string, string>): Promise<void> {
  const first = await startServer(env);
  const api = clientOf(first.baseUrl, await signIn(first.baseUrl, 'admin@bookmyetaxi.test', 'admin'));
  const setup = await prepare(api);

  let kill!: () => void;
  const killed = new Promise<void>((resolve) => (kill = resolve));
  const load = writeLoad(api, setup, killed);
  // Killed at a moment of its own, with writes of every kind in flight.
  await new Promise((resolve) => setTimeout(resolve, LOAD_MS + Math.random() * 1_000));
  first.child.kill('SIGKILL');
  await first.exited;
  kill();
  const acknowledged = await load;

  expect(acknowledged.feedback.length).toBeGreaterThan(10);
  expect(acknowledged.rates.length).toBeGreaterThan(2);
  expect(acknowledged.positions.size).toBe(setup.devices.length);
  expect(acknowledged.dealers.length).toBeGreaterThan(0);

  const second = await startServer(env);
  const after = clientOf(second.baseUrl, await signIn(second.baseUrl, 'admin@bookmyetaxi.test', 'admin'));
  await expectAllPresent(after, acknowledged);
  // A dealer created just before the crash can sign in with its password.
  expect(await signIn(second.baseUrl, acknowledged.dealers.at(-1)!, 'city_dealer')).toBeTruthy();
  second.child.kill('SIGTERM');
  await second.exited;
}

describe('acknowledged writes survive kill -9', () => {
  // Run in the embedded pass: see `againstPostgres`.
  it.skipIf(againstPostgres)(
    'on the embedded database',
    async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'bmet-crash-'));
      cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
      await crashAndCheck({ DATA_DIR: dataDir, DATABASE_URL: '' });
    },
    240_000,
  );

  const url = process.env.TEST_DATABASE_URL;
  it.skipIf(!url)(
    'on PostgreSQL',
    async () => {
      const name = `bmet_crash_${process.pid}`;
      const admin = postgres(url!, { max: 1, onnotice: () => {} });
      await admin`drop database if exists ${admin(name)} with (force)`;
      await admin`create database ${admin(name)}`;
      cleanups.push(async () => {
        await admin`drop database if exists ${admin(name)} with (force)`;
        await admin.end({ timeout: 5 });
      });
      const databaseUrl = new URL(url!);
      databaseUrl.pathname = `/${name}`;
      const dataDir = mkdtempSync(join(tmpdir(), 'bmet-crash-'));
      cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
      await crashAndCheck({
        DATA_DIR: dataDir,
        DATABASE_URL: databaseUrl.toString(),
        JWT_SECRET: 'crash-test-secret-0123456789abcdefghijkl',
      });
    },
    240_000,
  );
});
