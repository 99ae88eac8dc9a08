import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AuditListResponse } from '@bmet/shared/schemas/audit';
import type { RateHistoryEntry } from '@bmet/shared/schemas/car-rate';
import type { FirebaseLinkStatus } from '@bmet/shared/schemas/firebase-link';
import { buildApp, type App } from '../app';
import { accounts, carRates } from '../db/schema';
import { rowsOf } from '../db/rows';
import { createAccount } from '../seed/factories';
import { authHeader, issueToken, testAppOptions } from '../../test/test-app';
import { getTestDatabase } from '../../test/test-database';
import { startFirebaseServer, type FirebaseJson, type FirebaseServer } from '../../test/firebase-server';
import type { Db } from '../db/client';
import { FirebaseLink } from './link';
import { FirebaseRestClient, resolveAddress } from './rest-client';
import { readUntil } from '../../test/read-until';

/**
 * The console writes back what the apps read from Firebase (rates, city dealers and franchises)
 * through its outbox, recognises its own writes when they come back, and takes a rate changed in
 * Firebase by someone else as a new version attributed to Firebase.
 */

let db: Db;
let app: App;
let readOnlyApp: App;
let admin: { token: string };
const running: { link: FirebaseLink; server: FirebaseServer }[] = [];
const quiet = { info: () => {}, warn: () => {} };

beforeAll(async () => {
  ({ db } = await getTestDatabase());
  app = await buildApp({ ...testAppOptions(db), firebaseLink: { writeBack: true } });
  readOnlyApp = await buildApp({ ...testAppOptions(db), firebaseLink: { writeBack: false } });
  const account = await createAccount(db, { role: 'admin' });
  admin = await issueToken(db, account);
});
afterAll(async () => {
  await app.close();
  await readOnlyApp.close();
});
afterEach(async () => {
  for (const { link, server } of running.splice(0)) {
    await link.stop();
    await server.close();
  }
  // Every test starts with an empty outbox: what one queued is not another's to send.
  await db.execute(sql`delete from firebase_outbox`);
});

async function follow(data: FirebaseJson = {}, { writeBack = true } = {}) {
  const server = await startFirebaseServer({ data });
  const link = new FirebaseLink(db, new FirebaseRestClient(resolveAddress(server.url), { kind: 'none' }), {
    logger: quiet,
    writeBack,
  });
  running.push({ link, server });
  link.start();
  await readUntil(
    async () => link.status(),
    (status) => status.connectedSince !== null,
  );
  return { server, link };
}

const RATES = {
  basePrice: 60,
  per_km: 14,
  nightCharge: 20,
  waitingCharge: 2,
  rushHour: 10,
  surCharges: 5,
  extra: 0,
};

async function saveRates(state: string, carType: string, values: Record<string, number>, target = app) {
  const [stored] = await db
    .select({ version: carRates.version })
    .from(carRates)
    .where(and(eq(carRates.state, state), eq(carRates.carType, carType)));
  return target.inject({
    method: 'PUT',
    url: `/api/admin/updateRates/${encodeURIComponent(state)}`,
    headers: authHeader(admin.token),
    payload: { [carType]: { ...values, ...(stored ? { version: stored.version } : {}) } },
  });
}

async function history(state: string) {
  const response = await app.inject({
    url: `/api/admin/rates-history/${encodeURIComponent(state)}`,
    headers: authHeader(admin.token),
  });
  return (response.json() as { data: RateHistoryEntry[] }).data;
}

const outboxRows = async () =>
  rowsOf(await db.execute(sql`select path, value, sent_at, echoed_at from firebase_outbox order by id`));

describe('writing back to Firebase', () => {
  it('writes a rate saved in the console as seven numbers, and applies nothing when it comes back', async () => {
    const { server } = await follow({ state: { mizoram: { auto: { ...RATES, per_km: 13 } } } });
    // The first sync brought Firebase's rate in.
    await readUntil(
      () =>
        db
          .select()
          .from(carRates)
          .where(and(eq(carRates.state, 'mizoram'), eq(carRates.carType, 'auto'))),
      (rows) => rows[0]?.perKm === 13,
    );
    const before = await history('mizoram');

    expect((await saveRates('mizoram', 'auto', { ...RATES, per_km: 15.5 })).statusCode).toBe(200);
    const written = await readUntil(
      async () => server.tree.get('state/mizoram/auto'),
      (value) => (value as { per_km?: number } | null)?.per_km === 15.5,
    );
    expect(written).toEqual({ ...RATES, per_km: 15.5 });
    // The write came back on the stream and was recognised: no version was added for it.
    await readUntil(outboxRows, (rows) => rows.every((row) => row.echoed_at !== null));
    const after = await history('mizoram');
    expect(after.length).toBe(before.length + 1);
    expect(after[0]).toMatchObject({ version: before[0]!.version + 1, source: null });
    expect(after[0]!.changedBy).not.toBeNull();
  });

  it('takes a rate changed in Firebase by someone else as a new version attributed to Firebase', async () => {
    const { server } = await follow({ state: { mizoram: { sedan: RATES } } });
    await readUntil(
      () =>
        db
          .select()
          .from(carRates)
          .where(and(eq(carRates.state, 'mizoram'), eq(carRates.carType, 'sedan'))),
      (rows) => rows.length === 1,
    );
    server.tree.set('state/mizoram/sedan/per_km', 19);
    const [entry] = await readUntil(
      () => history('mizoram'),
      (entries) => entries[0]?.carType === 'sedan' && entries[0].after.per_km === 19,
    );
    expect(entry).toMatchObject({ action: 'update', changedBy: null, source: 'firebase' });
    expect(entry!.before?.per_km).toBe(14);

    // The audit trail says the same: Firebase, before and after.
    const audit = await app.inject({
      url: '/api/audit?recordType=car-rates',
      headers: authHeader(admin.token),
    });
    const [row] = (audit.json() as AuditListResponse).data;
    expect(row).toMatchObject({ actor: null, source: 'firebase', recordId: 'mizoram/sedan' });
    expect(row!.before).toMatchObject({ per_km: 14 });
    expect(row!.after).toMatchObject({ per_km: 19 });
    // Nothing of it is written back.
    expect(await outboxRows()).toEqual([]);
  });

  it('writes city dealers and franchises as the driver app lists them, and removes them when deleted', async () => {
    const { server } = await follow();
    const run = randomUUID().slice(0, 8);
    const dealer = await app.inject({
      method: 'POST',
      url: '/api/city_dealer/create',
      headers: authHeader(admin.token),
      payload: {
        name: 'Lalthanga Motors',
        email: `dealer-${run}@example.in`,
        password: 'Str0ng-Pass-2026',
        state: 'mizoram',
      },
    });
    expect(dealer.statusCode).toBe(201);
    const dealerId = (dealer.json() as { data: { uid: string } }).data.uid;
    const dealerNode = await readUntil(
      async () => server.tree.get(`city_dealer/${dealerId}`),
      (value) => value !== null,
    );
    expect(dealerNode).toMatchObject({
      name: 'Lalthanga Motors',
      email: `dealer-${run}@example.in`,
      state: 'mizoram',
    });
    expect((dealerNode as { createdAt: string }).createdAt).toMatch(
      /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}$/,
    );

    const franchise = await app.inject({
      method: 'POST',
      url: '/api/franchise/create',
      headers: authHeader(admin.token),
      payload: {
        name: 'Aizawl East',
        email: `franchise-${run}@example.in`,
        password: 'Str0ng-Pass-2026',
        state: 'mizoram',
        dealerId,
      },
    });
    expect(franchise.statusCode).toBe(201);
    const franchiseId = (franchise.json() as { data: { uid: string } }).data.uid;
    expect(
      await readUntil(
        async () => server.tree.get(`franchise/${franchiseId}`),
        (value) => value !== null,
      ),
    ).toMatchObject({ name: 'Aizawl East', state: 'mizoram', city_dealer: dealerId });

    // Renamed: the node follows.
    const renamed = await app.inject({
      method: 'PATCH',
      url: `/api/franchise/${franchiseId}`,
      headers: authHeader(admin.token),
      payload: { name: 'Aizawl East Cabs' },
    });
    expect(renamed.statusCode).toBe(200);
    await readUntil(
      async () => server.tree.get(`franchise/${franchiseId}/name`),
      (value) => value === 'Aizawl East Cabs',
    );

    // Deleted: the driver app no longer offers the dealer, and its franchise works under none.
    const deleted = await app.inject({
      method: 'DELETE',
      url: `/api/city_dealer/${dealerId}`,
      headers: authHeader(admin.token),
    });
    expect(deleted.statusCode).toBeLessThan(300);
    expect(
      await readUntil(
        async () => server.tree.get(`city_dealer/${dealerId}`),
        (value) => value === null,
      ),
    ).toBeNull();
    const released = await readUntil(
      async () => server.tree.get(`franchise/${franchiseId}`) as Record<string, unknown> | null,
      (value) => value !== null && !('city_dealer' in value),
    );
    expect(released).toMatchObject({ name: 'Aizawl East Cabs' });
    // The echoes changed nothing: the names are the console's, and no account came back from the dead.
    const [stored] = await db.select().from(accounts).where(eq(accounts.id, dealerId));
    expect(stored).toMatchObject({ disabled: true, firebaseKey: dealerId });
  });

  it('tries a failed write again until Firebase takes it, and sends a record’s last value', async () => {
    const { server } = await follow();
    server.failNext(503, { error: 'Service Unavailable' });
    expect((await saveRates('mizoram', 'mini', { ...RATES, basePrice: 40 })).statusCode).toBe(200);
    expect((await saveRates('mizoram', 'mini', { ...RATES, basePrice: 45 })).statusCode).toBe(200);
    const landed = await readUntil(
      async () => server.tree.get('state/mizoram/mini'),
      (value) => (value as { basePrice?: number } | null)?.basePrice === 45,
    );
    expect(landed).toMatchObject({ basePrice: 45 });
    await readUntil(outboxRows, (rows) => rows.every((row) => row.sent_at !== null));
    // The status every instance reads shows the outbox drained.
    const status = await app.inject({ url: '/api/firebase-link', headers: authHeader(admin.token) });
    const data = (status.json() as { data: FirebaseLinkStatus }).data;
    expect(data).toMatchObject({ writeBack: true, outbox: { waiting: 0 } });
    const metrics = await app.inject({ url: '/metrics' });
    expect(metrics.body).toMatch(/^bmet_firebase_link_outbox_waiting 0$/m);
    expect(metrics.body).toMatch(/^bmet_firebase_link_following 1$/m);
  });

  it('writes nothing with FIREBASE_WRITE_BACK=false, and a save that fails queues nothing', async () => {
    const { server } = await follow({}, { writeBack: false });
    expect((await saveRates('mizoram', 'suv', RATES, readOnlyApp)).statusCode).toBe(200);
    expect(await outboxRows()).toEqual([]);
    // A stale version is refused: nothing is saved, nothing queued.
    const stale = await app.inject({
      method: 'PUT',
      url: '/api/admin/updateRates/mizoram',
      headers: authHeader(admin.token),
      payload: { suv: { ...RATES, version: 99 } },
    });
    expect(stale.statusCode).toBe(409);
    expect(await outboxRows()).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(server.tree.get('state/mizoram/suv')).toBeNull();
    expect(server.requests.filter((request) => request.method !== 'GET')).toEqual([]);
  });
});

describe('reading a kind of record again', () => {
  it('reads the rates whole again on an admin’s request, and applies the differences', async () => {
    await follow({ state: { mizoram: { erickshaw: RATES } } });
    const stored = () =>
      db
        .select({ perKm: carRates.perKm })
        .from(carRates)
        .where(and(eq(carRates.state, 'mizoram'), eq(carRates.carType, 'erickshaw')));
    await readUntil(stored, (rows) => rows[0]?.perKm === 14);
    // A difference the streams cannot know of (written behind the console's back).
    await db
      .update(carRates)
      .set({ perKm: 99 })
      .where(and(eq(carRates.state, 'mizoram'), eq(carRates.carType, 'erickshaw')));

    const asked = await app.inject({
      method: 'POST',
      url: '/api/firebase-link/reread',
      headers: authHeader(admin.token),
      payload: { kind: 'state' },
    });
    expect(asked.statusCode).toBe(202);
    const status = (asked.json() as { data: FirebaseLinkStatus }).data;
    expect(status.following).toBe(true);
    expect(status.rereadsAsked).toContain('state');
    expect(await readUntil(stored, (rows) => rows[0]?.perKm === 14)).toEqual([{ perKm: 14 }]);
    // Firebase's value came back as a version attributed to Firebase.
    expect((await history('mizoram'))[0]).toMatchObject({ carType: 'erickshaw', source: 'firebase' });
  });

  it('says what is wrong with a request it cannot take', async () => {
    const wrongKind = await app.inject({
      method: 'POST',
      url: '/api/firebase-link/reread',
      headers: authHeader(admin.token),
      payload: { kind: 'wallets' },
    });
    expect(wrongKind.statusCode).toBe(400);
    expect(wrongKind.json()).toMatchObject({ error: expect.stringContaining('Choose what to read again') });
    // No instance follows (no link runs in this test).
    const none = await app.inject({
      method: 'POST',
      url: '/api/firebase-link/reread',
      headers: authHeader(admin.token),
      payload: { kind: 'trips' },
    });
    expect(none.statusCode).toBe(409);
    expect(none.json()).toMatchObject({ error: expect.stringContaining('No instance follows') });
    const dealer = await createAccount(db, { role: 'city_dealer', state: 'mizoram' });
    const forbidden = await app.inject({
      method: 'POST',
      url: '/api/firebase-link/reread',
      headers: authHeader((await issueToken(db, dealer)).token),
      payload: { kind: 'trips' },
    });
    expect(forbidden.statusCode).toBe(403);
  });
});

describe('following city dealers and franchises', () => {
  it('brings in a dealer written in Firebase, then follows its name and keeps what the console owns', async () => {
    const uid = `fb-dealer-${randomUUID().slice(0, 8)}`;
    const node = {
      name: 'Serchhip Cabs',
      email: `${uid}@example.in`,
      state: 'mizoram',
      createdAt: '2026-11-01 10:00:00.000000',
    };
    const { server } = await follow({ city_dealer: { [uid]: node } });
    const account = () => db.select().from(accounts).where(eq(accounts.firebaseKey, uid));
    const [created] = await readUntil(account, (rows) => rows.length === 1);
    expect(created).toMatchObject({
      role: 'city_dealer',
      displayName: 'Serchhip Cabs',
      state: 'mizoram',
      disabled: false,
    });
    // No password came with it: the account is unusable until a reset link is sent.
    expect(created!.passwordHash.startsWith('$argon2')).toBe(false);

    // Disabled in the console: its node goes.
    const disabled = await app.inject({
      method: 'PATCH',
      url: `/api/city_dealer/${created!.id}`,
      headers: authHeader(admin.token),
      payload: { disabled: true },
    });
    expect(disabled.statusCode).toBe(200);
    await readUntil(
      async () => server.tree.get(`city_dealer/${uid}`),
      (value) => value === null,
    );
    // Someone writes it again in Firebase, renamed and with another email: the name follows, the
    // email and the disabling are the console's.
    server.tree.set(`city_dealer/${uid}`, { ...node, name: 'Serchhip Cabs & Co', email: 'someone@else.in' });
    const [renamed] = await readUntil(account, (rows) => rows[0]?.displayName === 'Serchhip Cabs & Co');
    expect(renamed).toMatchObject({
      displayName: 'Serchhip Cabs & Co',
      email: `${uid}@example.in`,
      disabled: true,
    });

    const audit = await app.inject({
      url: `/api/audit?recordType=city-dealers&recordId=${created!.id}`,
      headers: authHeader(admin.token),
    });
    const entries = (audit.json() as AuditListResponse).data;
    expect(entries.map((entry) => [entry.action, entry.source])).toEqual([
      ['update', 'firebase'],
      ['update', null],
      ['create', 'firebase'],
    ]);
  });
});
