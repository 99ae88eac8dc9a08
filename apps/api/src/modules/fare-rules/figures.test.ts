import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StateComplianceFigures } from '@bmet/shared/schemas/compliance-figures';
import type { Driver } from '@bmet/shared/schemas/driver';
import type { DriverCheck } from '@bmet/shared/schemas/driver-check';
import type { Vehicle } from '@bmet/shared/schemas/vehicle';
import { MANDATORY_DOCUMENTS } from '@bmet/shared/document-rules';
import { driverDocuments, stateSettings } from '../../db/schema';
import { createDriver } from '../../seed/factories';
import {
  auditRowsOf,
  createStaff,
  getAs,
  indiaDay,
  recordChecksInOrder,
  uniqueTag,
  type Staff,
} from '../../../test/driver-fixtures';
import { useTestApp } from '../../../test/test-app';

/**
 * A state's own figures of the checks and vehicles. Chhattisgarh's, which no other test's drivers
 * or vehicles are judged by: the rows saved here are removed after the tests, as the database is
 * shared with the other files of this worker.
 */
const t = useTestApp();
const STATE = 'chhattisgarh';
const DEFAULTS = {
  inductionHours: 40,
  refresherMonths: 12,
  remedialSharePercent: 5,
  healthCover: 500_000,
  termCover: 1_000_000,
  vehicleMaxAgeYears: 8,
  electricPermitExempt: false,
};
let admin: Staff;
let dealer: Staff;
let franchise: Staff;
let tag: string;

beforeAll(async () => {
  tag = uniqueTag();
  admin = await createStaff(t.db, { role: 'admin' });
  dealer = await createStaff(t.db, { role: 'city_dealer', state: STATE });
  franchise = await createStaff(t.db, { role: 'franchise', state: STATE, dealerId: dealer.id });
});

afterAll(async () => {
  await t.db
    .delete(stateSettings)
    .where(and(eq(stateSettings.state, STATE), eq(stateSettings.name, 'compliance-figures')));
});

const save = (who: Staff, body: unknown) =>
  t.app.inject({
    method: 'PUT',
    url: `/api/compliance-figures/${STATE}`,
    headers: who.headers,
    payload: body as Record<string, unknown>,
  });

describe('a state’s figures of the checks and vehicles', () => {
  it('start as the guidelines’ defaults, and only an admin changes them', async () => {
    const all = await getAs(t, admin, '/api/compliance-figures');
    expect(all.statusCode).toBe(200);
    const mine = (all.json().data as StateComplianceFigures[]).find((row) => row.state === STATE);
    expect(mine).toEqual({ state: STATE, figures: DEFAULTS, effectiveFrom: null, scheduled: [] });
    expect((await save(dealer, { effectiveFrom: indiaDay(), figures: DEFAULTS })).statusCode).toBe(403);
    expect((await getAs(t, franchise, '/api/compliance-figures')).statusCode).toBe(403);
    const bad = await save(admin, {
      effectiveFrom: indiaDay(),
      figures: { ...DEFAULTS, refresherMonths: 0 },
    });
    expect(bad.statusCode).toBe(400);
  });

  it('judge the state’s drivers and vehicles from the day they take effect', async () => {
    const driver = await createDriver(t.db, {
      name: `Kavita ${tag}`,
      franchiseId: franchise.id,
      state: STATE,
    });
    await recordChecksInOrder(t.db, driver.id);
    await t.db
      .insert(driverDocuments)
      .values(MANDATORY_DOCUMENTS.map((key) => ({ driverId: driver.id, key, status: 'approved' as const })));
    const vehicle = await t.app.inject({
      method: 'POST',
      url: '/api/vehicles',
      headers: franchise.headers,
      payload: {
        registrationNumber: `CG 04 ${tag.slice(0, 2).toUpperCase()} 4321`,
        firstRegisteredOn: indiaDay(-7 * 366),
      },
    });
    expect(vehicle.statusCode, vehicle.body).toBe(201);
    const vehicleId = (vehicle.json().data as Vehicle).id;
    const checksOf = async () =>
      Object.fromEntries(
        (
          (await getAs(t, franchise, `/api/drivers/driver/${driver.id}/checks`)).json().data as DriverCheck[]
        ).map((check) => [check.kind, check.status]),
      );
    const listed = async (query = '') =>
      Object.values(
        (await getAs(t, dealer, `/api/city_dealer?q=${tag}${query}`)).json<{ data: Record<string, Driver> }>()
          .data,
      ).map((row) => row.id);
    expect((await checksOf()).induction_training).toBe('valid');
    expect(await listed('&compliance=compliant')).toEqual([driver.id]);

    // Saved for tomorrow: nothing changes today.
    const later = await save(admin, {
      effectiveFrom: indiaDay(1),
      figures: { ...DEFAULTS, inductionHours: 50, vehicleMaxAgeYears: 6 },
    });
    expect(later.statusCode, later.body).toBe(200);
    expect(later.json().data).toMatchObject({
      effectiveFrom: null,
      scheduled: [{ effectiveFrom: indiaDay(1) }],
    });
    expect((await checksOf()).induction_training).toBe('valid');

    // From today: 40 hours of induction fall short, and a 7-year-old vehicle is too old.
    const today = await save(admin, {
      effectiveFrom: indiaDay(),
      figures: { ...DEFAULTS, inductionHours: 50, vehicleMaxAgeYears: 6 },
    });
    expect(today.json().data).toMatchObject({ effectiveFrom: indiaDay(), figures: { inductionHours: 50 } });
    expect((await checksOf()).induction_training).toBe('insufficient');
    expect(await listed('&compliance=compliant')).toEqual([]);
    expect(await listed('&compliance=not_compliant')).toEqual([driver.id]);
    const detail = (await getAs(t, franchise, `/api/drivers/driver/${driver.id}`)).json().data as Driver;
    expect(detail.compliance?.checks).toEqual([{ check: 'induction_training', problem: 'insufficient' }]);
    const old = (await getAs(t, franchise, `/api/vehicles/${vehicleId}`)).json().data as Vehicle;
    expect(old.compliance).toMatchObject({ compliant: false, problems: ['over_age'] });
    expect(old.ageLimitYears).toBe(6);
    const notCompliant = (
      await getAs(t, franchise, '/api/vehicles?compliance=not_compliant&limit=200')
    ).json();
    expect(Object.keys(notCompliant.data)).toContain(vehicleId);

    const [audit] = (await auditRowsOf(t.db, 'fare-rules', `${STATE}/compliance-figures`)).slice(-1);
    expect(audit).toMatchObject({ action: 'update', actorId: admin.id, after: { inductionHours: 50 } });
  });

  it('excuse an electric vehicle the pollution certificate, and the permit where the state says so', async () => {
    const driver = await createDriver(t.db, {
      name: `Lalit ${tag}`,
      franchiseId: franchise.id,
      state: STATE,
      vehicleNumber: `CG 07 ${tag.slice(0, 2).toUpperCase()} 9876`,
    });
    await recordChecksInOrder(t.db, driver.id);
    const held = MANDATORY_DOCUMENTS.filter(
      (key) => key !== 'pollutionCertificate' && key !== 'vehiclePermit',
    );
    await t.db
      .insert(driverDocuments)
      .values(held.map((key) => ({ driverId: driver.id, key, status: 'approved' as const })));
    const problemsOf = async () =>
      ((await getAs(t, franchise, `/api/drivers/driver/${driver.id}`)).json().data as Driver).compliance;
    const listed = async (query: string) =>
      Object.values(
        (await getAs(t, dealer, `/api/city_dealer?q=Lalit ${tag}${query}`)).json<{
          data: Record<string, Driver>;
        }>().data,
      ).map((row) => row.id);
    expect((await problemsOf())?.problems).toEqual([
      { document: 'pollutionCertificate', problem: 'missing' },
      { document: 'vehiclePermit', problem: 'missing' },
    ]);

    // Electric: no pollution certificate is needed; the permit still is.
    const [vehicle] = Object.values(
      (await getAs(t, franchise, `/api/vehicles?driverId=${driver.id}`)).json().data as Record<
        string,
        Vehicle
      >,
    );
    const electric = await t.app.inject({
      method: 'PATCH',
      url: `/api/vehicles/${vehicle!.id}`,
      headers: franchise.headers,
      payload: { fuel: 'electric' },
    });
    expect(electric.statusCode, electric.body).toBe(200);
    expect((await problemsOf())?.problems).toEqual([{ document: 'vehiclePermit', problem: 'missing' }]);
    expect(await listed('&compliance=not_compliant')).toEqual([driver.id]);

    // The state exempts electric vehicles from the permit: the driver is compliant.
    const exempt = await save(admin, {
      effectiveFrom: indiaDay(),
      figures: { ...DEFAULTS, electricPermitExempt: true },
    });
    expect(exempt.statusCode, exempt.body).toBe(200);
    expect(exempt.json().data.figures).toMatchObject({ electricPermitExempt: true });
    expect(await problemsOf()).toMatchObject({ compliant: true, problems: [] });
    expect(await listed('&compliance=compliant')).toEqual([driver.id]);
    expect(await listed('&compliance=not_compliant')).toEqual([]);
  });
});
