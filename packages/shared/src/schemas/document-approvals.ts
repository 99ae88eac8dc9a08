import { z } from 'zod';
import { STORED_DOCUMENT_KEYS } from '../constants';
import { DOCUMENT_APPROVALS_MAX } from '../document-rules';
import { errorBodySchema } from '../errors';
import { m } from '../paraglide/messages.js';

/** One document of a driver, as a batch names it. */
export const documentRefSchema = z.object({ driverId: z.uuid(), key: z.enum(STORED_DOCUMENT_KEYS) });
export type DocumentRef = z.infer<typeof documentRefSchema>;

/**
 * POST /api/drivers/documents/approvals: documents awaiting review that need no expiry date, each
 * approved as PATCH .../documents/:key approves one, each named once.
 */
export const approveDocumentsBodySchema = z.object({
  documents: z
    .array(documentRefSchema)
    .min(1, { error: () => m.documentApprovalsNone() })
    .max(DOCUMENT_APPROVALS_MAX, {
      error: () => m.documentApprovalsTooMany({ max: DOCUMENT_APPROVALS_MAX }),
    })
    .refine((refs) => new Set(refs.map((ref) => `${ref.driverId}/${ref.key}`)).size === refs.length, {
      error: () => m.documentApprovalsRepeated(),
    }),
});
export type ApproveDocumentsBody = z.input<typeof approveDocumentsBodySchema>;

/** A document a batch did not approve, with the reason a single approval would have answered. */
export const documentApprovalFailureSchema = documentRefSchema.extend({
  error: errorBodySchema.shape.error,
  code: errorBodySchema.shape.code,
});
export type DocumentApprovalFailure = z.infer<typeof documentApprovalFailureSchema>;

/** What a batch did: the documents approved, and the others with why, each in the order asked. */
export const approveDocumentsResponseSchema = z.object({
  data: z.object({
    approved: z.array(documentRefSchema),
    failed: z.array(documentApprovalFailureSchema),
  }),
});
