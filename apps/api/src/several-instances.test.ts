import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { findTestRedis } from '../test/redis';
import { freePort } from './lib/free-port';
import { openLocationStream } from '../test/location-support';
import { startFirebaseServer } from '../test/firebase-server';
import { appBooking } from '../test/app-booking';

const API_ROOT = fileURLToPath(new URL('..', import.meta.url));
const PASSWORD = 'two-instances-demo-password';
const LIMIT = 30;
const url = process.env.TEST_DATABASE_URL;
const redis = await findTestRedis();
const journal = JSON.parse(
  readFileSync(new URL('./db/migrations/meta/_journal.json', import.meta.url), 'utf8'),
) as {
  entries: unknown[];
};

type Instance = { child: ChildProcess; baseUrl: string; port: number; output: () => string };

/** A GET from a chosen loopback address: the rate limits count per client address. */
function getFrom(address: string, port: number, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: '127.0.0.1', port, path, localAddress: address }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    request.on('error', reject);
    request.end();
  });
}

// Several instances need what they share: a PostgreSQL server and a Redis.
const skip = !url ? 'TEST_DATABASE_URL is not set' : !redis.url ? redis.reason : '';

describe.skipIf(Boolean(skip))(
  `two instances on one database and one Redis${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    const name = `bmet_two_${process.pid}`;
    const admin = url ? postgres(url, { max: 1, onnotice: () => {} }) : null;
    const instances: Instance[] = [];
    const folders: string[] = [];

    afterAll(async () => {
      for (const instance of instances) instance.child.kill('SIGKILL');
      for (const folder of folders) rmSync(folder, { recursive: true, force: true });
      if (!admin) return;
      await admin`drop database if exists ${admin(name)} with (force)`;
      await admin`drop database if exists ${admin(`${name}_link`)} with (force)`;
      await admin.end({ timeout: 5 });
    });

    async function start(databaseUrl: string, extra: Record<string, string> = {}): Promise<Instance> {
      const port = await freePort();
      const dataDir = mkdtempSync(join(tmpdir(), 'bmet-two-'));
      folders.push(dataDir);
      const child = spawn(process.execPath, ['--import', 'tsx', join(API_ROOT, 'src/server.ts')], {
        cwd: API_ROOT,
        env: {
          ...process.env,
          PORT: String(port),
          HOST: '127.0.0.1',
          DATABASE_URL: databaseUrl,
          REDIS_URL: redis.url!,
          JWT_SECRET: 'two-instances-share-this-secret-0123456789',
          DEMO_DATA: 'true',
          DEMO_PASSWORD: PASSWORD,
          DATA_DIR: dataDir,
          RATE_LIMIT_PER_MINUTE: String(LIMIT),
          LOG_PRETTY: 'false',
          LOG_LEVEL: 'warn',
          ...extra,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const instance = { child, port, baseUrl: `http://127.0.0.1:${port}`, output: () => output };
      instances.push(instance);
      return instance;
    }

    /** A JSON GET from a chosen loopback address (the rate limits count per client address). */
    function getJsonFrom(address: string, port: number, path: string, headers: Record<string, string> = {}) {
      return new Promise<{ status: number; body: unknown }>((resolve, reject) => {
        const request = httpRequest(
          { host: '127.0.0.1', port, path, localAddress: address, headers },
          (response) => {
            let text = '';
            response.on('data', (chunk: Buffer) => (text += chunk.toString()));
            response.on('end', () =>
              resolve({ status: response.statusCode ?? 0, body: text ? JSON.parse(text) : null }),
            );
          },
        );
        request.on('error', reject);
        request.end();
      });
    }

    async function ready(instance: Instance): Promise<void> {
      const until = Date.now() + 120_000;
      for (;;) {
        // Probes come from their own address, so that they do not count against the test's.
        const status = await getFrom('127.0.0.2', instance.port, '/api/ready').catch(() => 0);
        if (status === 200) return;
        if (instance.child.exitCode !== null || Date.now() > until) {
          throw new Error(`The instance did not become ready:\n${instance.output()}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }

    it('share migrations, demo data, tokens, rate limits, revocations and live positions', async () => {
      await admin!`drop database if exists ${admin!(name)} with (force)`;
      await admin!`create database ${admin!(name)}`;
      const address = new URL(url!);
      address.pathname = `/${name}`;
      const databaseUrl = address.toString();

      // Started together: both become ready; migrations and the demo data happen once.
      const [a, b] = await Promise.all([start(databaseUrl), start(databaseUrl)]);
      await Promise.all([ready(a), ready(b)]);
      const check = postgres(databaseUrl, { max: 1, onnotice: () => {} });
      const [migrations] = await check`select count(*)::int as n from drizzle.__drizzle_migrations`;
      const [admins] =
        await check`select count(*)::int as n from accounts where email = 'admin@bookmyetaxi.test'`;
      await check.end({ timeout: 5 });
      expect(migrations!.n).toBe(journal.entries.length);
      expect(admins!.n).toBe(1);

      // A token from one instance works on the other.
      const signIn = await fetch(`${a.baseUrl}/api/auth/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'admin@bookmyetaxi.test', password: PASSWORD, role: 'admin' }),
      });
      expect(signIn.status).toBe(200);
      const token = ((await signIn.json()) as { data: { idToken: string } }).data.idToken;
      const bearer = { authorization: `Bearer ${token}` };
      const me = await fetch(`${b.baseUrl}/api/auth/me`, { headers: bearer });
      expect(me.status).toBe(200);

      // A position reported to one instance reaches a dashboard open on the other.
      const drivers = (await (
        await fetch(`${b.baseUrl}/api/drivers?limit=1`, { headers: bearer })
      ).json()) as {
        data: Record<string, unknown>;
      };
      const driverId = Object.keys(drivers.data)[0]!;
      const device = await fetch(`${a.baseUrl}/api/drivers/driver/${driverId}/device-tokens`, {
        method: 'POST',
        headers: { ...bearer, 'content-type': 'application/json' },
        body: JSON.stringify({ label: 'Two-instance phone' }),
      });
      expect(device.status).toBe(201);
      const deviceToken = ((await device.json()) as { data: { token: string } }).data.token;
      const stream = await openLocationStream(b.baseUrl, driverId, token);
      expect(stream.response.status).toBe(200);
      expect(await stream.next()).toEqual({ comment: 'connected' });
      const report = await fetch(`${a.baseUrl}/api/driver-app/location`, {
        method: 'POST',
        headers: { authorization: `Bearer ${deviceToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ lat: 25.61234, long: 85.14321 }),
      });
      expect(report.status).toBe(204);
      for (;;) {
        const message = await stream.next(20_000);
        expect(message).not.toBeNull();
        if (message && 'data' in message && message.data.includes('25.61234')) break;
      }

      // Signing out on one instance ends the session on the other within 0.1 s, though the other
      // has just used it (and remembers it), and ends the stream open there.
      expect((await fetch(`${b.baseUrl}/api/auth/me`, { headers: bearer })).status).toBe(200);
      const signOut = await fetch(`${a.baseUrl}/api/auth/sign-out`, { method: 'POST', headers: bearer });
      expect(signOut.status).toBe(204);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect((await fetch(`${b.baseUrl}/api/auth/me`, { headers: bearer })).status).toBe(401);
      await stream.waitForEnd(10_000);

      // The global limit counts one address's requests on both instances together.
      const statuses: number[] = [];
      for (let i = 0; i < LIMIT; i++)
        statuses.push(await getFrom('127.0.0.9', i % 2 ? b.port : a.port, '/api/health'));
      expect(statuses.every((status) => status === 200)).toBe(true);
      expect(await getFrom('127.0.0.9', a.port, '/api/health')).toBe(429);
      expect(await getFrom('127.0.0.9', b.port, '/api/health')).toBe(429);
    }, 240_000);

    it('follow the apps’ Firebase database one at a time, and take over from one killed', async () => {
      const linkDb = `${name}_link`;
      await admin!`drop database if exists ${admin!(linkDb)} with (force)`;
      await admin!`create database ${admin!(linkDb)}`;
      const address = new URL(url!);
      address.pathname = `/${linkDb}`;
      const firebase = await startFirebaseServer({
        data: { customer: { cust2i: { name: 'Meena Two', phoneNumber: '9000000022' } } },
      });
      const booking = (title: string) =>
        appBooking('cust2i', title, { phoneNumber: '9000000022', car: 'auto' });
      // Polled often: a limit the polls cannot reach.
      const extra = { FIREBASE_DATABASE_URL: firebase.url, RATE_LIMIT_PER_MINUTE: '100000' };
      const both = await Promise.all([start(address.toString(), extra), start(address.toString(), extra)]);
      await Promise.all(both.map(ready));
      // The lease (one row) names the instance that follows, by its process id; the other waits.
      const linkDatabase = postgres(address.toString(), { max: 1, onnotice: () => {} });
      const holderPid = async () => {
        const rows =
          await linkDatabase`select holder from firebase_link_lease where expires_at > now()`.catch(() => []);
        return rows.length === 1 ? Number(String(rows[0]!.holder).split(' ')[1]) : null;
      };
      let pid: number | null = null;
      for (const until = Date.now() + 60_000; Date.now() < until && pid === null;) {
        pid = await holderPid();
        if (pid === null) await new Promise((resolve) => setTimeout(resolve, 250));
      }
      const leader = both.find((instance) => instance.child.pid === pid);
      const other = both.find((instance) => instance.child.pid !== pid)!;
      expect(leader, `the lease holder ${pid} is one of the two instances`).toBeDefined();

      const signIn = await fetch(`${other.baseUrl}/api/auth/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'admin@bookmyetaxi.test', password: PASSWORD, role: 'admin' }),
      });
      const token = ((await signIn.json()) as { data: { idToken: string } }).data.idToken;
      const titles = async (instance: Instance) => {
        const answer = await getJsonFrom('127.0.0.4', instance.port, '/api/trips?q=Twoinst&limit=50', {
          authorization: `Bearer ${token}`,
        });
        return Object.values((answer.body as { data: Record<string, { title: string }> }).data)
          .map((trip) => trip.title)
          .sort();
      };
      const waitForTitles = async (instance: Instance, wanted: string[], ms: number) => {
        let found: string[] = [];
        for (const until = Date.now() + ms; Date.now() < until;) {
          found = await titles(instance);
          if (found.length >= wanted.length) break;
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
        return found;
      };

      // A booking while the leader follows: written once, read on either instance.
      firebase.tree.set(`trips/${firebase.pushId()}`, booking('Twoinst Rider One'));
      expect(await waitForTitles(other, ['Twoinst Rider One'], 30_000)).toEqual(['Twoinst Rider One']);

      // The leader dies without a word; a booking made meanwhile is brought in by the other, which
      // takes over when the dead one's lease runs out (30 s) and catches up.
      leader!.child.kill('SIGKILL');
      firebase.tree.set(`trips/${firebase.pushId()}`, booking('Twoinst Rider Two'));
      const took = Date.now();
      expect(await waitForTitles(other, ['Twoinst Rider One', 'Twoinst Rider Two'], 90_000)).toEqual([
        'Twoinst Rider One',
        'Twoinst Rider Two',
      ]);
      expect(await holderPid()).toBe(other.child.pid);
      // Within the lease and a catch-up, not a minute later.
      expect(Date.now() - took).toBeLessThan(60_000);
      await linkDatabase.end({ timeout: 5 });
      for (const instance of both) instance.child.kill('SIGKILL');
      await firebase.close();
      await admin!`drop database if exists ${admin!(linkDb)} with (force)`;
    }, 300_000);
  },
);
