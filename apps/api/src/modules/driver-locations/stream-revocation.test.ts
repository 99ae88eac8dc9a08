import { get } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { m } from '@bmet/shared/paraglide/messages';
import { buildApp, type App } from '../../app';
import { createAccount, createDriver } from '../../seed/factories';
import { authHeader, issueToken, testAppOptions } from '../../../test/test-app';
import { DEFAULT_STREAMS_PER_ACCOUNT, MAX_STREAMS_PER_SESSION } from './location-stream';
import { createScope, openLocationStream, useLocationTestApp } from '../../../test/location-support';

/**
 * A live stream ends within a second of whatever ends the caller's access, on every instance of
 * the API, not at the next 20-second heartbeat; and one session cannot open streams without end.
 */

const t = useLocationTestApp({ listen: true });
let s: Awaited<ReturnType<typeof createScope>>;

// A second instance on the same database: what one changes ends the streams of the other.
let other: App;
let otherUrl: string;
beforeAll(async () => {
  s = await createScope(t.db);
  other = await buildApp(testAppOptions(t.db));
  otherUrl = await other.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await other?.close();
});

/** Well under the heartbeat: only an announced revocation can end a stream this soon. */
const SOON_MS = 1500;

async function streamAs(token: string, driverId = s.driver.id, baseUrl = t.baseUrl) {
  const stream = await openLocationStream(baseUrl, driverId, token);
  expect(stream.response.status).toBe(200);
  expect(await stream.next()).toEqual({ comment: 'connected' });
  return stream;
}

describe('a revocation ends open streams at once', () => {
  it('logout, on the instance the stream is not on', async () => {
    const { token } = await issueToken(t.db, s.dealer.account);
    const stream = await streamAs(token, s.driver.id, otherUrl);
    const signOut = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-out',
      headers: authHeader(token),
    });
    expect(signOut.statusCode).toBe(204);
    await stream.waitForEnd(SOON_MS);
  });

  it("a password change ends the account's other sessions' streams", async () => {
    const admin = await createAccount(t.db, { role: 'admin' });
    const changer = await issueToken(t.db, admin);
    const watcher = await issueToken(t.db, admin);
    const stream = await streamAs(watcher.token);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/admin/update-password',
      headers: authHeader(changer.token),
      payload: { email: admin.email, newPassword: 'a-brand-new-passphrase-9' },
    });
    expect(response.statusCode).toBe(200);
    await stream.waitForEnd(SOON_MS);
  });

  it('disabling the account', async () => {
    const dealer = await createAccount(t.db, { role: 'city_dealer', state: 'maharashtra' });
    const franchise = await createAccount(t.db, { role: 'franchise', dealerId: dealer.id });
    const driver = await createDriver(t.db, {
      franchiseId: franchise.id,
      lat: 19,
      long: 72,
      positionAt: new Date(),
    });
    const { token } = await issueToken(t.db, dealer);
    const stream = await streamAs(token, driver.id);
    const response = await other.inject({
      method: 'PATCH',
      url: `/api/city_dealer/${dealer.id}`,
      headers: authHeader(s.admin.token),
      payload: { disabled: true },
    });
    expect(response.statusCode).toBe(200);
    await stream.waitForEnd(SOON_MS);
  });

  it("reassigning the driver away from the caller's scope, while the others' streams go on", async () => {
    const driver = await createDriver(t.db, {
      franchiseId: s.franchise.account.id,
      lat: 19,
      long: 72,
      positionAt: new Date(),
    });
    const dealerStream = await streamAs(s.dealer.token, driver.id);
    const adminStream = await streamAs(s.admin.token, driver.id);
    expect(await adminStream.nextLocation()).toMatchObject({ driverId: driver.id });
    const response = await t.app.inject({
      method: 'PATCH',
      url: `/api/drivers/driver/${driver.id}/assignment`,
      headers: authHeader(s.admin.token),
      payload: { franchiseId: s.otherFranchise.account.id, state: null },
    });
    expect(response.statusCode).toBe(200);
    await dealerStream.waitForEnd(SOON_MS);
    // The admin still sees the driver: its stream stays open (nothing arrives, no end either).
    await expect(adminStream.next(500)).rejects.toThrow('No server-sent message');
    adminStream.abort();
  });
});

/** A stream on its own socket, closed for sure by destroy() (as a closed tab closes it). */
function rawStream(
  token: string,
  path = `/api/drivers/location/${s.driver.id}/stream`,
): Promise<{ status: number; body: () => Promise<string>; close: () => void }> {
  return new Promise((resolve, reject) => {
    const request = get(`${t.baseUrl}${path}`, { headers: authHeader(token), agent: false }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      const ended = new Promise<string>((done) => response.on('end', () => done(text)));
      resolve({ status: response.statusCode ?? 0, body: () => ended, close: () => request.destroy() });
    });
    request.on('error', reject);
  });
}

describe('streams per session', () => {
  it(`opens ${MAX_STREAMS_PER_SESSION} at once, refuses the next with 429, and frees a place when one closes`, async () => {
    const { token } = await issueToken(t.db, s.admin.account);
    const streams = await Promise.all(
      Array.from({ length: MAX_STREAMS_PER_SESSION }, () => rawStream(token)),
    );
    expect(streams.map((stream) => stream.status)).toEqual(Array(MAX_STREAMS_PER_SESSION).fill(200));

    const refused = await rawStream(token);
    expect(refused.status).toBe(429);
    expect(JSON.parse(await refused.body())).toEqual({
      error: m.tooManyStreams(),
      code: 'RATE_LIMITED',
    });

    // Another session of the same person has its own allowance.
    const elsewhere = await rawStream((await issueToken(t.db, s.admin.account)).token);
    expect(elsewhere.status).toBe(200);
    elsewhere.close();

    streams[0]!.close();
    let reopened = await rawStream(token);
    for (let i = 0; reopened.status === 429 && i < 40; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      reopened = await rawStream(token);
    }
    expect(reopened.status).toBe(200);
    reopened.close();
    for (const stream of streams) stream.close();
  });
});

describe('streams per account', () => {
  it(`opens ${DEFAULT_STREAMS_PER_ACCOUNT} across the account's sessions, and refuses the next from any session`, async () => {
    const dealer = await createAccount(t.db, { role: 'city_dealer' });
    const sessions = await Promise.all(
      Array.from({ length: DEFAULT_STREAMS_PER_ACCOUNT / MAX_STREAMS_PER_SESSION + 1 }, () =>
        issueToken(t.db, dealer),
      ),
    );
    const opened = [];
    for (const { token } of sessions.slice(0, -1)) {
      const streams = await Promise.all(
        Array.from({ length: MAX_STREAMS_PER_SESSION }, () => rawStream(token, '/api/fleet/stream')),
      );
      opened.push(...streams);
    }
    expect(opened.map((stream) => stream.status)).toEqual(Array(DEFAULT_STREAMS_PER_ACCOUNT).fill(200));

    // A fresh session of the same account has room of its own, but the account has none left.
    const refused = await rawStream(sessions.at(-1)!.token, '/api/fleet/stream');
    expect(refused.status).toBe(429);
    expect(JSON.parse(await refused.body())).toEqual({
      error: m.tooManyStreamsForAccount(),
      code: 'RATE_LIMITED',
    });

    // Another account is not held back by this one.
    const other = await rawStream((await issueToken(t.db, s.admin.account)).token, '/api/fleet/stream');
    expect(other.status).toBe(200);
    other.close();
    for (const stream of opened) stream.close();
  });
});
