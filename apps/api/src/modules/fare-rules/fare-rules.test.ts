import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { State } from '@bmet/shared/constants';
import type { FareRuleInput, StateFareRules } from '@bmet/shared/schemas/fare-rule';
import { auditLog, driverWalletEntries, trips } from '../../db/schema';
import { createDriver } from '../../seed/factories';
import { useTestApp } from '../../../test/test-app';
import {
  createStaff,
  putRates,
  rateSet,
  resetState,
  storedRates,
  type Staff,
} from '../../../test/car-rate-fixtures';
import { fetchCsv } from '../../../test/csv-export';

const t = useTestApp();
let admin: Staff;
let dealer: Staff;
let franchise: Staff;

beforeAll(async () => {
  admin = await createStaff(t.db, { role: 'admin', displayName: 'Fares Admin' });
  dealer = await createStaff(t.db, { role: 'city_dealer', state: 'tripura' });
  franchise = await createStaff(t.db, { role: 'franchise', state: 'tripura', dealerId: dealer.id });
});

/** India's date `days` from today. */
const indiaDay = (days = 0) =>
  new Date(Date.now() + 330 * 60_000 + days * 86_400_000).toISOString().slice(0, 10);

/** Sedan rules with a notified fare of ₹60 base and ₹14 per km, the guidelines' band. */
const sedanRules = (changes: Partial<FareRuleInput> = {}): FareRuleInput => ({
  notifiedBaseFare: 60,
  notifiedPerKm: 14,
  maxMultiple: 2,
  minMultiple: 0.5,
  cancellationPercent: 10,
  cancellationCap: 100,
  driverShareOwnVehicle: 80,
  driverShareCompanyVehicle: 60,
  ...changes,
});

const putRules = (who: Staff | null, state: string, body: unknown) =>
  t.app.inject({
    method: 'PUT',
    url: `/api/fare-rules/${encodeURIComponent(state)}`,
    headers: who?.headers ?? {},
    payload: body as Record<string, unknown>,
  });

async function rulesOf(state: State): Promise<StateFareRules> {
  const response = await t.app.inject({ method: 'GET', url: '/api/fare-rules', headers: admin.headers });
  expect(response.statusCode).toBe(200);
  return (response.json() as { data: StateFareRules[] }).data.find((entry) => entry.state === state)!;
}

describe('fare rules', () => {
  it('are the admin’s alone', async () => {
    for (const [who, status] of [
      [null, 401],
      [dealer, 403],
      [franchise, 403],
    ] as const) {
      expect(
        (await t.app.inject({ method: 'GET', url: '/api/fare-rules', headers: who?.headers ?? {} }))
          .statusCode,
      ).toBe(status);
      expect(
        (await putRules(who, 'tripura', { effectiveFrom: indiaDay(), rules: { sedan: sedanRules() } }))
          .statusCode,
      ).toBe(status);
      expect(
        (await t.app.inject({ method: 'GET', url: '/api/fare-rules/report', headers: who?.headers ?? {} }))
          .statusCode,
      ).toBe(status);
    }
  });

  it('answer the guidelines’ defaults where a state notified nothing, and its own band where it did', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/fare-rules', headers: admin.headers });
    const states = (response.json() as { data: StateFareRules[] }).data;
    expect(states).toHaveLength(30);
    const mizoram = states.find((entry) => entry.state === 'mizoram')!;
    expect(mizoram.rules.auto).toEqual({
      notifiedBaseFare: null,
      notifiedPerKm: null,
      maxMultiple: 2,
      minMultiple: 0.5,
      cancellationPercent: 10,
      cancellationCap: 100,
      driverShareOwnVehicle: 80,
      driverShareCompanyVehicle: 60,
      effectiveFrom: null,
    });
    expect(states.find((entry) => entry.state === 'karnataka')!.rules.mini).toMatchObject({
      maxMultiple: 1,
      minMultiple: 1,
    });
  });

  it('are saved from a day on, versioned and audited, and later days wait their turn', async () => {
    const today = indiaDay();
    const saved = await putRules(admin, 'sikkim', { effectiveFrom: today, rules: { sedan: sedanRules() } });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((saved.json() as { data: StateFareRules }).data.rules.sedan).toMatchObject({
      notifiedBaseFare: 60,
      effectiveFrom: today,
    });

    const later = indiaDay(10);
    await putRules(admin, 'sikkim', {
      effectiveFrom: later,
      rules: { sedan: sedanRules({ notifiedBaseFare: 80 }) },
    });
    const sikkim = await rulesOf('sikkim');
    expect(sikkim.rules.sedan).toMatchObject({ notifiedBaseFare: 60 });
    expect(sikkim.scheduled).toEqual([
      { effectiveFrom: later, rules: { sedan: expect.objectContaining({ notifiedBaseFare: 80 }) } },
    ]);
    const audit = await t.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.resourceId, 'sikkim/sedan'))
      .orderBy(auditLog.id);
    expect(audit.map((row) => [row.action, row.resource, row.actorId])).toEqual([
      ['update', 'fare-rules', admin.id],
      ['update', 'fare-rules', admin.id],
    ]);
    expect(audit[1]!.after).toMatchObject({ notifiedBaseFare: 80, effectiveFrom: later });
  });

  it('refuse what is not a rule, and change nothing', async () => {
    const cases = [
      { effectiveFrom: '2026-02-30', rules: { sedan: sedanRules() } },
      { effectiveFrom: indiaDay(), rules: {} },
      {
        effectiveFrom: indiaDay(),
        rules: { sedan: sedanRules({ minMultiple: 1, maxMultiple: 1.5, notifiedPerKm: -1 }) },
      },
      { effectiveFrom: indiaDay(), rules: { sedan: { ...sedanRules(), maxMultiple: undefined } } },
      { effectiveFrom: indiaDay(), rules: { rocket: sedanRules() } },
    ];
    for (const body of cases) {
      const response = await putRules(admin, 'nagaland', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json()).toMatchObject({ code: 'VALIDATION', error: expect.any(String) });
    }
    expect(
      (await putRules(admin, 'atlantis', { effectiveFrom: indiaDay(), rules: { sedan: sedanRules() } }))
        .statusCode,
    ).toBe(400);
    expect((await rulesOf('nagaland')).rules.sedan.effectiveFrom).toBeNull();
  });
});

describe('the fare band on rates', () => {
  it('refuses rates outside the band, naming the field and the range, unless an admin says why', async () => {
    await resetState(t.db, 'manipur', ['sedan']);
    await putRules(admin, 'manipur', { effectiveFrom: indiaDay(), rules: { sedan: sedanRules() } });
    const stored = await storedRates(t.db, 'manipur');

    // ₹150 base at a rush hour of ×1.5 is ₹225, above 2 × ₹60.
    const tooDear = {
      sedan: rateSet('sedan', { basePrice: 150, rushHour: 1.5, version: stored.sedan!.version }),
    };
    const refused = await putRates(t, admin, 'manipur', tooDear);
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toEqual({
      code: 'FARE_OUT_OF_BAND',
      error:
        'Base price of Sedan is outside the fare band of Manipur: allowed ₹30.00 to ₹80.00, at rush hour (×1.5) included.',
      fieldErrors: { 'sedan.basePrice': [expect.stringContaining('₹30.00 to ₹80.00')] },
    });
    expect((await storedRates(t.db, 'manipur')).sedan!.version).toBe(stored.sedan!.version);

    const kept = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/updateRates/manipur?overrideReason=Festival%20fares%20agreed%20with%20the%20RTO',
      headers: admin.headers,
      payload: tooDear,
    });
    expect(kept.statusCode, kept.body).toBe(200);
    const [audit] = await t.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.resourceId, 'manipur/sedan'))
      .orderBy(sql`${auditLog.id} desc`)
      .limit(1);
    expect(audit!.after).toMatchObject({
      basePrice: 150,
      overrideReason: 'Festival fares agreed with the RTO',
    });

    // Within the band: saved without a word.
    const fair = {
      sedan: rateSet('sedan', { basePrice: 70, rushHour: 1.2, version: stored.sedan!.version + 1 }),
    };
    expect((await putRates(t, admin, 'manipur', fair)).statusCode).toBe(200);
  });

  it('reports rates outside their band today, and drivers whose commission passed the cap', async () => {
    await resetState(t.db, 'meghalaya', ['sedan', 'mini']);
    await putRules(admin, 'meghalaya', {
      effectiveFrom: indiaDay(),
      rules: {
        sedan: sedanRules({ notifiedBaseFare: 20 }),
        mini: sedanRules({ notifiedBaseFare: 50, notifiedPerKm: 12 }),
      },
    });
    // A driver of Meghalaya: ₹1,000 of fares this month, ₹300 of commission (more than 20%).
    const driver = await createDriver(t.db, {
      state: 'meghalaya',
      carType: 'sedan',
      name: 'Commission Heavy',
    });
    const now = new Date();
    await t.db
      .insert(trips)
      .values({ title: 'Fare trip', driverId: driver.id, status: 'completed', price: 1000, createdAt: now });
    await t.db.insert(driverWalletEntries).values({
      driverId: driver.id,
      firebaseKey: `${driver.id}/commission`,
      kind: 'Ride Accepted',
      amount: 300,
      credit: false,
      createdAt: now,
    });

    const response = await t.app.inject({
      method: 'GET',
      url: '/api/fare-rules/report',
      headers: admin.headers,
    });
    expect(response.statusCode).toBe(200);
    const report = (response.json() as { data: { month: string; rates: unknown[]; commission: unknown[] } })
      .data;
    expect(report.month).toBe(indiaDay().slice(0, 7));
    // Sedan's ₹70 base at ×1.3 is ₹91, above 2 × ₹20; mini stays within its band.
    expect(report.rates.filter((rate) => (rate as { state: string }).state === 'meghalaya')).toEqual([
      {
        state: 'meghalaya',
        carType: 'sedan',
        field: 'basePrice',
        value: 70,
        rushHour: 1.3,
        allowedMin: 10,
        allowedMax: 30.77,
        source: 'console',
      },
    ]);
    expect(report.commission).toContainEqual({
      driverId: driver.id,
      driverName: 'Commission Heavy',
      state: 'meghalaya',
      month: report.month,
      fares: 1000,
      commission: 300,
      capPercent: 20,
    });

    const csv = await fetchCsv(t, '/api/fare-rules/report.csv?lang=en', admin.headers);
    expect(csv.rows).toContainEqual(
      expect.objectContaining({
        State: 'Meghalaya',
        'Car type': 'Sedan',
        Field: 'Base price',
        'Value (₹)': '70.00',
        'Allowed up to (₹)': '30.77',
      }),
    );
    expect(csv.rows).toContainEqual(
      expect.objectContaining({
        Driver: 'Commission Heavy',
        'Value (₹)': '300.00',
        'Allowed up to (₹)': '200.00',
      }),
    );
  });
});
