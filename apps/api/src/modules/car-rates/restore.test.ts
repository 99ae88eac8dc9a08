import { and, desc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { State } from '@bmet/shared/constants';
import { carTypeLabel, stateLabel } from '@bmet/shared/labels';
import { m } from '@bmet/shared/paraglide/messages';
import type { RateHistoryResponse, StateRates } from '@bmet/shared/schemas/car-rate';
import { auditLog, carRateHistory, carRates } from '../../db/schema';
import { BASE_RATES } from '../../seed/india';
import { useTestApp } from '../../../test/test-app';
import {
  auditRowsOf,
  createStaff,
  historyRowsOf,
  putRates,
  rateSet,
  resetState,
  storedRates,
  type Staff,
} from '../../../test/car-rate-fixtures';

const t = useTestApp();
let admin: Staff;
let ownDealer: Staff;
let otherDealer: Staff;
let franchise: Staff;

beforeAll(async () => {
  admin = await createStaff(t.db, { role: 'admin', displayName: 'Restoring Admin' });
  ownDealer = await createStaff(t.db, { role: 'city_dealer', state: 'jharkhand' });
  otherDealer = await createStaff(t.db, { role: 'city_dealer', state: 'goa' });
  franchise = await createStaff(t.db, { role: 'franchise', state: 'jharkhand', dealerId: ownDealer.id });
});

const postRestore = (who: Staff | null, state: string, body: unknown, query = '') =>
  t.app.inject({
    method: 'POST',
    url: `/api/admin/restoreRates/${encodeURIComponent(state)}${query}`,
    headers: who?.headers ?? {},
    payload: body as Record<string, unknown>,
  });

const ok = async (response: Awaited<ReturnType<typeof putRates>>) => {
  expect(response.statusCode, response.body).toBe(200);
  return response;
};

/** Gives a state's sedan three versions: the typical rates, then basePrice 75, then 80 and per_km 17. */
async function threeVersions(state: State) {
  await resetState(t.db, state, ['sedan']);
  await ok(await putRates(t, admin, state, { sedan: rateSet('sedan', { basePrice: 75, version: 1 }) }));
  await ok(
    await putRates(t, admin, state, { sedan: rateSet('sedan', { basePrice: 80, per_km: 17, version: 2 }) }),
  );
}

describe('POST /api/admin/restoreRates/:state', () => {
  it('saves an earlier version’s values as a new version, in the history and the audit log', async () => {
    await threeVersions('jharkhand');
    const response = await postRestore(admin, 'jharkhand', {
      carType: 'sedan',
      restoreVersion: 2,
      version: 3,
    });
    expect(response.statusCode, response.body).toBe(200);
    const expected: StateRates = { sedan: { ...rateSet('sedan', { basePrice: 75 }), version: 4 } };
    expect(response.json()).toEqual({ data: expected });
    expect(await storedRates(t.db, 'jharkhand')).toEqual(expected);

    const history = await t.app.inject({
      method: 'GET',
      url: '/api/admin/rates-history/jharkhand?limit=1',
      headers: admin.headers,
    });
    expect(history.json<RateHistoryResponse>().data[0]).toMatchObject({
      carType: 'sedan',
      action: 'restore',
      version: 4,
      before: rateSet('sedan', { basePrice: 80, per_km: 17 }),
      after: rateSet('sedan', { basePrice: 75 }),
      changedBy: { id: admin.id, name: 'Restoring Admin' },
    });

    const audit = (await auditRowsOf(t.db, 'jharkhand', ['sedan'])).filter(
      (row) => row.requestId === response.headers['x-request-id'],
    );
    expect(audit).toMatchObject([
      {
        actorId: admin.id,
        action: 'restore',
        resource: 'car-rates',
        resourceId: 'jharkhand/sedan',
        before: { ...rateSet('sedan', { basePrice: 80, per_km: 17 }), version: 3 },
        after: { ...rateSet('sedan', { basePrice: 75 }), version: 4, restoredFromVersion: 2 },
      },
    ]);

    // The next save builds on the restored version.
    const stale = await putRates(t, admin, 'jharkhand', {
      sedan: rateSet('sedan', { extra: 9, version: 3 }),
    });
    expect(stale.statusCode).toBe(409);
    await ok(await putRates(t, admin, 'jharkhand', { sedan: rateSet('sedan', { extra: 9, version: 4 }) }));
  });

  it('restores the first version, known only as the values before the first change', async () => {
    await threeVersions('jharkhand');
    await ok(await postRestore(admin, 'jharkhand', { carType: 'sedan', restoreVersion: 1, version: 3 }));
    expect(await storedRates(t.db, 'jharkhand')).toEqual({ sedan: { ...BASE_RATES.sedan, version: 4 } });
  });

  it.each([
    ['a city dealer of the state', () => ownDealer],
    ['a city dealer of another state', () => otherDealer],
    ['a franchise of the state', () => franchise],
  ])('refuses %s with 403, changing nothing', async (_, who) => {
    await threeVersions('jharkhand');
    const before = await storedRates(t.db, 'jharkhand');
    const response = await postRestore(who(), 'jharkhand', {
      carType: 'sedan',
      restoreVersion: 2,
      version: 3,
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ error: m.forbidden(), code: 'FORBIDDEN' });
    expect(await storedRates(t.db, 'jharkhand')).toEqual(before);
    expect(await historyRowsOf(t.db, 'jharkhand')).toHaveLength(2);
  });

  it('answers 401 without a token', async () => {
    const response = await postRestore(null, 'jharkhand', {
      carType: 'sedan',
      restoreVersion: 1,
      version: 2,
    });
    expect(response.statusCode).toBe(401);
  });

  it('answers 409 to a restore based on a version that is no longer current, changing nothing', async () => {
    await threeVersions('jharkhand');
    // The admin saw version 2; someone saved version 3 since.
    const response = await postRestore(admin, 'jharkhand', {
      carType: 'sedan',
      restoreVersion: 1,
      version: 2,
    });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ error: m.ratesConflict(), code: 'CONFLICT' });
    expect(await storedRates(t.db, 'jharkhand')).toEqual({
      sedan: { ...rateSet('sedan', { basePrice: 80, per_km: 17 }), version: 3 },
    });
    expect(await historyRowsOf(t.db, 'jharkhand')).toHaveLength(2);
  });

  it('answers 409 for a car type the state does not have', async () => {
    await threeVersions('jharkhand');
    const response = await postRestore(admin, 'jharkhand', { carType: 'suv', restoreVersion: 1, version: 2 });
    expect(response.statusCode).toBe(409);
    expect(await storedRates(t.db, 'jharkhand')).not.toHaveProperty('suv');
  });

  it('answers 404 for a version the history does not know', async () => {
    await resetState(t.db, 'jharkhand', ['sedan']);
    // A set imported at version 5, without any history.
    await t.db
      .update(carRates)
      .set({ version: 5 })
      .where(and(eq(carRates.state, 'jharkhand'), eq(carRates.carType, 'sedan')));
    const response = await postRestore(admin, 'jharkhand', {
      carType: 'sedan',
      restoreVersion: 2,
      version: 5,
    });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      error: m.ratesVersionNotFound({
        version: 2,
        type: carTypeLabel('sedan'),
        state: stateLabel('jharkhand'),
      }),
      code: 'NOT_FOUND',
    });
    expect(await storedRates(t.db, 'jharkhand')).toEqual({ sedan: { ...BASE_RATES.sedan, version: 5 } });
  });

  it('refuses a version with a blank value, as a save would', async () => {
    await resetState(t.db, 'jharkhand', ['sedan']);
    await t.db
      .update(carRates)
      .set({ version: 3 })
      .where(and(eq(carRates.state, 'jharkhand'), eq(carRates.carType, 'sedan')));
    // Version 2 came from the apps' database with no basePrice.
    await t.db.insert(carRateHistory).values({
      state: 'jharkhand',
      carType: 'sedan',
      action: 'update',
      version: 2,
      before: BASE_RATES.sedan,
      after: { ...BASE_RATES.sedan, basePrice: null },
      source: 'firebase',
    });
    const response = await postRestore(admin, 'jharkhand', {
      carType: 'sedan',
      restoreVersion: 2,
      version: 3,
    });
    expect(response.statusCode).toBe(400);
    const message = m.ratesRestoreIncomplete({ version: 2, type: carTypeLabel('sedan') });
    expect(response.json()).toEqual({
      error: message,
      code: 'VALIDATION',
      fieldErrors: { restoreVersion: [message] },
    });
    expect(await storedRates(t.db, 'jharkhand')).toEqual({ sedan: { ...BASE_RATES.sedan, version: 3 } });
  });

  it.each([
    ['the current version', { carType: 'sedan', restoreVersion: 3, version: 3 }, 'restoreVersion'],
    ['a later version', { carType: 'sedan', restoreVersion: 4, version: 3 }, 'restoreVersion'],
    ['version 0', { carType: 'sedan', restoreVersion: 0, version: 3 }, 'restoreVersion'],
    ['an unknown car type', { carType: 'bus', restoreVersion: 1, version: 3 }, 'carType'],
    ['no current version', { carType: 'sedan', restoreVersion: 1 }, 'version'],
    ['values instead of a version', { carType: 'sedan', version: 3, ...rateSet('sedan') }, '_'],
  ])('answers 400 to %s, changing nothing', async (_, body, field) => {
    await threeVersions('jharkhand');
    const response = await postRestore(admin, 'jharkhand', body);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION' });
    expect(response.json().fieldErrors).toHaveProperty(field);
    expect((await storedRates(t.db, 'jharkhand')).sedan!.version).toBe(3);
  });

  it('checks the fare band as a save does, and keeps the reason of an override', async () => {
    await threeVersions('odisha');
    const today = new Date(Date.now() + 330 * 60_000).toISOString().slice(0, 10);
    // A band of ₹30 to ₹74 for the base price: version 2 (₹75) is outside it, version 3 (₹80) too.
    const rules = await t.app.inject({
      method: 'PUT',
      url: '/api/fare-rules/odisha',
      headers: admin.headers,
      payload: {
        effectiveFrom: today,
        rules: {
          sedan: {
            notifiedBaseFare: 37,
            notifiedPerKm: 14,
            maxMultiple: 2,
            minMultiple: 0.5,
            cancellationPercent: 10,
            cancellationCap: 100,
            driverShareOwnVehicle: 80,
            driverShareCompanyVehicle: 60,
          },
        },
      },
    });
    expect(rules.statusCode, rules.body).toBe(200);

    const body = { carType: 'sedan', restoreVersion: 2, version: 3 };
    const refused = await postRestore(admin, 'odisha', body);
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json()).toMatchObject({ code: 'FARE_OUT_OF_BAND' });
    expect((await storedRates(t.db, 'odisha')).sedan!.version).toBe(3);

    const kept = await postRestore(admin, 'odisha', body, '?overrideReason=Back%20to%20the%20agreed%20fare');
    expect(kept.statusCode, kept.body).toBe(200);
    const [audit] = await t.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.resourceId, 'odisha/sedan'))
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect(audit).toMatchObject({
      action: 'restore',
      after: { basePrice: 75, restoredFromVersion: 2, overrideReason: 'Back to the agreed fare' },
    });
  });
});
