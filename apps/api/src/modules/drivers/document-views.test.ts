import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { m } from '@bmet/shared/paraglide/messages';
import type { DocumentViewsResponse } from '@bmet/shared/schemas/document-views';
import { buildApp } from '../../app';
import { documentViews } from '../../db/schema';
import { createDriver } from '../../seed/factories';
import { createLocalObjectStore, documentObjectKey } from '../../infra/object-store';
import { testAppOptions, type TestApp } from '../../../test/test-app';
import { getTestDatabase } from '../../../test/test-database';
import { serveDocumentImage } from './document-views';
import {
  createDriverWorld,
  createStaff,
  getAs,
  notFoundBody,
  type DriverWorld,
  type Staff,
} from '../../../test/driver-fixtures';
import { formatIndianMoment, watermarkLines } from './watermark';

// An app of its own, on a folder this file reads back, to compare what is served with what is stored.
const objectRoot = join(tmpdir(), `bmet-document-views-test-${randomUUID()}`);
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

/** A scan-like image: light paper with dark bars, as a document photo looks. */
async function makeScan(format: 'jpeg' | 'png', width = 640, height = 400): Promise<Buffer> {
  const bars = Array.from(
    { length: 6 },
    (_, i) => `<rect x="40" y="${60 + i * 50}" width="400" height="18" fill="#333"/>`,
  );
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#f4f1e8"/>${bars.join('')}</svg>`;
  const image = sharp(Buffer.from(svg));
  return (format === 'jpeg' ? image.jpeg() : image.png()).toBuffer();
}

const imageUrl = (driverId: string, key: string) => `/api/drivers/driver/${driverId}/documents/${key}/image`;
const viewsUrl = (driverId: string, key: string, query = '') =>
  `/api/drivers/driver/${driverId}/documents/${key}/views${query}`;

async function upload(driverId: string, key: string, body: Buffer, contentType: string) {
  const response = await t.app.inject({
    method: 'PUT',
    url: imageUrl(driverId, key),
    headers: { ...w.admin.headers, 'content-type': contentType },
    payload: body,
  });
  expect(response.statusCode, response.body).toBe(200);
}

/** The bytes in the object store, as uploaded (after the upload's clean-up). */
async function stored(driverId: string, key: string, extension: 'jpg' | 'png') {
  const object = await objectStore.get(documentObjectKey(driverId, key, extension));
  return Buffer.from(object!.body);
}

/** The share of pixels that two images of one size show clearly differently (0 to 1). */
async function changedShare(a: Buffer, b: Buffer): Promise<number> {
  const [x, y] = await Promise.all([a, b].map((image) => sharp(image).removeAlpha().raw().toBuffer()));
  let changed = 0;
  for (let i = 0; i < x!.length; i += 3) {
    const most = Math.max(...[0, 1, 2].map((c) => Math.abs(x![i + c]! - y![i + c]!)));
    if (most > 24) changed++;
  }
  return changed / (x!.length / 3);
}

describe('identity document images', () => {
  let driverId: string;
  beforeAll(async () => {
    driverId = (await createDriver(t.db, { franchiseId: w.franchiseA1.id })).id;
    await upload(driverId, 'aadharCard', await makeScan('jpeg'), 'image/jpeg');
    await upload(driverId, 'panCard', await makeScan('png'), 'image/png');
  });

  it.each([
    ['aadharCard', 'jpg', 'jpeg'],
    ['panCard', 'png', 'png'],
  ] as const)(
    'serves %s with a watermark of its viewer, never the stored bytes',
    async (key, extension, format) => {
      const original = await stored(driverId, key, extension);
      const served = await Promise.all(
        [w.admin, w.dealerA, w.franchiseA1].map(async (who) => {
          const response = await getAs(t, who, imageUrl(driverId, key));
          expect(response.statusCode).toBe(200);
          expect(response.headers['content-type']).toBe(`image/${format}`);
          // One viewer's copy: no browser or proxy may keep it for anyone.
          expect(response.headers['cache-control']).toBe('private, no-store');
          return response.rawPayload;
        }),
      );
      for (const body of served) {
        expect(body.equals(original)).toBe(false);
        expect(await sharp(body).metadata()).toMatchObject({ format, width: 640, height: 400 });
        // Drawn over the image, not merely encoded again, and over a small part of it: the
        // document stays legible.
        const share = await changedShare(body, original);
        expect(share).toBeGreaterThan(0.02);
        expect(share).toBeLessThan(0.3);
      }
      // Each viewer gets a copy of its own.
      expect(served[0]!.equals(served[1]!)).toBe(false);
      expect(served[1]!.equals(served[2]!)).toBe(false);
    },
  );

  it('names the viewer (name and email, or the email alone) and the time in India', () => {
    const at = new Date('2026-11-24T15:35:00Z');
    expect(formatIndianMoment(at)).toBe('24/11/2026, 9:05 pm IST');
    expect(watermarkLines({ displayName: 'Meera Iyer', email: 'meera@x.in' }, at)).toEqual([
      'Meera Iyer',
      'meera@x.in',
      '24/11/2026, 9:05 pm IST',
    ]);
    expect(watermarkLines({ displayName: null, email: 'meera@x.in' }, at)).toEqual([
      'meera@x.in',
      '24/11/2026, 9:05 pm IST',
    ]);
  });

  it('draws a name that looks like markup as text', async () => {
    const sly = await createStaff(t.db, {
      role: 'admin',
      displayName: '<image href="file:///etc/passwd"/> & "x"',
    });
    const response = await getAs(t, sly, imageUrl(driverId, 'aadharCard'));
    expect(response.statusCode).toBe(200);
    expect((await sharp(response.rawPayload).metadata()).format).toBe('jpeg');
  });
});

describe('other document images', () => {
  it('are served as stored, byte for byte', async () => {
    const driver = await createDriver(t.db, { franchiseId: w.franchiseA1.id });
    await upload(driver.id, 'driverLicence', await makeScan('jpeg'), 'image/jpeg');
    const response = await getAs(t, w.franchiseA1, imageUrl(driver.id, 'driverLicence'));
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.equals(await stored(driver.id, 'driverLicence', 'jpg'))).toBe(true);
  });
});

describe('GET /api/drivers/driver/:id/documents/:key/views', () => {
  let driverId: string;
  const viewsAs = (who: Staff, key: string, query = '') => getAs(t, who, viewsUrl(driverId, key, query));

  beforeAll(async () => {
    driverId = (await createDriver(t.db, { franchiseId: w.franchiseA1.id })).id;
    await upload(driverId, 'aadharCard', await makeScan('jpeg'), 'image/jpeg');
    await upload(driverId, 'rcCertificate', await makeScan('jpeg'), 'image/jpeg');
  });

  it('lists every view of a document, newest first, with who and whether it was watermarked', async () => {
    const before = Date.now();
    for (const who of [w.franchiseA1, w.dealerA, w.admin]) {
      expect((await getAs(t, who, imageUrl(driverId, 'aadharCard'))).statusCode).toBe(200);
    }
    expect((await getAs(t, w.dealerA, imageUrl(driverId, 'rcCertificate'))).statusCode).toBe(200);

    const response = await viewsAs(w.franchiseA1, 'aadharCard');
    expect(response.statusCode).toBe(200);
    const body = response.json<DocumentViewsResponse>();
    expect(body.nextCursor).toBeNull();
    expect(body.data.map((view) => view.viewer)).toEqual([
      { id: w.admin.id, name: w.admin.displayName, role: 'admin' },
      { id: w.dealerA.id, name: w.dealerA.displayName, role: 'city_dealer' },
      { id: w.franchiseA1.id, name: w.franchiseA1.displayName, role: 'franchise' },
    ]);
    for (const view of body.data) expect(Date.parse(view.at)).toBeGreaterThanOrEqual(before - 1000);

    const rc = (await viewsAs(w.admin, 'rcCertificate')).json<DocumentViewsResponse>();
    expect(rc.data.map((view) => view.viewer.id)).toEqual([w.dealerA.id]);
    const flags = await t.db
      .select({ key: documentViews.key, watermarked: documentViews.watermarked })
      .from(documentViews)
      .where(eq(documentViews.driverId, driverId));
    expect(new Set(flags.map((row) => `${row.key}:${row.watermarked}`))).toEqual(
      new Set(['aadharCard:true', 'rcCertificate:false']),
    );
  });

  it('names a viewer without a name by its email', async () => {
    const nameless = await createStaff(t.db, { role: 'admin', displayName: null });
    await getAs(t, nameless, imageUrl(driverId, 'rcCertificate'));
    const [latest] = (await viewsAs(w.admin, 'rcCertificate')).json<DocumentViewsResponse>().data;
    expect(latest!.viewer).toEqual({ id: nameless.id, name: nameless.email, role: 'admin' });
  });

  it('pages newest first with a cursor, and refuses a forged one', async () => {
    const paged = (await createDriver(t.db, { franchiseId: w.franchiseA2.id })).id;
    await upload(paged, 'vehcileAudit', await makeScan('jpeg'), 'image/jpeg');
    for (let i = 0; i < 5; i++) await getAs(t, w.dealerA, imageUrl(paged, 'vehcileAudit'));
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = `?limit=2${cursor ? `&cursor=${cursor}` : ''}`;
      const response = await getAs(t, w.franchiseA2, viewsUrl(paged, 'vehcileAudit', query));
      expect(response.statusCode).toBe(200);
      const body = response.json<DocumentViewsResponse>();
      seen.push(...body.data.map((view) => view.at));
      cursor = body.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(5);
    expect([...seen].sort().reverse()).toEqual(seen);

    const forged = await getAs(t, w.admin, viewsUrl(paged, 'vehcileAudit', '?cursor=bm90LWEtY3Vyc29y'));
    expect(forged.statusCode).toBe(400);
    expect(forged.json()).toEqual({
      error: m.invalidCursor(),
      code: 'VALIDATION',
      fieldErrors: { cursor: [m.invalidCursor()] },
    });
  });

  it('answers 404 outside the caller’s scope, and 400 for an unknown document', async () => {
    for (const who of [w.dealerB, w.franchiseA2, w.franchiseB1]) {
      const response = await viewsAs(who, 'aadharCard');
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(notFoundBody);
    }
    for (const who of [w.admin, w.dealerA, w.franchiseA1]) {
      expect((await viewsAs(who, 'aadharCard')).statusCode).toBe(200);
    }
    expect((await viewsAs(w.admin, 'passport')).statusCode).toBe(400);
  });

  it('records no view when there is no image to serve, or the caller may not see it', async () => {
    const empty = (await createDriver(t.db, { franchiseId: w.franchiseA1.id })).id;
    expect((await getAs(t, w.admin, imageUrl(empty, 'panCard'))).statusCode).toBe(404);
    expect((await getAs(t, w.dealerB, imageUrl(driverId, 'aadharCard'))).statusCode).toBe(404);
    const rows = await t.db
      .select()
      .from(documentViews)
      .where(and(eq(documentViews.driverId, empty), eq(documentViews.key, 'panCard')));
    expect(rows).toEqual([]);
    const foreign = await t.db
      .select()
      .from(documentViews)
      .where(and(eq(documentViews.driverId, driverId), eq(documentViews.viewerId, w.dealerB.id)));
    expect(foreign).toEqual([]);
  });
});

describe('serveDocumentImage', () => {
  it('refuses to serve an image whose view cannot be recorded', async () => {
    const failing = {
      insert: () => ({
        values: () => Promise.reject(new Error('the database is gone')),
      }),
    } as unknown as Parameters<typeof serveDocumentImage>[0];
    await expect(
      serveDocumentImage(failing, {
        driverId: randomUUID(),
        key: 'driverLicence',
        viewer: { id: randomUUID(), email: 'a@b.in', displayName: null },
        body: await makeScan('jpeg'),
        contentType: 'image/jpeg',
      }),
    ).rejects.toThrow('the database is gone');
  });
});
