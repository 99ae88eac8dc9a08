import { randomUUID } from 'node:crypto';
import { and, asc, count, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { AppError } from '@bmet/shared/errors';
import { m } from '@bmet/shared/paraglide/messages';
import { GRIEVANCE_ATTACHMENTS_MAX, GRIEVANCE_ATTACHMENT_TYPES } from '@bmet/shared/grievance-rules';
import type { GrievanceAttachment } from '@bmet/shared/schemas/grievance';
import type { Db, DbExecutor } from '../../db/client';
import { accounts, grievanceAttachments, grievanceEvents, grievances } from '../../db/schema';
import { recordAudit } from '../../infra/audit';
import type { ObjectStore } from '../../infra/object-store';
import type { ChangeCaller, ScopeCaller } from '../../lib/scope';
import { isDocumentImageType, prepareDocumentImage } from '../drivers/document-image';
import { grievanceScope } from './repository';

export type AttachmentType = (typeof GRIEVANCE_ATTACHMENT_TYPES)[number];

export const isAttachmentType = (value: string): value is AttachmentType =>
  (GRIEVANCE_ATTACHMENT_TYPES as readonly string[]).includes(value);

/** What a PDF must not hold: it would run or open something when read. */
const ACTIVE_PDF = /\/(JavaScript|JS|Launch|EmbeddedFile|RichMedia|OpenAction|AA)\b/;

/**
 * Checks a PDF by its content: it starts as a PDF does, ends with its end-of-file marker, and
 * holds no script, launch action or embedded file (staff open these on the console's machines).
 * It is served as a download, never shown inside the console.
 */
export function checkPdf(body: Buffer): void {
  if (body.length === 0) throw new AppError('VALIDATION', m.grievanceAttachmentEmpty());
  const head = body.subarray(0, 1024).toString('latin1');
  const tail = body.subarray(Math.max(0, body.length - 1024)).toString('latin1');
  if (!/^%PDF-\d\.\d/.test(head) || !tail.includes('%%EOF')) {
    throw new AppError('VALIDATION', m.grievanceAttachmentUnreadable());
  }
  if (ACTIVE_PDF.test(body.toString('latin1'))) {
    throw new AppError('VALIDATION', m.grievanceAttachmentActivePdf());
  }
}

/** A file name as staff see it: its last part, printable, at most 120 characters. */
export function cleanFileName(raw: string | undefined, extension: string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw ?? '');
  } catch {
    decoded = '';
  }
  const name = (decoded.split(/[\\/]/).pop() ?? '')
    .replace(/[\p{Cc}\p{Cf}"<>|:*?]/gu, '')
    .trim()
    .slice(0, 120);
  return name || `attachment.${extension}`;
}

const uploader = alias(accounts, 'attachment_uploader');

export async function findAttachments(db: DbExecutor, grievanceId: string): Promise<GrievanceAttachment[]> {
  const rows = await db
    .select({
      id: grievanceAttachments.id,
      fileName: grievanceAttachments.fileName,
      contentType: grievanceAttachments.contentType,
      size: grievanceAttachments.size,
      uploadedByName: sql<string | null>`coalesce(${uploader.displayName}, ${uploader.email})`,
      uploadedAt: grievanceAttachments.uploadedAt,
    })
    .from(grievanceAttachments)
    .leftJoin(uploader, eq(uploader.id, grievanceAttachments.uploadedBy))
    .where(eq(grievanceAttachments.grievanceId, grievanceId))
    .orderBy(asc(grievanceAttachments.uploadedAt));
  return rows.map((row) => ({
    ...row,
    contentType: isAttachmentType(row.contentType) ? row.contentType : 'application/pdf',
    uploadedAt: row.uploadedAt.toISOString(),
  }));
}

async function grievanceInScope(db: DbExecutor, caller: ScopeCaller, id: string): Promise<void> {
  const [found] = await db
    .select({ id: grievances.id })
    .from(grievances)
    .where(and(eq(grievances.id, id), grievanceScope(caller)));
  if (!found) throw new AppError('NOT_FOUND', m.notFound());
}

/**
 * Checks and keeps a file for a grievance: an image is decoded and encoded again without its
 * metadata (as document images are), a PDF checked by checkPdf. The file is stored before its
 * row; a row that cannot be written leaves an unreferenced file, never a row without its file.
 */
export async function addAttachment(
  db: Db,
  store: ObjectStore,
  caller: ChangeCaller,
  input: { grievanceId: string; body: Buffer; contentType: AttachmentType; fileName: string | undefined },
): Promise<GrievanceAttachment> {
  await grievanceInScope(db, caller, input.grievanceId);
  const [held] = await db
    .select({ count: count() })
    .from(grievanceAttachments)
    .where(eq(grievanceAttachments.grievanceId, input.grievanceId));
  if ((held?.count ?? 0) >= GRIEVANCE_ATTACHMENTS_MAX) {
    throw new AppError('CONFLICT', m.grievanceAttachmentsFull({ max: GRIEVANCE_ATTACHMENTS_MAX }));
  }
  let body = input.body;
  let extension = 'pdf';
  if (isDocumentImageType(input.contentType)) {
    const image = await prepareDocumentImage(input.body, input.contentType);
    body = image.body;
    extension = image.extension;
  } else {
    checkPdf(body);
  }
  const id = randomUUID();
  const objectKey = `grievances/${input.grievanceId}/${id}.${extension}`;
  await store.put(objectKey, body, input.contentType);
  const fileName = cleanFileName(input.fileName, extension);
  await db.transaction(async (tx) => {
    await tx.insert(grievanceAttachments).values({
      id,
      grievanceId: input.grievanceId,
      objectKey,
      contentType: input.contentType,
      size: body.length,
      fileName,
      uploadedBy: caller.id,
    });
    await tx.insert(grievanceEvents).values({
      grievanceId: input.grievanceId,
      kind: 'attachment',
      text: fileName,
      by: caller.id,
    });
    await recordAudit(tx, caller, {
      action: 'upload',
      resource: 'grievances',
      resourceId: input.grievanceId,
      before: null,
      after: { attachment: fileName, contentType: input.contentType, size: body.length },
    });
  });
  const [attachment] = (await findAttachments(db, input.grievanceId)).filter((found) => found.id === id);
  return attachment!;
}

/** A grievance's file, for a caller who may see the grievance. */
export async function readAttachment(
  db: DbExecutor,
  store: ObjectStore,
  caller: ScopeCaller,
  grievanceId: string,
  attachmentId: string,
) {
  await grievanceInScope(db, caller, grievanceId);
  const [row] = await db
    .select()
    .from(grievanceAttachments)
    .where(and(eq(grievanceAttachments.id, attachmentId), eq(grievanceAttachments.grievanceId, grievanceId)));
  if (!row) throw new AppError('NOT_FOUND', m.notFound());
  const stored = await store.get(row.objectKey);
  if (!stored) throw new AppError('NOT_FOUND', m.notFound());
  return { body: Buffer.from(stored.body), contentType: row.contentType, fileName: row.fileName };
}
