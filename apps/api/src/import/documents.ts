import { createHash } from 'node:crypto';
import { lstat, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { STORED_DOCUMENT_KEYS } from '@bmet/shared/constants';
import type { Db } from '../db/client';
import { driverDocuments } from '../db/schema';
import { documentObjectKey, type ObjectStore } from '../infra/object-store';
import { prepareDocumentImage } from '../modules/drivers/document-image';
import type { DriverRows } from './records';
import { note, skip, type ImportReport } from './report';
import { findIdsByKey } from './upsert';

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * Whether a Firebase key can name one folder below another: none of the characters Firebase keeps
 * out of keys (. $ # [ ] /, control characters), so no `..`, no separator, nothing outside.
 */
export function isFolderName(key: string): boolean {
  return (
    key.length > 0 && /^[^./\\#$[\]]+$/.test(key) && ![...key].some((char) => char < ' ' || char === '\u007f')
  );
}

/**
 * The document images of the drivers imported, read from a copy of the bucket's folder
 * (`storage/images/{driver uid}/{document}.jpg`), checked and re-encoded as uploads are.
 */
export class DocumentImport {
  /**
   * Images stored for rows not committed yet (a section loaded in one transaction): removed if it is
   * rolled back, since the rows that would name them are gone and a new run stores them afresh.
   */
  private uncommitted: string[] = [];

  constructor(private readonly options: { storage: string; objectStore: ObjectStore; dryRun: boolean }) {}

  /**
   * The images of a batch of drivers. An image present means submitted for review; an image equal
   * to the one stored already changes nothing, and a review made in the console stays. With
   * `uncommitted`, the rows are written in a transaction still open.
   */
  async write(db: Db, report: ImportReport, read: DriverRows[], uncommitted: boolean): Promise<void> {
    const ids = await findIdsByKey(
      db,
      'drivers',
      read.map((rows) => String(rows.driver.firebase_key)),
    );
    for (const rows of read) {
      const uid = String(rows.driver.firebase_key);
      const driverId = ids.get(uid);
      if (!driverId) continue;
      const folder = await this.imageFolderOf(report, uid);
      if (folder === null) continue;
      const files = new Set(folder ? await readdir(folder).catch(() => [] as string[]) : []);
      for (const key of STORED_DOCUMENT_KEYS) {
        const file = files.has(`${key}.jpg`) ? `${key}.jpg` : files.has(`${key}.jpeg`) ? `${key}.jpeg` : null;
        if (!file) {
          if (rows.documents.includes(key)) {
            note(
              report,
              'documents',
              `${uid}/${key}`,
              'listed',
              'flagged as uploaded, but there is no image',
            );
          }
          continue;
        }
        const path = join(folder!, file);
        // A link could lead anywhere, another driver's image included: only plain files are read.
        if (!(await lstat(path).catch(() => null))?.isFile()) {
          skip(report, 'documents', `${uid}/${key}`, `${file} is not a plain file (a link?): not read`);
          continue;
        }
        await this.writeDocument(db, report, {
          driverId,
          reportKey: `${uid}/${key}`,
          key,
          path,
          uncommitted,
        });
      }
    }
  }

  /** The transaction that held the images' rows committed: the images are theirs for good. */
  committed(): void {
    this.uncommitted = [];
  }

  /** The transaction that held the images' rows was rolled back: the images it stored go too. */
  async rolledBack(): Promise<void> {
    const keys = this.uncommitted;
    this.uncommitted = [];
    for (const key of keys) await this.options.objectStore.delete(key).catch(() => {});
  }

  /**
   * The folder of a driver's images under `storage/images`: '' when there is none, null (reported)
   * when the driver's key cannot name a folder there (`../` segments and the like) or the folder is a
   * link. Nothing outside the storage folder is ever read.
   */
  private async imageFolderOf(report: ImportReport, uid: string): Promise<string | null> {
    const images = join(this.options.storage, 'images');
    if (!isFolderName(uid)) {
      skip(
        report,
        'documents',
        uid,
        'the driver key cannot name a folder of images: its images are not read',
      );
      return null;
    }
    const stat = await lstat(join(images, uid)).catch(() => null);
    if (!stat) return '';
    if (!stat.isDirectory()) {
      skip(report, 'documents', uid, `images/${uid} is not a plain folder (a link?): not read`);
      return null;
    }
    return join(images, uid);
  }

  private async writeDocument(
    db: Db,
    report: ImportReport,
    document: { driverId: string; reportKey: string; key: string; path: string; uncommitted: boolean },
  ) {
    const { options } = this;
    const { driverId, reportKey, key, path } = document;
    let image: Awaited<ReturnType<typeof prepareDocumentImage>>;
    try {
      image = await prepareDocumentImage(await readFile(path), 'image/jpeg');
    } catch (error) {
      return skip(report, 'documents', reportKey, `image not usable: ${(error as Error).message}`);
    }
    const objectKey = documentObjectKey(driverId, key, image.extension);
    const [existing] = await db
      .select()
      .from(driverDocuments)
      .where(and(eq(driverDocuments.driverId, driverId), eq(driverDocuments.key, key)));
    if (existing?.objectKey === objectKey && existing.status !== 'not_submitted') {
      const stored = await options.objectStore.get(objectKey);
      if (stored && sha256(stored.body) === sha256(image.body)) {
        report.counts.documents.unchanged++;
        return;
      }
    }
    if (!options.dryRun) {
      if (document.uncommitted && !existing) this.uncommitted.push(objectKey);
      await options.objectStore.put(objectKey, image.body, image.contentType);
    }
    const values = {
      status: 'submitted' as const,
      objectKey,
      contentType: image.contentType,
      size: image.body.length,
      uploadedAt: new Date(),
      reviewedBy: null,
      reviewedAt: null,
      rejectionReason: null,
    };
    await db
      .insert(driverDocuments)
      .values({ driverId, key, ...values })
      .onConflictDoUpdate({ target: [driverDocuments.driverId, driverDocuments.key], set: values });
    report.counts.documents[existing ? 'updated' : 'new']++;
  }
}
