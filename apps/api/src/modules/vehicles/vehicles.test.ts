import { randomInt } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Vehicle } from '@bmet/shared/schemas/vehicle';
import { driverDocuments, drivers, vehicleDocuments } from '../../db/schema';
import { VEHICLE_DOCUMENT_KEYS } from '@bmet/shared/constants';
import { createDriver } from '../../seed/factories';
import { fetchCsv } from '../../../test/csv-export';
import {
  auditRowsOf,
  createDriverWorld,
  getAs,
  notFoundBody,
  type DriverWorld,
  type Staff,
} from '../../../test/driver-fixtures';
import { useTestApp } from '../../../test/test-app';

const t = useTestApp();
let w: DriverWorld;

/** A registration number no other test holds: a random series of three letters. */
const plate = (state = 'MH', district = '12') => {
  const letters = Array.from({ length: 3 }, () => String.fromCharCode(65 + randomInt(26))).join('');
  return `${state} ${district} ${letters} ${1000 + randomInt(9000)}`;
};
const stored = (number: string) => number.replace(/\s/g, '');

/** India's date `years` ago. */
const yearsAgo = (years: number) => {
  const today = new Date(Date.now() + 330 * 60_000).toISOString().slice(0, 10);
  return `${Number(today.slice(0, 4)) - years}${today.slice(4)}`;
};

const listOf = async (who: Staff, query: string) => {
  const response = await getAs(t, who, `/api/vehicles?${query}`);
  expect(response.statusCode, response.body).toBe(200);
  const body = response.json() as { data: Record<string, Vehicle>; total: number };
  return { vehicles: Object.values(body.data), total: body.total };
};

const send = (who: Staff, method: 'POST' | 'PATCH' | 'PUT', url: string, payload: unknown) =>
  t.app.inject({ method, url, headers: who.headers, payload: payload as Record<string, unknown> });

beforeAll(async () => {
  w = await createDriverWorld(t.db);
});

describe('vehicles from the driver app', () => {
  it("follow a driver's car details: a new number is a new vehicle and a new assignment", async () => {
    const first = plate();
    const driver = await createDriver(t.db, {
      name: `Farhan ${w.tag}`,
      franchiseId: w.franchiseA1.id,
      state: 'maharashtra',
      vehicleNumber: first.toLowerCase(),
      carBrand: 'Tata',
      carModel: 'Nexon EV',
      carYear: '2022',
      carColor: 'White',
      carType: 'suv',
    });
    const [vehicle] = (await listOf(w.franchiseA1, `driverId=${driver.id}`)).vehicles;
    expect(vehicle).toMatchObject({
      registrationNumber: stored(first),
      make: 'Tata',
      model: 'Nexon EV',
      year: 2022,
      carType: 'suv',
      driverId: driver.id,
      franchiseId: w.franchiseA1.id,
      state: 'maharashtra',
      ageFrom: 'model_year',
    });

    // The app repaints the car: the same vehicle, its colour kept up to date.
    await t.db.update(drivers).set({ carColor: 'Blue' }).where(eq(drivers.id, driver.id));
    const repainted = await getAs(t, w.franchiseA1, `/api/vehicles/${vehicle!.id}`);
    expect(repainted.json().data).toMatchObject({ colour: 'Blue', driverId: driver.id });

    // The app reports another number: a new vehicle, the first one let go.
    const second = plate();
    await t.db.update(drivers).set({ vehicleNumber: second }).where(eq(drivers.id, driver.id));
    const [now] = (await listOf(w.franchiseA1, `driverId=${driver.id}`)).vehicles;
    expect(now).toMatchObject({ registrationNumber: stored(second), driverId: driver.id });
    const earlier = (await getAs(t, w.franchiseA1, `/api/vehicles/${vehicle!.id}`)).json().data;
    expect(earlier.driverId).toBeNull();
    expect(earlier.assignments).toHaveLength(1);
    expect(earlier.assignments[0]).toMatchObject({ driverId: driver.id, source: 'app', byName: null });
    expect(earlier.assignments[0].until).not.toBeNull();
  });
});

describe('GET /api/vehicles', () => {
  it("lists the caller's vehicles only, and finds a number typed in any spacing", async () => {
    const number = plate('KA', '05');
    await createDriver(t.db, {
      name: `Girish ${w.tag}`,
      franchiseId: w.franchiseB1.id,
      state: 'karnataka',
      vehicleNumber: number,
    });
    const spaced = number.toLowerCase().replace(/ /g, '-');
    expect((await listOf(w.dealerB, `q=${spaced}`)).vehicles.map((v) => v.registrationNumber)).toEqual([
      stored(number),
    ]);
    expect((await listOf(w.admin, `q=${stored(number)}`)).total).toBe(1);
    expect((await listOf(w.dealerA, `q=${stored(number)}`)).total).toBe(0);
    expect((await listOf(w.franchiseA1, `q=${stored(number)}`)).total).toBe(0);
  });

  it('refuses a filter it does not know', async () => {
    const response = await getAs(t, w.admin, '/api/vehicles?compliance=maybe');
    expect(response.statusCode).toBe(400);
    expect((await getAs(t, w.admin, '/api/vehicles?sort=colour')).statusCode).toBe(400);
  });
});

describe('POST, PATCH and PUT /api/vehicles', () => {
  it("adds a franchise's own vehicle, checks the number, and refuses a second one", async () => {
    const number = plate();
    const created = await send(w.franchiseA2, 'POST', '/api/vehicles', {
      registrationNumber: number.toLowerCase(),
      make: 'Mahindra',
      model: 'eVerito',
      fuel: 'electric',
      owner: 'company',
      seats: 4,
      // A franchise's vehicle is its own, whatever it names.
      franchiseId: w.franchiseA1.id,
    });
    expect(created.statusCode, created.body).toBe(201);
    const vehicle = created.json().data as Vehicle;
    expect(vehicle).toMatchObject({
      registrationNumber: stored(number),
      franchiseId: w.franchiseA2.id,
      fuel: 'electric',
      owner: 'company',
      driverId: null,
      // The franchise's state, none being named.
      state: 'maharashtra',
    });
    const [audit] = await auditRowsOf(t.db, 'vehicles', vehicle.id);
    expect(audit).toMatchObject({ action: 'create', actorId: w.franchiseA2.id });

    const again = await send(w.admin, 'POST', '/api/vehicles', { registrationNumber: number });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      code: 'CONFLICT',
      error: 'A vehicle with this registration number is already registered.',
    });

    const wrong = await send(w.franchiseA2, 'POST', '/api/vehicles', { registrationNumber: 'ABC' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().fieldErrors).toEqual({
      registrationNumber: ['Enter a registration number such as MH 12 AB 1234 or 22 BH 1234 AA.'],
    });
    const bharat = await send(w.franchiseA2, 'POST', '/api/vehicles', {
      registrationNumber: `2${randomInt(10)} BH ${1000 + randomInt(9000)} ZQ`,
    });
    expect(bharat.statusCode, bharat.body).toBe(201);
  });

  it('makes a city dealer name one of its own franchises', async () => {
    const missing = await send(w.dealerA, 'POST', '/api/vehicles', { registrationNumber: plate() });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fieldErrors).toEqual({
      franchiseId: ['Choose the franchise the vehicle works for.'],
    });
    const other = await send(w.dealerA, 'POST', '/api/vehicles', {
      registrationNumber: plate(),
      franchiseId: w.franchiseB1.id,
    });
    expect(other.statusCode).toBe(400);
    const own = await send(w.dealerA, 'POST', '/api/vehicles', {
      registrationNumber: plate(),
      franchiseId: w.franchiseA1.id,
    });
    expect(own.statusCode, own.body).toBe(201);
    expect(own.json().data.franchiseName).toBe(`Pune ${w.tag} Cabs`);
  });

  it('keeps the details staff own, and counts an old vehicle not compliant', async () => {
    const created = await send(w.franchiseA1, 'POST', '/api/vehicles', {
      registrationNumber: plate(),
      year: 2024,
    });
    const id = (created.json().data as Vehicle).id;
    // New, and without a document: not compliant until its documents are in.
    expect(created.json().data.compliance).toEqual({
      compliant: false,
      problems: [],
      documents: VEHICLE_DOCUMENT_KEYS.map((document) => ({ document, problem: 'missing' })),
    });

    const old = await send(w.franchiseA1, 'PATCH', `/api/vehicles/${id}`, {
      firstRegisteredOn: yearsAgo(9),
      fuel: 'cng',
    });
    expect(old.statusCode, old.body).toBe(200);
    expect(old.json().data).toMatchObject({
      ageYears: 9,
      ageFrom: 'first_registration',
      fuel: 'cng',
      compliance: { compliant: false, problems: ['over_age'] },
    });
    const notCompliant = await listOf(w.franchiseA1, 'compliance=not_compliant&limit=200');
    expect(notCompliant.vehicles.map((v) => v.id)).toContain(id);
    const compliant = await listOf(w.franchiseA1, 'compliance=compliant&limit=200');
    expect(compliant.vehicles.map((v) => v.id)).not.toContain(id);

    const audits = await auditRowsOf(t.db, 'vehicles', id);
    expect(audits.at(-1)).toMatchObject({
      action: 'update',
      before: { firstRegisteredOn: null, fuel: null },
      after: { firstRegisteredOn: yearsAgo(9), fuel: 'cng' },
    });

    // Eight years to the day is still within the limit.
    const eight = await send(w.franchiseA1, 'PATCH', `/api/vehicles/${id}`, {
      firstRegisteredOn: yearsAgo(8),
    });
    expect(eight.json().data.compliance.problems).toEqual([]);

    // Its documents, held with it while nobody drives it, all approved: compliant, in the filter too.
    await t.db.insert(vehicleDocuments).values(
      VEHICLE_DOCUMENT_KEYS.map((key) => ({
        vehicleId: id,
        key,
        status: 'approved' as const,
        expiresOn: key === 'vehicleInsurance' ? yearsAgo(-1) : null,
      })),
    );
    const ready = await getAs(t, w.franchiseA1, `/api/vehicles/${id}`);
    expect(ready.json().data.compliance).toEqual({ compliant: true, problems: [], documents: [] });
    const nowCompliant = await listOf(w.franchiseA1, 'compliance=compliant&limit=200');
    expect(nowCompliant.vehicles.map((v) => v.id)).toContain(id);

    const bad = await send(w.franchiseA1, 'PATCH', `/api/vehicles/${id}`, { seats: 0 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fieldErrors).toEqual({ seats: ['Seats must be a whole number from 1 to 60.'] });

    const outside = await send(w.dealerB, 'PATCH', `/api/vehicles/${id}`, { seats: 5 });
    expect(outside.statusCode).toBe(404);
    expect(outside.json()).toEqual(notFoundBody);
    expect((await getAs(t, w.franchiseA2, `/api/vehicles/${id}`)).statusCode).toBe(404);
  });

  it('gives a vehicle to a driver of the caller, keeping who drove it when', async () => {
    const driver = await createDriver(t.db, {
      name: `Harsh ${w.tag}`,
      franchiseId: w.franchiseA2.id,
      state: 'maharashtra',
      vehicleNumber: plate(),
    });
    const [own] = (await listOf(w.dealerA, `driverId=${driver.id}`)).vehicles;
    const created = await send(w.dealerA, 'POST', '/api/vehicles', {
      registrationNumber: plate(),
      franchiseId: w.franchiseA1.id,
    });
    const id = (created.json().data as Vehicle).id;

    const assigned = await send(w.dealerA, 'PUT', `/api/vehicles/${id}/assignment`, { driverId: driver.id });
    expect(assigned.statusCode, assigned.body).toBe(200);
    // The vehicle now works for the driver's franchise; the driver's own is let go.
    expect(assigned.json().data).toMatchObject({ driverId: driver.id, franchiseId: w.franchiseA2.id });
    expect((await getAs(t, w.dealerA, `/api/vehicles/${own!.id}`)).json().data.driverId).toBeNull();
    const detail = (await getAs(t, w.franchiseA2, `/api/vehicles/${id}`)).json().data;
    expect(detail.assignments[0]).toMatchObject({ driverId: driver.id, source: 'staff', until: null });
    expect(detail.assignments[0].byName).toBeTruthy();
    const [audit] = (await auditRowsOf(t.db, 'vehicles', id)).slice(-1);
    expect(audit).toMatchObject({
      action: 'assign',
      before: { driverId: null },
      after: { driverId: driver.id },
    });

    const foreign = await send(w.dealerA, 'PUT', `/api/vehicles/${id}/assignment`, {
      driverId: w.drivers.b1.id,
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().error).toBe('Choose a driver you look after.');

    const none = await send(w.franchiseA2, 'PUT', `/api/vehicles/${id}/assignment`, { driverId: null });
    expect(none.json().data.driverId).toBeNull();
    const after = (await getAs(t, w.franchiseA2, `/api/vehicles/${id}`)).json().data;
    expect(after.assignments[0].until).not.toBeNull();
  });
});

describe('GET /api/vehicles/export.csv', () => {
  it("writes the caller's vehicles with their age and compliance", async () => {
    const number = plate('MH', '14');
    const created = await send(w.franchiseA1, 'POST', '/api/vehicles', {
      registrationNumber: number,
      make: 'BYD',
      fuel: 'electric',
      firstRegisteredOn: yearsAgo(10),
    });
    expect(created.statusCode, created.body).toBe(201);
    const driver = await createDriver(t.db, { name: `Mohan ${w.tag}`, franchiseId: w.franchiseA1.id });
    const vehicleId = (created.json().data as Vehicle).id;
    const given = await send(w.franchiseA1, 'PUT', `/api/vehicles/${vehicleId}/assignment`, {
      driverId: driver.id,
    });
    expect(given.statusCode, given.body).toBe(200);
    // Uploaded since the driver drives it: the vehicle's registration.
    await t.db.insert(driverDocuments).values({
      driverId: driver.id,
      key: 'rcCertificate',
      status: 'approved',
      objectKey: `images/${driver.id}/rcCertificate.jpg`,
      expiresOn: '2031-04-30',
    });
    const csv = await fetchCsv(t, `/api/vehicles/export.csv?q=${stored(number)}`, w.franchiseA1.headers);
    expect(csv.rows).toHaveLength(1);
    expect(csv.rows[0]).toMatchObject({
      'Registration number': number,
      Make: 'BYD',
      'Age (years)': '10',
      'RC Certificate': 'Approved, expires 2031-04-30',
      'Vehicle Insurance': 'Not submitted',
      'Pollution Certificate': 'Not needed for this vehicle',
      Compliance:
        'Older than 8 years; Fitness Certificate missing; Vehicle Permit missing; Vehicle Insurance missing',
    });
    const other = await fetchCsv(t, `/api/vehicles/export.csv?q=${stored(number)}`, w.dealerB.headers);
    expect(other.rows).toHaveLength(0);
  });
});
