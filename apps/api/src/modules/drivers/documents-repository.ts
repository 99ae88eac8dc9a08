import { and, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { DOCUMENT_KEYS, VEHICLE_DOCUMENT_KEYS, type DocumentKey } from '@bmet/shared/constants';
import { documentExpires } from '@bmet/shared/document-rules';
import { AppError } from '@bmet/shared/errors';
import { m } from '@bmet/shared/paraglide/messages';
import type { DriverDocument } from '@bmet/shared/schemas/driver';
import type { Db, DbExecutor } from '../../db/client';
import { accounts, driverDocuments, vehicleDocuments } from '../../db/schema';
import { recordAudit } from '../../infra/audit';
import { indianToday } from '../../lib/ist-days';
import { documentLabel } from '@bmet/shared/labels';
import { actorOf, lockDriver } from './repository';
import type { ChangeCaller } from '../../lib/scope';

/** A driver's documents: their rows, images and reviews. */

const reviewer = alias(accounts, 'reviewer');

const documentColumns = {
  key: driverDocuments.key,
  status: driverDocuments.status,
  objectKey: driverDocuments.objectKey,
  contentType: driverDocuments.contentType,
  size: driverDocuments.size,
  uploadedAt: driverDocuments.uploadedAt,
  reviewedAt: driverDocuments.reviewedAt,
  reviewedBy: driverDocuments.reviewedBy,
  rejectionReason: driverDocuments.rejectionReason,
  expiresOn: driverDocuments.expiresOn,
  reviewerName: sql<string | null>`coalesce(${reviewer.displayName}, ${reviewer.email})`,
};

function toDocument(key: DocumentKey, row: DocumentRecord | undefined): DriverDocument {
  return {
    key,
    label: documentLabel(key),
    status: row?.status ?? 'not_submitted',
    hasImage: Boolean(row?.objectKey),
    contentType: row?.objectKey ? row.contentType : null,
    uploadedAt: row?.uploadedAt?.toISOString() ?? null,
    reviewedAt: row?.reviewedAt?.toISOString() ?? null,
    reviewedBy: row?.reviewedBy ? { id: row.reviewedBy, name: row.reviewerName ?? '' } : null,
    rejectionReason: row?.rejectionReason ?? null,
    expires: documentExpires(key),
    expiresOn: row?.expiresOn ?? null,
  };
}

function selectDocuments(db: DbExecutor, driverId: string, key?: DocumentKey) {
  return db
    .select(documentColumns)
    .from(driverDocuments)
    .leftJoin(reviewer, eq(reviewer.id, driverDocuments.reviewedBy))
    .where(and(eq(driverDocuments.driverId, driverId), key ? eq(driverDocuments.key, key) : undefined));
}

type DocumentRecord = Awaited<ReturnType<typeof selectDocuments>>[number];

/**
 * The ten documents of a driver in the spec's order, 'not_submitted' where nothing was sent; with
 * `of: 'vehicle'`, the documents of the vehicle the driver drives now (decision 030).
 */
export async function findDriverDocuments(
  db: DbExecutor,
  driverId: string,
  of: 'driver' | 'vehicle' = 'driver',
): Promise<DriverDocument[]> {
  const rows = await selectDocuments(db, driverId);
  const byKey = new Map(rows.map((row) => [row.key, row]));
  return (of === 'vehicle' ? VEHICLE_DOCUMENT_KEYS : DOCUMENT_KEYS).map((key) =>
    toDocument(key, byKey.get(key)),
  );
}

/**
 * The documents of a vehicle nobody drives now, parked with it until it is given to a driver
 * (migration 0031), in VEHICLE_DOCUMENT_KEYS order.
 */
export async function findParkedDocuments(db: DbExecutor, vehicleId: string): Promise<DriverDocument[]> {
  const rows = await db
    .select({
      key: vehicleDocuments.key,
      status: vehicleDocuments.status,
      objectKey: vehicleDocuments.objectKey,
      contentType: vehicleDocuments.contentType,
      size: vehicleDocuments.size,
      uploadedAt: vehicleDocuments.uploadedAt,
      reviewedAt: vehicleDocuments.reviewedAt,
      reviewedBy: vehicleDocuments.reviewedBy,
      rejectionReason: vehicleDocuments.rejectionReason,
      expiresOn: vehicleDocuments.expiresOn,
      reviewerName: sql<string | null>`coalesce(${reviewer.displayName}, ${reviewer.email})`,
    })
    .from(vehicleDocuments)
    .leftJoin(reviewer, eq(reviewer.id, vehicleDocuments.reviewedBy))
    .where(eq(vehicleDocuments.vehicleId, vehicleId));
  const byKey = new Map(rows.map((row) => [row.key, row]));
  return VEHICLE_DOCUMENT_KEYS.map((key) => toDocument(key, byKey.get(key)));
}

export async function findDriverDocument(
  db: DbExecutor,
  driverId: string,
  key: DocumentKey,
): Promise<DriverDocument> {
  const [row] = await selectDocuments(db, driverId, key);
  return toDocument(key, row);
}

/** Where the image of a document is kept, with the type it was stored as; null when none. */
export async function findDocumentImage(db: DbExecutor, driverId: string, key: DocumentKey) {
  const [row] = await db
    .select({ objectKey: driverDocuments.objectKey, contentType: driverDocuments.contentType })
    .from(driverDocuments)
    .where(and(eq(driverDocuments.driverId, driverId), eq(driverDocuments.key, key)));
  return row?.objectKey ? { objectKey: row.objectKey, contentType: row.contentType } : null;
}

async function lockDocument(tx: DbExecutor, driverId: string, key: DocumentKey) {
  const [row] = await tx
    .select()
    .from(driverDocuments)
    .where(and(eq(driverDocuments.driverId, driverId), eq(driverDocuments.key, key)))
    .for('update');
  return row ?? null;
}

const reviewFields = (row: typeof driverDocuments.$inferSelect | null) => ({
  status: row?.status ?? 'not_submitted',
  reviewedBy: row?.reviewedBy ?? null,
  reviewedAt: row?.reviewedAt ?? null,
  rejectionReason: row?.rejectionReason ?? null,
  expiresOn: row?.expiresOn ?? null,
});

const imageFields = (row: typeof driverDocuments.$inferSelect | null) => ({
  objectKey: row?.objectKey ?? null,
  contentType: row?.contentType ?? null,
  size: row?.size ?? null,
  uploadedAt: row?.uploadedAt ?? null,
});

/**
 * Records a new image of a document: submitted for review again, the previous review cleared.
 * `storeImage` writes the bytes to the object store inside the transaction, after the rows: a
 * failed write rolls the rows back, and a failed row write leaves the previous image untouched.
 * Answers null when the driver is not in the caller's scope, else the document and the object
 * key of the previous image when it was replaced by one under another key.
 */
export async function saveDocumentImage(
  db: Db,
  caller: ChangeCaller,
  input: {
    driverId: string;
    key: DocumentKey;
    objectKey: string;
    contentType: string;
    size: number;
    storeImage: () => Promise<void>;
  },
): Promise<{ document: DriverDocument; replacedObjectKey: string | null } | null> {
  return db.transaction(async (tx) => {
    if (!(await lockDriver(tx, caller, input.driverId))) return null;
    const before = await lockDocument(tx, input.driverId, input.key);
    const image = {
      objectKey: input.objectKey,
      contentType: input.contentType,
      size: input.size,
      uploadedAt: new Date(),
    };
    // A new image is a new document: its expiry is entered again when it is reviewed.
    const review = {
      status: 'submitted' as const,
      reviewedBy: null,
      reviewedAt: null,
      rejectionReason: null,
      expiresOn: null,
    };
    await tx
      .insert(driverDocuments)
      .values({ driverId: input.driverId, key: input.key, ...image, ...review })
      .onConflictDoUpdate({
        target: [driverDocuments.driverId, driverDocuments.key],
        set: { ...image, ...review },
      });
    await recordAudit(tx, actorOf(caller), {
      action: 'upload',
      resource: 'driver-documents',
      resourceId: `${input.driverId}/${input.key}`,
      before: { ...imageFields(before), ...reviewFields(before) },
      after: { ...image, ...review },
    });
    await input.storeImage();
    const previous = before?.objectKey ?? null;
    return {
      document: await findDriverDocument(tx, input.driverId, input.key),
      replacedObjectKey: previous && previous !== input.objectKey ? previous : null,
    };
  });
}

export type ReviewDecision = (
  { status: 'approved' } | { status: 'submitted' } | { status: 'rejected'; reason: string }
) & { expiresOn?: string };

const expiryProblem = (message: string) =>
  new AppError('VALIDATION', message, { fieldErrors: { expiresOn: [message] } });

/**
 * The expiry a review leaves on a document: the one given, else the one recorded. Only documents
 * that expire carry one, and an approval needs one that has not passed (a day in India).
 */
function expiryAfterReview(
  key: DocumentKey,
  decision: ReviewDecision,
  recorded: string | null,
): string | null {
  if (!documentExpires(key)) {
    if (decision.expiresOn) throw expiryProblem(m.documentDoesNotExpire());
    return null;
  }
  const expiresOn = decision.expiresOn ?? recorded;
  if (decision.status === 'approved') {
    if (!expiresOn) throw expiryProblem(m.expiryDateRequired());
    if (expiresOn < indianToday()) throw expiryProblem(m.expiryDatePassed());
  }
  return expiresOn;
}

/**
 * Records a review decision on a document that has an image: approved or rejected (with its
 * reason) by the caller now, or back to submitted (awaiting review, the previous review cleared).
 * Answers null when the driver is not in the caller's scope. `awaitingOnly` refuses a document no
 * longer awaiting review (a batch approval from a list read earlier must not undo a rejection).
 */
export async function reviewDocument(
  db: Db,
  caller: ChangeCaller,
  input: { driverId: string; key: DocumentKey; decision: ReviewDecision; awaitingOnly?: boolean },
): Promise<DriverDocument | null> {
  return db.transaction(async (tx) => {
    if (!(await lockDriver(tx, caller, input.driverId))) return null;
    const before = await lockDocument(tx, input.driverId, input.key);
    if (!before?.objectKey) throw new AppError('CONFLICT', m.documentHasNoImage());
    if (input.awaitingOnly && before.status !== 'submitted') {
      throw new AppError('CONFLICT', m.documentNotAwaitingReview());
    }
    const { decision } = input;
    const expiresOn = expiryAfterReview(input.key, decision, before.expiresOn);
    const after =
      decision.status === 'submitted'
        ? { status: decision.status, reviewedBy: null, reviewedAt: null, rejectionReason: null, expiresOn }
        : {
            status: decision.status,
            reviewedBy: caller.id,
            reviewedAt: new Date(),
            rejectionReason: decision.status === 'rejected' ? decision.reason : null,
            expiresOn,
          };
    await tx
      .update(driverDocuments)
      .set(after)
      .where(and(eq(driverDocuments.driverId, input.driverId), eq(driverDocuments.key, input.key)));
    await recordAudit(tx, actorOf(caller), {
      action: 'review',
      resource: 'driver-documents',
      resourceId: `${input.driverId}/${input.key}`,
      before: reviewFields(before),
      after,
    });
    return findDriverDocument(tx, input.driverId, input.key);
  });
}
