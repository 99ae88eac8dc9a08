import { z } from 'zod';
import { STORED_DOCUMENT_KEYS, DOCUMENT_STATUSES } from '../constants';
import { DRIVER_CHECK_KINDS } from '../driver-check-rules';
import { m } from '../paraglide/messages.js';
import { COMPLIANCE_SORTS, sortShape } from './sort';

/**
 * GET /api/compliance: `within=0` lists the expired documents and checks, `within=N` those expiring
 * from today to N days on (both in India), soonest first; `status=submitted` the documents awaiting
 * review, oldest upload first.
 */
export const complianceQuerySchema = z.object({
  within: z.coerce
    .number({ error: () => m.complianceDateInvalid() })
    .int({ error: () => m.complianceDateInvalid() })
    .min(0, { error: () => m.complianceDateInvalid() })
    .max(366, { error: () => m.complianceDateInvalid() })
    .default(30),
  status: z.enum(['submitted']).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(500).optional(),
  ...sortShape(COMPLIANCE_SORTS),
});
export type ComplianceQuery = z.input<typeof complianceQuerySchema>;

export const complianceEntrySchema = z.object({
  driverId: z.uuid(),
  driverName: z.string(),
  /** The document's key, or (in the expiry views) the kind of a check that lapses on a date. */
  document: z.enum([...STORED_DOCUMENT_KEYS, ...DRIVER_CHECK_KINDS]),
  /** The document's or the check's name in the caller's language. */
  label: z.string(),
  /** The document's review status; null for a check (in force: passed, or cover held). */
  status: z.enum(DOCUMENT_STATUSES).nullable(),
  expiresOn: z.string().nullable(),
  uploadedAt: z.string().nullable(),
});
export type ComplianceEntry = z.infer<typeof complianceEntrySchema>;

export const complianceListResponseSchema = z.object({
  data: z.array(complianceEntrySchema),
  nextCursor: z.string().nullable(),
});

/** How many documents each view holds (the navigation shows expired + awaiting review). */
export const complianceSummarySchema = z.object({
  expired: z.number().int(),
  within1: z.number().int(),
  within7: z.number().int(),
  within30: z.number().int(),
  awaitingReview: z.number().int(),
});
export const complianceSummaryResponseSchema = z.object({ data: complianceSummarySchema });
export type ComplianceSummary = z.infer<typeof complianceSummarySchema>;
