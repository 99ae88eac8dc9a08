import { randomUUID } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { m } from '@bmet/shared/paraglide/messages';
import { accounts, auditLog, driverDeviceTokens, tripFeedback } from './db/schema';
import { createDriver, createTrip } from './seed/factories';
import { SURROGATE_MESSAGE } from './lib/text';
import { authHeader, signInAs, useTestApp } from '../test/test-app';

/**
 * Text PostgreSQL cannot hold (a lone UTF-16 surrogate, NUL) is refused with a 400 wherever it
 * arrives, before anything is written: no 500 from the database, no U+FFFD stored in its place.
 */

const t = useTestApp();

/** JSON with a lone surrogate escaped, as a client would send it. */
const LONE = 'ab\ud800cd';

async function auditRows(): Promise<number> {
  const [row] = await t.db.select({ n: count() }).from(auditLog);
  return row!.n;
}

describe('a lone surrogate in any text field', () => {
  it('is refused in every kind of text field, naming the field, and changes nothing', async () => {
    const admin = await signInAs(t, 'admin');
    const dealer = await signInAs(t, 'city_dealer', { state: 'maharashtra' });
    const driver = await createDriver(t.db, { franchiseId: null });
    const trip = await createTrip(t.db, {
      driver: { id: driver.id, state: 'maharashtra', carType: driver.carType },
    });
    const before = await auditRows();

    const cases: {
      method: 'POST' | 'PATCH' | 'PUT';
      url: string;
      token: string;
      payload: object;
      field: string;
    }[] = [
      {
        method: 'PATCH',
        url: '/api/auth/me',
        token: admin.token,
        payload: { displayName: LONE },
        field: 'displayName',
      },
      {
        method: 'POST',
        url: '/api/city_dealer/create',
        token: admin.token,
        payload: { name: LONE, email: `${randomUUID()}@x.in`, state: 'goa', password: 'a-long-passphrase-7' },
        field: 'name',
      },
      {
        method: 'POST',
        url: '/api/franchise/create',
        token: dealer.token,
        payload: {
          name: LONE,
          email: `${randomUUID()}@x.in`,
          state: 'maharashtra',
          password: 'a-long-passphrase-7',
        },
        field: 'name',
      },
      {
        method: 'PATCH',
        url: `/api/city_dealer/${dealer.account.id}`,
        token: admin.token,
        payload: { name: LONE },
        field: 'name',
      },
      {
        method: 'PATCH',
        url: `/api/drivers/driver/${driver.id}/documents/rcCertificate`,
        token: admin.token,
        payload: { status: 'rejected', reason: `Too dark ${LONE}` },
        field: 'reason',
      },
      {
        method: 'POST',
        url: `/api/trips/${trip.id}/feedback`,
        token: admin.token,
        payload: { feedback: LONE, rating: 4 },
        field: 'feedback',
      },
      {
        method: 'POST',
        url: `/api/drivers/driver/${driver.id}/device-tokens`,
        token: admin.token,
        payload: { label: LONE },
        field: 'label',
      },
      // In a key as much as in a value.
      { method: 'PATCH', url: '/api/auth/me', token: admin.token, payload: { [LONE]: 'x' }, field: LONE },
    ];

    for (const { method, url, token, payload, field } of cases) {
      const response = await t.app.inject({
        method,
        url,
        headers: { ...authHeader(token), 'content-type': 'application/json' },
        payload: JSON.stringify(payload),
      });
      expect(response.statusCode, url).toBe(400);
      expect(response.json(), url).toEqual({
        error: `${field}: ${SURROGATE_MESSAGE}`,
        code: 'VALIDATION',
        fieldErrors: { [field]: [SURROGATE_MESSAGE] },
      });
    }

    expect(await auditRows()).toBe(before);
    const [me] = await t.db.select().from(accounts).where(eq(accounts.id, admin.account.id));
    expect(me!.displayName).toBe(admin.account.displayName);
    expect(await t.db.select().from(tripFeedback).where(eq(tripFeedback.tripId, trip.id))).toEqual([]);
    expect(
      await t.db.select().from(driverDeviceTokens).where(eq(driverDeviceTokens.driverId, driver.id)),
    ).toEqual([]);
  });

  it('reads the percent-encoded bytes of a surrogate in a query as text, never a 500', async () => {
    const admin = await signInAs(t, 'admin');
    const response = await t.app.inject({
      method: 'GET',
      // The UTF-8 bytes a lone surrogate would have, percent-encoded.
      url: '/api/drivers?q=%ED%A0%80',
      headers: authHeader(admin.token),
    });
    expect(response.statusCode).toBe(200);
  });
});

describe('forged list cursors holding text the database cannot take', () => {
  const forged = (key: object) => Buffer.from(JSON.stringify(key), 'utf8').toString('base64url');

  it.each([
    ['admin', '/api/drivers'],
    ['city_dealer', '/api/city_dealer'],
    ['franchise', '/api/franchise'],
  ] as const)('%s %s answers 400 Invalid cursor for NUL or a lone surrogate', async (role, path) => {
    const staff = await signInAs(t, role, role === 'admin' ? {} : { state: 'maharashtra' });
    for (const name of ['a\u0000', 'a\ud800']) {
      const cursor = forged({ name, id: randomUUID() });
      const response = await t.app.inject({
        method: 'GET',
        url: `${path}?cursor=${cursor}`,
        headers: authHeader(staff.token),
      });
      expect(response.statusCode, name).toBe(400);
      expect(response.json()).toEqual({
        error: m.invalidCursor(),
        code: 'VALIDATION',
        fieldErrors: { cursor: [m.invalidCursor()] },
      });
    }
  });
});
