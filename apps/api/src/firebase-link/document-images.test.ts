import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, driverDocuments, drivers } from '../db/schema';
import { createLocalObjectStore } from '../infra/object-store';
import { useTestApp } from '../../test/test-app';
import { startFirebaseServer } from '../../test/firebase-server';
import { FirebaseLink } from './link';
import { FirebaseRestClient, resolveAddress } from './rest-client';
import { readUntil } from '../../test/read-until';

/**
 * The driver app uploads a document image to Cloud Storage and writes its download URL into the
 * driver's node: the link fetches it, checks it as an upload, stores it and sends it to review.
 */

const t = useTestApp();
let storage: Server;
let storageUrl: string;
const served = new Map<string, { body: Buffer; type: string }>();

beforeAll(async () => {
  storage = createServer((request, response) => {
    const file = served.get(request.url ?? '');
    if (!file) return response.writeHead(404).end();
    response.writeHead(200, { 'content-type': file.type, 'content-length': file.body.length }).end(file.body);
  });
  await new Promise<void>((resolve) => storage.listen(0, '127.0.0.1', resolve));
  storageUrl = `http://127.0.0.1:${(storage.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => storage.close(() => resolve())));

const scan = (colour: string) =>
  sharp({ create: { width: 320, height: 200, channels: 3, background: colour } })
    .jpeg()
    .toBuffer();

describe('document images from the driver app', () => {
  it('fetches a new image into the object store, sends it to review, and refuses what is not one', async () => {
    const uid = `drv-img-${randomUUID().slice(0, 8)}`;
    served.set(`/${uid}/aadhar-1.jpg`, { body: await scan('#3366aa'), type: 'image/jpeg' });
    served.set(`/${uid}/pan.jpg`, { body: Buffer.from('<html>not an image</html>'), type: 'image/jpeg' });
    const server = await startFirebaseServer({
      data: {
        driver: {
          [uid]: {
            name: 'Deepak Verma',
            phoneNumber: '9811111111',
            documents: { aadharCard: true, panCard: true, driverLicence: true },
            urls: {
              aadharCard: `${storageUrl}/${uid}/aadhar-1.jpg`,
              panCard: `${storageUrl}/${uid}/pan.jpg`,
              // Written by a phone: a host that is not Firebase's storage is never fetched.
              driverLicence: 'https://files.example.com/licence.jpg',
            },
          },
        },
      },
    });
    const objectStore = createLocalObjectStore(join(tmpdir(), `bmet-link-images-${randomUUID()}`));
    const link = new FirebaseLink(
      t.db,
      new FirebaseRestClient(resolveAddress(server.url), { kind: 'none' }),
      {
        logger: { info: () => {}, warn: () => {} },
        objectStore,
      },
    );
    link.start();
    try {
      const document = async (key: string) => {
        const [driver] = await t.db
          .select({ id: drivers.id })
          .from(drivers)
          .where(eq(drivers.firebaseKey, uid));
        if (!driver) return undefined;
        const [row] = await t.db
          .select()
          .from(driverDocuments)
          .where(and(eq(driverDocuments.driverId, driver.id), eq(driverDocuments.key, key)));
        return row;
      };
      const stored = await readUntil(
        () => document('aadharCard'),
        (row) => row?.firebaseUrl?.endsWith('aadhar-1.jpg') === true,
      );
      expect(stored).toMatchObject({ status: 'submitted', contentType: 'image/jpeg', reviewedBy: null });
      const image = await objectStore.get(stored!.objectKey!);
      expect((await sharp(image!.body).metadata()).width).toBe(320);
      const [audited] = await t.db
        .select({ action: auditLog.action, source: auditLog.source })
        .from(auditLog)
        .where(eq(auditLog.resourceId, `${stored!.driverId}/aadharCard`));
      expect(audited).toEqual({ action: 'upload', source: 'firebase' });

      // What is not an image, and a host that is not Firebase's: refused, said, and not stored.
      const errors = await readUntil(
        async () =>
          link
            .status()
            .lastErrors.map((error) => error.message)
            .join('\n'),
        (text) => text.includes('panCard') && text.includes('driverLicence'),
      );
      expect(errors).toMatch(/driverLicence .*files\.example\.com is not a Firebase storage host/);
      expect((await document('panCard'))?.objectKey ?? null).toBeNull();

      // Approved in the console, then replaced by the driver: the new image goes to review again.
      await t.db
        .update(driverDocuments)
        .set({ status: 'approved' })
        .where(and(eq(driverDocuments.driverId, stored!.driverId), eq(driverDocuments.key, 'aadharCard')));
      served.set(`/${uid}/aadhar-2.jpg`, { body: await scan('#aa6633'), type: 'image/jpeg' });
      server.tree.set(`driver/${uid}/urls/aadharCard`, `${storageUrl}/${uid}/aadhar-2.jpg`);
      const replaced = await readUntil(
        () => document('aadharCard'),
        (row) => row?.firebaseUrl?.endsWith('aadhar-2.jpg') === true,
      );
      expect(replaced).toMatchObject({ status: 'submitted' });
    } finally {
      await link.stop();
      await server.close();
    }
  });
});
