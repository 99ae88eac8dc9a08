import { randomInt } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { VEHICLE_DOCUMENT_KEYS, type DocumentKey } from '@bmet/shared/constants';
import type { DriverDocument } from '@bmet/shared/schemas/driver';
import { driverDocuments, drivers } from '../../db/schema';
import { rowsOf } from '../../db/rows';
import { createDriver } from '../../seed/factories';
import {
  createDriverWorld,
  getAs,
  indiaDay,
  type DriverWorld,
  type Staff,
} from '../../../test/driver-fixtures';
import { useTestApp } from '../../../test/test-app';

const t = useTestApp();
let w: DriverWorld;

const plate = () => {
  const letters = Array.from({ length: 3 }, () => String.fromCharCode(65 + randomInt(26))).join('');
  return `KA 01 ${letters} ${1000 + randomInt(9000)}`;
};

const send = (who: Staff, method: 'PATCH' | 'PUT', url: string, payload: unknown) =>
  t.app.inject({ method, url, headers: who.headers, payload: payload as Record<string, unknown> });

/** A document with an image, approved by an admin until `expiresOn`. */
const approved = (driverId: string, key: DocumentKey, expiresOn: string | null) => ({
  driverId,
  key,
  status: 'approved' as const,
  objectKey: `images/${driverId}/${key}.jpg`,
  contentType: 'image/jpeg',
  size: 1000,
  uploadedAt: new Date(),
  reviewedBy: w.admin.id,
  reviewedAt: new Date(),
  expiresOn,
});

const documentsOf = async (who: Staff, driverId: string, of?: 'vehicle') => {
  const response = await getAs(t, who, `/api/drivers/driver/${driverId}/documents${of ? `?of=${of}` : ''}`);
  expect(response.statusCode, response.body).toBe(200);
  return new Map((response.json().data as DriverDocument[]).map((document) => [document.key, document]));
};

const vehicleOf = async (who: Staff, driverId: string) => {
  const response = await getAs(t, who, `/api/vehicles?driverId=${driverId}`);
  return Object.values(response.json().data as Record<string, { id: string }>)[0]!;
};

beforeAll(async () => {
  w = await createDriverWorld(t.db);
});

describe("a vehicle's documents", () => {
  it('names the same documents in the database as the code does', async () => {
    const [row] = rowsOf(await t.db.execute(sql`select vehicle_document_keys() as keys`));
    expect(row?.keys).toEqual([...VEHICLE_DOCUMENT_KEYS]);
  });

  it('travel with the vehicle to its next driver, reviews and expiry kept', async () => {
    const first = await createDriver(t.db, {
      name: `Imran ${w.tag}`,
      franchiseId: w.franchiseA1.id,
      state: 'karnataka',
      vehicleNumber: plate(),
    });
    const second = await createDriver(t.db, {
      name: `Joseph ${w.tag}`,
      franchiseId: w.franchiseA1.id,
      state: 'karnataka',
    });
    const expiry = indiaDay(200);
    await t.db
      .insert(driverDocuments)
      .values([
        approved(first.id, 'rcCertificate', expiry),
        approved(first.id, 'vehicleInsurance', expiry),
        approved(first.id, 'driverLicence', expiry),
      ]);
    const vehicle = await vehicleOf(w.franchiseA1, first.id);

    // The vehicle's page shows its documents; the driver's ten rows keep the registration.
    const detail = (await getAs(t, w.franchiseA1, `/api/vehicles/${vehicle.id}`)).json().data;
    expect(detail.documents.map((d: DriverDocument) => d.key)).toEqual([...VEHICLE_DOCUMENT_KEYS]);
    expect(detail.documents[0]).toMatchObject({
      key: 'rcCertificate',
      status: 'approved',
      expiresOn: expiry,
    });
    expect((await documentsOf(w.franchiseA1, first.id)).get('rcCertificate')?.status).toBe('approved');

    const moved = await send(w.franchiseA1, 'PUT', `/api/vehicles/${vehicle.id}/assignment`, {
      driverId: second.id,
    });
    expect(moved.statusCode, moved.body).toBe(200);

    // The registration and the insurance went with the vehicle; the licence stayed with its driver.
    const firstNow = await documentsOf(w.franchiseA1, first.id);
    expect(firstNow.get('rcCertificate')?.status).toBe('not_submitted');
    expect(firstNow.get('driverLicence')?.status).toBe('approved');
    const secondNow = await documentsOf(w.franchiseA1, second.id, 'vehicle');
    expect(secondNow.get('rcCertificate')).toMatchObject({
      status: 'approved',
      expiresOn: expiry,
      hasImage: true,
      reviewedBy: { id: w.admin.id },
    });
    expect(secondNow.get('vehicleInsurance')?.status).toBe('approved');

    // The first driver is now missing the vehicle's documents in the compliance reasons.
    const firstDriver = (await getAs(t, w.franchiseA1, `/api/drivers/driver/${first.id}`)).json().data;
    expect(firstDriver.compliance.problems).toContainEqual({ document: 'rcCertificate', problem: 'missing' });

    // Nobody drives it: the documents stay with the vehicle, shown on its page.
    await send(w.franchiseA1, 'PUT', `/api/vehicles/${vehicle.id}/assignment`, { driverId: null });
    expect((await documentsOf(w.franchiseA1, second.id, 'vehicle')).get('rcCertificate')?.status).toBe(
      'not_submitted',
    );
    const parked = (await getAs(t, w.franchiseA1, `/api/vehicles/${vehicle.id}`)).json().data;
    expect(parked.documents[0]).toMatchObject({
      key: 'rcCertificate',
      status: 'approved',
      expiresOn: expiry,
    });

    // Given back to its first driver: the documents come back with it.
    await send(w.franchiseA1, 'PUT', `/api/vehicles/${vehicle.id}/assignment`, { driverId: first.id });
    expect((await documentsOf(w.franchiseA1, first.id)).get('rcCertificate')?.status).toBe('approved');
  });

  it('stay with the old vehicle when the app reports a new number, and the insurance is reviewed like the rest', async () => {
    const oldNumber = plate();
    const driver = await createDriver(t.db, {
      name: `Kiran ${w.tag}`,
      franchiseId: w.franchiseA1.id,
      state: 'karnataka',
      vehicleNumber: oldNumber,
    });
    await t.db.insert(driverDocuments).values([approved(driver.id, 'fitnessCertificate', indiaDay(90))]);
    const old = await vehicleOf(w.franchiseA1, driver.id);
    await t.db.update(drivers).set({ vehicleNumber: plate() }).where(eq(drivers.id, driver.id));

    expect((await documentsOf(w.franchiseA1, driver.id)).get('fitnessCertificate')?.status).toBe(
      'not_submitted',
    );
    const parked = (await getAs(t, w.franchiseA1, `/api/vehicles/${old.id}`)).json().data;
    expect(parked.driverId).toBeNull();
    expect(parked.documents[1]).toMatchObject({ key: 'fitnessCertificate', status: 'approved' });

    // The app uploads the new vehicle's insurance: it is reviewed through the driver, with its expiry.
    await t.db.insert(driverDocuments).values({
      driverId: driver.id,
      key: 'vehicleInsurance',
      status: 'submitted',
      objectKey: `images/${driver.id}/vehicleInsurance.jpg`,
      contentType: 'image/jpeg',
      size: 1000,
      uploadedAt: new Date(),
    });
    const noDate = await send(
      w.dealerA,
      'PATCH',
      `/api/drivers/driver/${driver.id}/documents/vehicleInsurance`,
      {
        status: 'approved',
      },
    );
    expect(noDate.statusCode).toBe(400);
    const review = await send(
      w.dealerA,
      'PATCH',
      `/api/drivers/driver/${driver.id}/documents/vehicleInsurance`,
      {
        status: 'approved',
        expiresOn: indiaDay(365),
      },
    );
    expect(review.statusCode, review.body).toBe(200);
    expect(review.json().data).toMatchObject({ key: 'vehicleInsurance', status: 'approved', expires: true });
    const current = await vehicleOf(w.franchiseA1, driver.id);
    const detail = (await getAs(t, w.franchiseA1, `/api/vehicles/${current.id}`)).json().data;
    expect(detail.documents[4]).toMatchObject({
      key: 'vehicleInsurance',
      status: 'approved',
      label: 'Vehicle Insurance',
    });
  });
});
