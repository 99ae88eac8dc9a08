import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startFirebaseServer, type FirebaseJson } from '../../test/firebase-server';
import { killServerProcesses, startServerProcess, stopServerProcess } from '../../test/server-process';
import { readUntil } from '../../test/read-until';
import { appBooking } from '../../test/app-booking';
import { againstPostgres } from '../../test/test-database';

/**
 * Started as an operator starts it: a server pointed at a database that speaks Firebase's protocol
 * and holds an export fills from it, then follows what the apps write.
 */

const folders: string[] = [];
afterAll(() => {
  killServerProcesses();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

const FIXTURE = join(import.meta.dirname, '../import/fixtures/database.json');

// On the embedded database (DATABASE_URL unset), whichever pass: see `againstPostgres`.
describe.skipIf(againstPostgres)('a server with FIREBASE_DATABASE_URL', () => {
  it('fills from the database, reports the link, and follows a new booking', async () => {
    const firebase = await startFirebaseServer({
      data: JSON.parse(readFileSync(FIXTURE, 'utf8')) as FirebaseJson,
      auth: { secret: 'link-test-secret' },
    });
    const dataDir = mkdtempSync(join(tmpdir(), 'bmet-link-'));
    folders.push(dataDir);
    const server = await startServerProcess({
      DATABASE_URL: '',
      JWT_SECRET: '',
      DATA_DIR: dataDir,
      DEMO_DATA: 'true',
      DEMO_PASSWORD: 'link-test-demo-password',
      FIREBASE_DATABASE_URL: firebase.url,
      FIREBASE_DATABASE_SECRET: 'link-test-secret',
    });
    try {
      const ready = await readUntil(
        async () =>
          (await fetch(`${server.baseUrl}/api/ready`)).json() as Promise<{
            firebaseLink?: { following: boolean; lastEventAt: string | null };
          }>,
        (body) => Boolean(body.firebaseLink?.lastEventAt),
        WAIT_MS,
        200,
      );
      expect(ready.firebaseLink).toMatchObject({ following: true, lastEventAt: expect.any(String) });
      // Every request carried the database secret.
      expect(firebase.requests.length).toBeGreaterThan(0);
      expect(firebase.requests.every((request) => request.query.auth === 'link-test-secret')).toBe(true);
      expect(server.output()).toContain('Firebase link');

      // A booking written by the customer app appears in the trip list staff read.
      const idToken = await signInAsAdmin(server.baseUrl);
      firebase.tree.set(
        `trips/${firebase.pushId()}`,
        appBooking('cust1', 'Zebulon Firebaselink', { car: 'mini', phoneNumber: '9000000001' }),
      );
      const titles = await readUntil(
        () => tripTitles(server.baseUrl, idToken, 'Zebulon'),
        (found) => found.length > 0,
        WAIT_MS,
        200,
      );
      expect(titles).toEqual(['Zebulon Firebaselink']);
    } finally {
      await stopServerProcess(server);
      await firebase.close();
    }
  }, 120_000);

  it('killed with kill -9 while the apps write, applies every change made meanwhile exactly once', async () => {
    const firebase = await startFirebaseServer({
      data: { customer: { cust9: { name: 'Kavya Nair', phoneNumber: '9000000009' } } },
    });
    const dataDir = mkdtempSync(join(tmpdir(), 'bmet-link-kill-'));
    folders.push(dataDir);
    const env = {
      DATABASE_URL: '',
      JWT_SECRET: '',
      DATA_DIR: dataDir,
      DEMO_DATA: 'true',
      DEMO_PASSWORD: 'link-test-demo-password',
      FIREBASE_DATABASE_URL: firebase.url,
    };
    const trip = (i: number) => appBooking('cust9', `Killnine Rider ${i}`, { car: 'auto', price: '90' });
    const keys = Array.from({ length: 100 }, () => firebase.pushId());
    const key = (i: number) => keys[i]!;
    const first = await startServerProcess(env);
    let second: Awaited<ReturnType<typeof startServerProcess>> | undefined;
    try {
      await readUntil(
        async () => ((await (await fetch(`${first.baseUrl}/api/ready`)).json()) as ReadyBody).firebaseLink,
        (link) => Boolean(link?.lastEventAt),
        WAIT_MS,
        200,
      );
      // The apps write 100 bookings: the first 30 while the console runs, then it is killed.
      for (let i = 0; i < 30; i++) firebase.tree.set(`trips/${key(i)}`, trip(i));
      first.child.kill('SIGKILL');
      await first.exited;
      for (let i = 30; i < 100; i++) firebase.tree.set(`trips/${key(i)}`, trip(i));

      // Started again: it waits out the dead instance's lease (30 s at most), then catches up.
      second = await startServerProcess(env);
      const baseUrl = second.baseUrl;
      const idToken = await signInAsAdmin(baseUrl);
      const titles = await readUntil(
        () => tripTitles(baseUrl, idToken, 'Killnine'),
        (found) => found.length >= 100,
        60_000,
        200,
      );
      expect(titles).toHaveLength(100);
      expect(new Set(titles).size).toBe(100);
    } finally {
      if (second) await stopServerProcess(second);
      await firebase.close();
    }
  }, 150_000);
});

type ReadyBody = { firebaseLink?: { following: boolean; lastEventAt: string | null } };

/** How long a server process may take to fill and answer (a test machine under load is slow). */
const WAIT_MS = 30_000;

/** Signs in as the demo admin, as the web app does; answers the ID token. */
async function signInAsAdmin(baseUrl: string): Promise<string> {
  const answer = await fetch(`${baseUrl}/api/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      email: 'admin@bookmyetaxi.test',
      password: 'link-test-demo-password',
      role: 'admin',
    }),
  });
  return ((await answer.json()) as { data: { idToken: string } }).data.idToken;
}

/** The titles of the trips a search finds, as staff read them in the trip list. */
async function tripTitles(baseUrl: string, idToken: string, search: string): Promise<string[]> {
  const answer = await fetch(`${baseUrl}/api/trips?q=${search}&limit=200`, {
    headers: { authorization: `Bearer ${idToken}` },
  });
  const body = (await answer.json()) as { data: Record<string, { title: string }> };
  return Object.values(body.data).map((trip) => trip.title);
}
