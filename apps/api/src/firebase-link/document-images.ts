import { and, eq, inArray } from 'drizzle-orm';
import { DOCUMENT_IMAGE_MAX_BYTES, STORED_DOCUMENT_KEYS } from '@bmet/shared/constants';
import type { Db } from '../db/client';
import { driverDocuments, drivers } from '../db/schema';
import { FIREBASE_ACTOR, recordAudit } from '../infra/audit';
import { documentObjectKey, type ObjectStore } from '../infra/object-store';
import { prepareDocumentImage } from '../modules/drivers/document-image';
import type { FirebaseRecord } from './apply';

/**
 * Document images the driver app uploads: it stores each in Cloud Storage and writes its download
 * URL at `driver/{uid}/urls/{document}`. A URL the console has not fetched yet is fetched, checked
 * and encoded again as an upload is, stored, and the document goes to review (audited as uploaded
 * by Firebase). One image at a time, after the records are written, so a slow download never holds
 * the stream.
 *
 * The URLs are written by the drivers' phones: only Firebase's storage hosts are fetched (and a
 * loopback one when the database itself is on loopback: the emulator, the tests), over HTTPS,
 * at most DOCUMENT_IMAGE_MAX_BYTES, within 30 s.
 */

const STORAGE_HOSTS = ['firebasestorage.googleapis.com', 'storage.googleapis.com'];
const FETCH_TIMEOUT_MS = 30_000;
const MAX_REDIRECTS = 3;

export type ImageEvents = {
  stored: (count: number) => void;
  failed: (message: string) => void;
};

export class DocumentImages {
  /** Waiting downloads, by driver and document: the newest URL of each. */
  private readonly waiting = new Map<string, { driverId: string; key: string; url: string }>();
  /** URLs that could not be used: not tried again until the driver app writes another. */
  private readonly refused = new Set<string>();
  private work: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly db: Db,
    private readonly objectStore: ObjectStore,
    private readonly databaseOrigin: string,
    private readonly events: ImageEvents,
  ) {}

  /** Looks at the `urls` of drivers just written, and fetches the ones not stored yet. */
  async notice(records: FirebaseRecord[]): Promise<void> {
    const wanted = new Map<string, Map<string, string>>();
    for (const { key, value } of records) {
      const urls = (value as { urls?: unknown } | null)?.urls;
      if (!urls || typeof urls !== 'object') continue;
      const documents = new Map<string, string>();
      for (const document of STORED_DOCUMENT_KEYS) {
        const url = (urls as Record<string, unknown>)[document];
        if (typeof url === 'string' && url.length > 0 && !this.refused.has(url)) documents.set(document, url);
      }
      if (documents.size > 0) wanted.set(key, documents);
    }
    if (wanted.size === 0) return;
    const found = await this.db
      .select({ id: drivers.id, firebaseKey: drivers.firebaseKey })
      .from(drivers)
      .where(inArray(drivers.firebaseKey, [...wanted.keys()]));
    const stored = await this.db
      .select({
        driverId: driverDocuments.driverId,
        key: driverDocuments.key,
        url: driverDocuments.firebaseUrl,
      })
      .from(driverDocuments)
      .where(
        inArray(
          driverDocuments.driverId,
          found.map((driver) => driver.id),
        ),
      );
    const have = new Set(stored.map((row) => `${row.driverId}/${row.key}/${row.url}`));
    for (const driver of found) {
      for (const [key, url] of wanted.get(driver.firebaseKey!) ?? []) {
        if (!have.has(`${driver.id}/${key}/${url}`)) {
          this.waiting.set(`${driver.id}/${key}`, { driverId: driver.id, key, url });
        }
      }
    }
    this.work = this.work.then(() => this.drain());
  }

  /** Lets the download under way end, and drops the rest (the next start notices them again). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.waiting.clear();
    await this.work;
  }

  private async drain(): Promise<void> {
    while (!this.stopped) {
      const next = this.waiting.entries().next();
      if (next.done) return;
      const [id, document] = next.value;
      this.waiting.delete(id);
      try {
        await this.store(document);
        this.events.stored(1);
      } catch (error) {
        this.refused.add(document.url);
        this.events.failed(
          `the ${document.key} image of driver ${document.driverId} was not stored: ${(error as Error).message}`,
        );
      }
    }
  }

  private async store({ driverId, key, url }: { driverId: string; key: string; url: string }): Promise<void> {
    const bytes = await this.download(url);
    const declared =
      bytes[0] === 0x89 && bytes.subarray(1, 4).toString('latin1') === 'PNG' ? 'image/png' : 'image/jpeg';
    const image = await prepareDocumentImage(bytes, declared);
    const objectKey = documentObjectKey(driverId, key, image.extension);
    await this.db.transaction(async (transaction) => {
      const tx = transaction as unknown as Db;
      const [before] = await tx
        .select()
        .from(driverDocuments)
        .where(and(eq(driverDocuments.driverId, driverId), eq(driverDocuments.key, key)))
        .for('update');
      const values = {
        objectKey,
        contentType: image.contentType,
        size: image.body.length,
        uploadedAt: new Date(),
        firebaseUrl: url,
        // A new image is a new document: it is reviewed again, its expiry entered again.
        status: 'submitted' as const,
        reviewedBy: null,
        reviewedAt: null,
        rejectionReason: null,
        expiresOn: null,
      };
      await tx
        .insert(driverDocuments)
        .values({ driverId, key, ...values })
        .onConflictDoUpdate({ target: [driverDocuments.driverId, driverDocuments.key], set: values });
      await recordAudit(tx, FIREBASE_ACTOR, {
        action: 'upload',
        resource: 'driver-documents',
        resourceId: `${driverId}/${key}`,
        before: before ? { status: before.status, size: before.size, uploadedAt: before.uploadedAt } : null,
        after: { status: values.status, size: values.size, uploadedAt: values.uploadedAt.toISOString() },
      });
      // Stored inside the transaction: a row never names an image that is not there.
      await this.objectStore.put(objectKey, image.body, image.contentType);
    });
  }

  private allowed(url: URL): boolean {
    const loopback = /^http:\/\/(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:\d+)?$/.test(this.databaseOrigin);
    if (loopback && (url.protocol === 'http:' || url.protocol === 'https:')) {
      return ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname) || url.hostname.startsWith('127.');
    }
    return (
      url.protocol === 'https:' &&
      (STORAGE_HOSTS.includes(url.hostname) || url.hostname.endsWith('.firebasestorage.app'))
    );
  }

  private async download(address: string): Promise<Buffer> {
    let url: URL;
    try {
      url = new URL(address);
    } catch {
      throw new Error('its URL is not one');
    }
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      if (!this.allowed(url)) throw new Error(`${url.host} is not a Firebase storage host`);
      const response = await fetch(url, {
        redirect: 'manual',
        signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
      });
      if (response.status >= 300 && response.status < 400 && response.headers.get('location')) {
        await response.body?.cancel();
        url = new URL(response.headers.get('location')!, url);
        continue;
      }
      if (!response.ok || !response.body) {
        await response.body?.cancel();
        throw new Error(`the storage answered ${response.status}`);
      }
      const declared = Number(response.headers.get('content-length') ?? 0);
      if (declared > DOCUMENT_IMAGE_MAX_BYTES) {
        await response.body.cancel();
        throw new Error(`it is larger than ${DOCUMENT_IMAGE_MAX_BYTES / 1024 / 1024} MB`);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of response.body) {
        size += (chunk as Uint8Array).length;
        if (size > DOCUMENT_IMAGE_MAX_BYTES)
          throw new Error(`it is larger than ${DOCUMENT_IMAGE_MAX_BYTES / 1024 / 1024} MB`);
        chunks.push(Buffer.from(chunk as Uint8Array));
      }
      return Buffer.concat(chunks);
    }
    throw new Error('too many redirects');
  }
}
