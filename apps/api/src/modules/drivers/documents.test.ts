import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENT_KEYS } from '@bmet/shared/constants';
import { documentLabel } from '@bmet/shared/labels';
import { m } from '@bmet/shared/paraglide/messages';
import { DOCUMENT_IMAGE_MAX_BYTES } from '@bmet/shared/constants';
import { buildApp } from '../../app';
import { buildDocumentRow, createDriver, insertDocuments } from '../../seed/factories';
import { createLocalObjectStore, documentObjectKey } from '../../infra/object-store';
import { testAppOptions, uniqueAddress, type TestApp } from '../../../test/test-app';
import { getTestDatabase } from '../../../test/test-database';
import {
  auditRowsOf,
  createDriverWorld,
  createStaff,
  getAs,
  notFoundBody,
  type DriverWorld,
  type Staff,
} from '../../../test/driver-fixtures';

// An app of its own, on a folder this file can look into, to see what is stored.
const objectRoot = join(tmpdir(), `bmet-documents-test-${randomUUID()}`);
const objectStore = createLocalObjectStore(objectRoot);
const t = {} as TestApp;
let w: DriverWorld;

beforeAll(async () => {
  const { db } = await getTestDatabase();
  const app = await buildApp({ ...testAppOptions(db), objectStore });
  await app.ready();
  Object.assign(t, { app, db, close: () => app.close() });
  w = await createDriverWorld(db);
});
afterAll(async () => {
  await t.close?.();
  await rm(objectRoot, { recursive: true, force: true });
});

const EXIF_MARKER = 'exif-marker-gps-of-the-phone';

/** A solid image; `exif` adds a description and a GPS position, `orientation` an EXIF rotation. */
async function makeImage(
  format: 'jpeg' | 'png',
  options: { width?: number; height?: number; exif?: boolean; orientation?: number } = {},
): Promise<Buffer> {
  let image = sharp({
    create: {
      width: options.width ?? 120,
      height: options.height ?? 80,
      channels: 3,
      background: { r: 40, g: 120, b: 200 },
    },
  });
  image = format === 'jpeg' ? image.jpeg() : image.png();
  if (options.exif) {
    image = image.withExif({
      IFD0: { ImageDescription: EXIF_MARKER, Copyright: 'Driver' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '18/1 31/1 0/1' },
    });
  }
  if (options.orientation) image = image.withMetadata({ orientation: options.orientation });
  return image.toBuffer();
}

const upload = (who: Staff, driverId: string, key: string, body: Buffer | string, contentType?: string) =>
  t.app.inject({
    method: 'PUT',
    url: `/api/drivers/driver/${driverId}/documents/${key}/image`,
    headers: { ...who.headers, ...(contentType ? { 'content-type': contentType } : {}) },
    payload: body,
  });

const review = (who: Staff, driverId: string, key: string, payload: object) =>
  t.app.inject({
    method: 'PATCH',
    url: `/api/drivers/driver/${driverId}/documents/${key}`,
    headers: who.headers,
    payload,
  });

const imageUrl = (driverId: string, key: string) => `/api/drivers/driver/${driverId}/documents/${key}/image`;

describe('GET /api/drivers/driver/:id/documents', () => {
  it('lists the ten documents in order with their labels, not submitted when nothing was sent', async () => {
    const driver = await createDriver(t.db, { franchiseId: w.franchiseA1.id });
    const response = await getAs(t, w.franchiseA1, `/api/drivers/driver/${driver.id}/documents`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      data: DOCUMENT_KEYS.map((key) => ({
        key,
        label: documentLabel(key),
        status: 'not_submitted',
        hasImage: false,
        contentType: null,
        uploadedAt: null,
        reviewedAt: null,
        reviewedBy: null,
        rejectionReason: null,
        expires: [
          'driverLicence',
          'rcCertificate',
          'pollutionCertificate',
          'fitnessCertificate',
          'vehiclePermit',
        ].includes(key),
        expiresOn: null,
      })),
    });
    expect(response.json().data[8]).toMatchObject({ key: 'vehcileAudit', label: 'Vehicle Audit' });
  });

  it('shows each status with its reviewer (display name, else email) and time', async () => {
    const driver = await createDriver(t.db, { franchiseId: w.franchiseA1.id });
    const noName = await createStaff(t.db, { role: 'admin', displayName: null });
    const rows = [
      buildDocumentRow(driver.id, { key: 'panCard', status: 'approved' }, w.admin.id, 'images/x/pan.jpg', 10),
      buildDocumentRow(driver.id, { key: 'aadharCard', status: 'rejected' }, noName.id, 'images/x/a.jpg', 10),
      buildDocumentRow(driver.id, { key: 'rcCertificate', status: 'submitted' }, null, 'images/x/rc.jpg', 10),
    ];
    await insertDocuments(t.db, rows);
    const response = await getAs(t, w.dealerA, `/api/drivers/driver/${driver.id}/documents`);
    expect(response.statusCode).toBe(200);
    const byKey = Object.fromEntries(
      (response.json().data as { key: string }[]).map((document) => [document.key, document]),
    );
    expect(byKey.panCard).toEqual({
      key: 'panCard',
      label: 'PAN Card',
      status: 'approved',
      hasImage: true,
      contentType: 'image/jpeg',
      uploadedAt: rows[0]!.uploadedAt!.toISOString(),
      reviewedAt: rows[0]!.reviewedAt!.toISOString(),
      reviewedBy: { id: w.admin.id, name: w.admin.displayName },
      rejectionReason: null,
      expires: false,
      expiresOn: null,
    });
    expect(byKey.aadharCard).toMatchObject({
      status: 'rejected',
      reviewedBy: { id: noName.id, name: noName.email },
      rejectionReason: rows[1]!.rejectionReason,
    });
    expect(byKey.rcCertificate).toMatchObject({ status: 'submitted', hasImage: true, reviewedBy: null });
    expect(byKey.driverLicence).toMatchObject({ status: 'not_submitted', hasImage: false });
  });

  it.each([
    ['dealerB', 'a1'],
    ['franchiseA2', 'a1'],
    ['dealerA', 'b1'],
  ] as const)('answers a %s 404 for the documents of a driver outside its scope (%s)', async (who, key) => {
    const response = await getAs(t, w[who], `/api/drivers/driver/${w.drivers[key].id}/documents`);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual(notFoundBody);
  });
});

describe('PUT /api/drivers/driver/:id/documents/:key/image', () => {
  it('accepts a JPEG, stores it without its EXIF, and serves it only in scope', async () => {
    const driver = await createDriver(t.db, { franchiseId: w.franchiseA1.id });
    const original = await makeImage('jpeg', { exif: true });
    expect((await sharp(original).metadata()).exif).toBeDefined();
    expect(original.includes(EXIF_MARKER)).toBe(true);

    const before = Date.now();
    const response = await upload(w.franchiseA1, driver.id, 'driverLicence', original, 'image/jpeg');
    expect(response.statusCode, response.body).toBe(200);
    const { data } = response.json();
    expect(data).toEqual({
      key: 'driverLicence',
      label: 'Driver Licence',
      status: 'submitted',
      hasImage: true,
      contentType: 'image/jpeg',
      uploadedAt: expect.any(String),
      reviewedAt: null,
      reviewedBy: null,
      rejectionReason: null,
      expires: true,
      expiresOn: null,
    });
    expect(Date.parse(data.uploadedAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(existsSync(join(objectRoot, documentObjectKey(driver.id, 'driverLicence', 'jpg')))).toBe(true);

    for (const who of [w.admin, w.dealerA, w.franchiseA1]) {
      const image = await getAs(t, who, imageUrl(driver.id, 'driverLicence'));
      expect(image.statusCode).toBe(200);
      expect(image.headers['content-type']).toBe('image/jpeg');
      expect(image.headers['cache-control']).toBe('private, no-store');
      expect(image.headers['x-content-type-options']).toBe('nosniff');
      const metadata = await sharp(image.rawPayload).metadata();
      expect(metadata).toMatchObject({ format: 'jpeg', width: 120, height: 80 });
      expect(metadata.exif).toBeUndefined();
      expect(image.rawPayload.includes(EXIF_MARKER)).toBe(false);
    }
    for (const who of [w.dealerB, w.franchiseA2, w.franchiseB1]) {
      const image = await getAs(t, who, imageUrl(driver.id, 'driverLicence'));
      expect(image.statusCode).toBe(404);
      expect(image.json()).toEqual(notFoundBody);
    }

    const [audit] = await auditRowsOf(t.db, 'driver-documents', `${driver.id}/driverLicence`);
    expect(audit).toMatchObject({
      actorId: w.franchiseA1.id,
      action: 'upload',
      requestId: response.headers['x-request-id'],
      before: { status: 'not_submitted', objectKey: null },
      after: {
        status: 'submitted',
        objectKey: documentObjectKey(driver.id, 'driverLicence', 'jpg'),
        contentType: 'image/jpeg',
        uploadedAt: data.uploadedAt,
      },
    });
  });

  it('accepts a PNG (with a charset parameter) and keeps it a PNG', async () => {
    const driver = await createDriver(t.db, { franchiseId: w.franchiseA1.id });
    const response = await upload(
      w.dealerA,
      driver.id,
      'panCard',
      await makeImage('png'),
      'image/png; charset=binary',
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toMatchObject({ status: 'submitted', contentType: 'image/png' });
    const image = await getAs(t, w.admin, imageUrl(driver.id, 'panCard'));
    expect(image.headers['content-type']).toBe('image/png');
    expect((await sharp(image.rawPayload).metadata()).format).toBe('png');
  });

  it('turns an image upright by its EXIF orientation and bounds its size', async () => {
    const driver = await createDriver(t.db, { franchiseId: w.franchiseA1.id });
    const rotated = await makeImage('jpeg', { width: 120, height: 80, orientation: 6 });
    expect((await upload(w.admin, driver.id, 'identityDetail', rotated, 'image/jpeg')).statusCode).toBe(200);
    const upright = await getAs(t, w.admin, imageUrl(driver.id, 'identityDetail'));
    expect(await sharp(upright.rawPayload).metadata()).toMatchObject({ width: 80, height: 120 });

    const wide = await makeImage('png', { width: 3000, height: 1000 });
    expect((await upload(w.admin, driver.id, 'addressProof', wide, 'image/png')).statusCode).toBe(200);
    const bounded = await getAs(t, w.admin, imageUrl(driver.id, 'addressProof'));
    expect(await sharp(bounded.rawPayload).metadata()).toMatchObject({ width: 2400, height: 800 });
  });

  it('replaces an image, sends it back to review and removes the old file of another format', async () => {
    const driver = await createDriver(t.db, { franchiseId: w.franchiseA1.id });
    const first = await upload(w.admin, driver.id, 'rcCertificate', await makeImage('jpeg'), 'image/jpeg');
    expect(first.statusCode).toBe(200);
    expect(
      (await review(w.admin, driver.id, 'rcCertificate', { status: 'rejected', reason: 'Too dark' }))
        .statusCode,
    ).toBe(200);

    const second = await upload(
      w.franchiseA1,
      driver.id,
      'rcCertificate',
      await makeImage('png'),
      'image/png',
    );
    expect(second.statusCode).toBe(200);
    expect(second.json().data).toMatchObject({
      status: 'submitted',
      contentType: 'image/png',
      reviewedAt: null,
      reviewedBy: null,
      rejectionReason: null,
    });
    expect(existsSync(join(objectRoot, documentObjectKey(driver.id, 'rcCertificate', 'png')))).toBe(true);
    expect(existsSync(join(objectRoot, documentObjectKey(driver.id, 'rcCertificate', 'jpg')))).toBe(false);
    const audit = await auditRowsOf(t.db, 'driver-documents', `${driver.id}/rcCertificate`);
    expect(audit.map((row) => row.action)).toEqual(['upload', 'review', 'upload']);
    expect(audit[2]).toMatchObject({
      before: { status: 'rejected', rejectionReason: 'Too dark', reviewedBy: w.admin.id },
      after: { status: 'submitted', rejectionReason: null, reviewedBy: null },
    });
  });

  it('never removes an image that other drivers share (the demo scans)', async () => {
    const driver = await createDriver(t.db, { franchiseId: w.franchiseA1.id });
    const shared = 'images/demo/fitnessCertificate-0.jpg';
    await objectStore.put(shared, await makeImage('jpeg'), 'image/jpeg');
    await insertDocuments(t.db, [
      buildDocumentRow(driver.id, { key: 'fitnessCertificate', status: 'approved' }, w.admin.id, shared, 10),
    ]);
    const served = await getAs(t, w.franchiseA1, imageUrl(driver.id, 'fitnessCertificate'));
    expect(served.statusCode).toBe(200);
    expect(
      (await upload(w.admin, driver.id, 'fitnessCertificate', await makeImage('png'), 'image/png'))
        .statusCode,
    ).toBe(200);
    expect(existsSync(join(objectRoot, shared))).toBe(true);
  });

  it.each([
    ['text/plain', 'hello'],
    ['application/json', '{}'],
    ['image/gif', 'GIF89a'],
    ['image/jpg', 'x'],
  ])('answers 415 to Content-Type %s', async (contentType, body) => {
    const response = await upload(w.admin, w.drivers.a1.id, 'panCard', body, contentType);
    expect(response.statusCode).toBe(415);
    expect(response.json()).toEqual({ error: m.imageTypeNotAccepted(), code: 'UNSUPPORTED_MEDIA_TYPE' });
  });

  it('answers 415 to an upload without a Content-Type', async () => {
    const response = await t.app.inject({
      method: 'PUT',
      url: imageUrl(w.drivers.a1.id, 'panCard'),
      headers: w.admin.headers,
    });
    expect(response.statusCode).toBe(415);
  });

  it('answers 413 to an image over 5 MB, before reading it', async () => {
    const body = Buffer.alloc(DOCUMENT_IMAGE_MAX_BYTES + 1, 0xff);
    const response = await upload(w.admin, w.drivers.a1.id, 'panCard', body, 'image/jpeg');
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ error: m.imageTooLarge({ megabytes: 5 }), code: 'PAYLOAD_TOO_LARGE' });
  });

  it.each([
    ['random bytes', async () => randomBytes(4000)],
    ['a JPEG cut in half', async () => (await makeImage('jpeg')).subarray(0, 300)],
    [
      'a JPEG missing its end',
      async () => {
        const image = await makeImage('jpeg', { width: 400, height: 300 });
        return image.subarray(0, image.length - 200);
      },
    ],
    [
      'a GIF sent as JPEG',
      async () => Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64'),
    ],
  ])('answers 400 to %s', async (_label, make) => {
    const driver = await createDriver(t.db, { franchiseId: w.franchiseA1.id });
    const response = await upload(w.admin, driver.id, 'panCard', await make(), 'image/jpeg');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: m.imageUnreadable(), code: 'VALIDATION' });
    const documents = await getAs(t, w.admin, `/api/drivers/driver/${driver.id}/documents`);
    expect(documents.json().data[5]).toMatchObject({
      key: 'panCard',
      status: 'not_submitted',
      hasImage: false,
    });
  });

  it('answers 400 to a PNG declared as JPEG, and the reverse', async () => {
    const driver = w.drivers.a1;
    const png = await upload(w.admin, driver.id, 'panCard', await makeImage('png'), 'image/jpeg');
    expect(png.statusCode).toBe(400);
    expect(png.json()).toEqual({
      error: m.imageTypeMismatch({ detected: 'PNG', declared: 'image/jpeg' }),
      code: 'VALIDATION',
    });
    const jpeg = await upload(w.admin, driver.id, 'panCard', await makeImage('jpeg'), 'image/png');
    expect(jpeg.statusCode).toBe(400);
    expect(jpeg.json()).toEqual({
      error: m.imageTypeMismatch({ detected: 'JPEG', declared: 'image/png' }),
      code: 'VALIDATION',
    });
  });

  it('answers 400 to an empty body', async () => {
    const response = await upload(w.admin, w.drivers.a1.id, 'panCard', Buffer.alloc(0), 'image/jpeg');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: m.imageEmpty(), code: 'VALIDATION' });
  });

  it('answers 400 to an unknown document key', async () => {
    const response = await upload(
      w.admin,
      w.drivers.a1.id,
      'passport',
      await makeImage('jpeg'),
      'image/jpeg',
    );
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION', fieldErrors: { key: expect.any(Array) } });
  });

  it.each([
    ['dealerB', 'a1'],
    ['franchiseA2', 'a1'],
    ['franchiseA1', 'loose'],
    ['dealerA', 'b1'],
  ] as const)(
    'answers a %s 404 for an upload to a driver outside its scope (%s) and stores nothing',
    async (who, key) => {
      const driver = w.drivers[key];
      const response = await upload(
        w[who],
        driver.id,
        'vehiclePermit',
        await makeImage('jpeg'),
        'image/jpeg',
      );
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(notFoundBody);
      expect(existsSync(join(objectRoot, documentObjectKey(driver.id, 'vehiclePermit', 'jpg')))).toBe(false);
      expect(await auditRowsOf(t.db, 'driver-documents', `${driver.id}/vehiclePermit`)).toEqual([]);
    },
  );

  it('limits uploads to 60 a minute from one client address', async () => {
    const remoteAddress = uniqueAddress();
    const send = () =>
      t.app.inject({
        method: 'PUT',
        url: imageUrl(w.drivers.a1.id, 'panCard'),
        headers: { ...w.admin.headers, 'content-type': 'text/plain' },
        payload: 'x',
        remoteAddress,
      });
    for (let i = 0; i < 60; i++) expect((await send()).statusCode).toBe(415);
    const limited = await send();
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: 'RATE_LIMITED' });
    // Other addresses and other routes are not held back.
    expect((await getAs(t, w.admin, imageUrl(w.drivers.a1.id, 'panCard'))).statusCode).toBe(404);
  });

  it('answers 404 for an upload to a deleted driver', async () => {
    const driver = await createDriver(t.db, { franchiseId: w.franchiseA1.id, deletedAt: new Date() });
    const response = await upload(w.admin, driver.id, 'panCard', await makeImage('jpeg'), 'image/jpeg');
    expect(response.statusCode).toBe(404);
  });
});

describe('GET /api/drivers/driver/:id/documents/:key/image', () => {
  it('answers 404 when a document has no image, or its file is gone', async () => {
    const driver = await createDriver(t.db, { franchiseId: w.franchiseA1.id });
    await insertDocuments(t.db, [
      buildDocumentRow(
        driver.id,
        { key: 'panCard', status: 'approved' },
        w.admin.id,
        'images/missing/pan.jpg',
        10,
      ),
    ]);
    for (const key of ['aadharCard', 'panCard']) {
      const response = await getAs(t, w.admin, imageUrl(driver.id, key));
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(notFoundBody);
    }
  });

  it('answers 404 for the image of a deleted driver', async () => {
    const driver = await createDriver(t.db, { franchiseId: w.franchiseA1.id });
    expect(
      (await upload(w.admin, driver.id, 'panCard', await makeImage('jpeg'), 'image/jpeg')).statusCode,
    ).toBe(200);
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/drivers/driver/${driver.id}`,
      headers: w.admin.headers,
    });
    expect(deleted.statusCode).toBe(204);
    expect((await getAs(t, w.admin, imageUrl(driver.id, 'panCard'))).statusCode).toBe(404);
  });
});

describe('PATCH /api/drivers/driver/:id/documents/:key (review)', () => {
  let driver: Awaited<ReturnType<typeof createDriver>>;

  beforeAll(async () => {
    driver = await createDriver(t.db, { franchiseId: w.franchiseA1.id });
    const response = await upload(
      w.franchiseA1,
      driver.id,
      'pollutionCertificate',
      await makeImage('jpeg'),
      'image/jpeg',
    );
    expect(response.statusCode).toBe(200);
  });

  it('approves, rejects with a reason and sends back to submitted, recording who and when', async () => {
    const before = Date.now();
    const approved = await review(w.admin, driver.id, 'pollutionCertificate', {
      status: 'approved',
      expiresOn: '2099-01-31',
    });
    expect(approved.statusCode).toBe(200);
    expect(approved.json().data).toMatchObject({
      key: 'pollutionCertificate',
      status: 'approved',
      hasImage: true,
      reviewedBy: { id: w.admin.id, name: w.admin.displayName },
      rejectionReason: null,
    });
    expect(Date.parse(approved.json().data.reviewedAt)).toBeGreaterThanOrEqual(before - 1000);

    const rejected = await review(w.dealerA, driver.id, 'pollutionCertificate', {
      status: 'rejected',
      reason: '  The certificate has expired.  ',
    });
    expect(rejected.statusCode).toBe(200);
    expect(rejected.json().data).toMatchObject({
      status: 'rejected',
      reviewedBy: { id: w.dealerA.id, name: w.dealerA.displayName },
      rejectionReason: 'The certificate has expired.',
    });

    const reopened = await review(w.admin, driver.id, 'pollutionCertificate', { status: 'submitted' });
    expect(reopened.statusCode).toBe(200);
    expect(reopened.json().data).toMatchObject({
      status: 'submitted',
      reviewedBy: null,
      reviewedAt: null,
      rejectionReason: null,
    });

    const audit = await auditRowsOf(t.db, 'driver-documents', `${driver.id}/pollutionCertificate`);
    expect(audit.map((row) => [row.action, row.actorId])).toEqual([
      ['upload', w.franchiseA1.id],
      ['review', w.admin.id],
      ['review', w.dealerA.id],
      ['review', w.admin.id],
    ]);
    expect(audit[2]).toMatchObject({
      before: { status: 'approved', reviewedBy: w.admin.id, rejectionReason: null },
      after: {
        status: 'rejected',
        reviewedBy: w.dealerA.id,
        rejectionReason: 'The certificate has expired.',
      },
      requestId: rejected.headers['x-request-id'],
    });
  });

  it('refuses a rejection without a reason', async () => {
    for (const payload of [{ status: 'rejected' }, { status: 'rejected', reason: ' a ' }]) {
      const response = await review(w.admin, driver.id, 'pollutionCertificate', payload);
      expect(response.statusCode).toBe(400);
      expect(response.json().code).toBe('VALIDATION');
    }
    const unknown = await review(w.admin, driver.id, 'pollutionCertificate', { status: 'pending' });
    expect(unknown.statusCode).toBe(400);
  });

  it.each([{ status: 'approved' }, { status: 'rejected', reason: 'No image' }, { status: 'submitted' }])(
    'answers 409 to a review of a document without an image (%o)',
    async (payload) => {
      const response = await review(w.admin, driver.id, 'vehiclePermit', payload);
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({ error: m.documentHasNoImage(), code: 'CONFLICT' });
    },
  );

  it('answers a dealer 404 for a driver of another dealer', async () => {
    const response = await review(w.dealerB, driver.id, 'pollutionCertificate', { status: 'approved' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual(notFoundBody);
  });

  it('is refused to a franchise', async () => {
    const response = await review(w.franchiseA1, driver.id, 'pollutionCertificate', { status: 'approved' });
    expect(response.statusCode).toBe(403);
  });
});
