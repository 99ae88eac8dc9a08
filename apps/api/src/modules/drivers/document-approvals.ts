import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { DOCUMENT_APPROVALS_MAX, documentExpires } from '@bmet/shared/document-rules';
import { AppError } from '@bmet/shared/errors';
import { m } from '@bmet/shared/paraglide/messages';
import {
  approveDocumentsBodySchema,
  approveDocumentsResponseSchema,
  type DocumentApprovalFailure,
  type DocumentRef,
} from '@bmet/shared/schemas/document-approvals';
import type { Db } from '../../db/client';
import { errorResponses } from '../../lib/error-responses';
import type { ChangeCaller } from '../../lib/scope';
import { currentUser } from '../../plugins/authentication';
import { reviewDocument } from './documents-repository';

/**
 * Approves documents one by one, each as a single review approves it: its own transaction and
 * audit row, the driver in the caller's scope, an image, still awaiting review. A document that
 * fails leaves the others approved and is answered with the reason, as a single approval would
 * have answered it. Documents that expire are refused: their approval needs a date seen and
 * entered by the reviewer (decision 015).
 */
export async function approveDocuments(
  db: Db,
  caller: ChangeCaller,
  documents: DocumentRef[],
  log: FastifyBaseLogger,
): Promise<{ approved: DocumentRef[]; failed: DocumentApprovalFailure[] }> {
  const approved: DocumentRef[] = [];
  const failed: DocumentApprovalFailure[] = [];
  for (const ref of documents) {
    if (documentExpires(ref.key)) {
      failed.push({ ...ref, error: m.documentApprovalNeedsDate(), code: 'VALIDATION' });
      continue;
    }
    try {
      const document = await reviewDocument(db, caller, {
        driverId: ref.driverId,
        key: ref.key,
        decision: { status: 'approved' },
        awaitingOnly: true,
      });
      if (document) approved.push(ref);
      else failed.push({ ...ref, error: m.notFound(), code: 'NOT_FOUND' });
    } catch (error) {
      if (error instanceof AppError) {
        failed.push({ ...ref, error: error.message, code: error.code });
        continue;
      }
      // The approvals before it are stored: the answer must still say which, so this one fails alone.
      log.error({ err: error, document: ref }, 'a document of a batch approval failed');
      failed.push({ ...ref, error: m.internal(), code: 'INTERNAL' });
    }
  }
  return { approved, failed };
}

export function registerDocumentApprovalRoutes(parent: FastifyInstance, db: Db): void {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  app.post(
    '/drivers/documents/approvals',
    {
      // Who may review one document may approve several; the scope is checked for each.
      config: { access: ['drivers', 'review'] },
      schema: {
        tags: ['drivers'],
        summary: 'Approve several documents awaiting review that need no expiry date',
        description:
          `At most ${DOCUMENT_APPROVALS_MAX} documents, each named once. Each is approved and audited as ` +
          '`PATCH /drivers/driver/{id}/documents/{key}` approves one; one that cannot be (a driver out of ' +
          "the caller's scope, no image, no longer awaiting review, a document that expires) is listed " +
          'in `failed` with the error a single approval would answer, and the others are approved.',
        body: approveDocumentsBodySchema,
        response: { 200: approveDocumentsResponseSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const caller = { id: user.id, role: user.role, requestId: request.id };
      return { data: await approveDocuments(db, caller, request.body.documents, request.log) };
    },
  );
}
