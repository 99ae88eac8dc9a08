import { z } from 'zod';
import { ROLES } from '../constants';
import { AUDIT_ACTIONS, AUDIT_RECORD_TYPES } from '../audit-constants';
import { m } from '../paraglide/messages.js';
import { calendarDaySchema } from './common';
import { AUDIT_SORTS, sortShape } from './sort';

export {
  AUDIT_ACTIONS,
  AUDIT_RECORD_TYPES,
  type AuditAction,
  type AuditRecordType,
} from '../audit-constants';

const day = calendarDaySchema(() => m.auditDateInvalid());

/** The trail's filters, every one optional; dates are whole days in IST, both inclusive. */
export const auditFilterSchema = z.object({
  actor: z.uuid({ error: () => m.notValidId() }).optional(),
  recordType: z.enum(AUDIT_RECORD_TYPES).optional(),
  recordId: z.string().trim().min(1).max(200).optional(),
  action: z.enum(AUDIT_ACTIONS).optional(),
  from: day.optional(),
  to: day.optional(),
  /**
   * `true` includes what the system did on a person's behalf (language switches, driver device
   * tokens), hidden by default: the trail is read for what people changed.
   */
  system: z.enum(['true', 'false'], { error: () => m.mustBeTrueOrFalse() }).optional(),
});

/** A range whose end comes before its start is refused, not read as empty. */
export const inOrder = <
  T extends z.ZodObject<{ from: z.ZodOptional<z.ZodType<string>>; to: z.ZodOptional<z.ZodType<string>> }>,
>(
  schema: T,
) =>
  schema.refine(
    (query: { from?: string; to?: string }) => !query.from || !query.to || query.from <= query.to,
    {
      error: () => m.auditRangeReversed(),
      path: ['to'],
    },
  );

/** GET /api/audit: the filters and a page. */
export const auditListQuerySchema = inOrder(
  auditFilterSchema.extend({
    limit: z.coerce.number().int().min(1).max(200).default(50),
    cursor: z.string().max(500).optional(),
    ...sortShape(AUDIT_SORTS),
  }),
);
export type AuditListQuery = z.input<typeof auditListQuerySchema>;

export const auditEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  /** Who made the change; null for a change without a signed-in person (none so far). */
  actor: z.object({ id: z.uuid(), name: z.string(), email: z.string(), role: z.enum(ROLES) }).nullable(),
  /** 'firebase' for a change read from the apps' Firebase database; 'driver-app' for one a driver's phone made. */
  source: z.enum(['firebase', 'driver-app']).nullable(),
  action: z.string(),
  recordType: z.string(),
  recordId: z.string().nullable(),
  /** What the record is called now (a driver's or an account's name), when it still exists. */
  recordName: z.string().nullable(),
  /** The driver or trip the record belongs to, for a link to its screen. */
  driverId: z.uuid().nullable(),
  tripId: z.uuid().nullable(),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

/** Newest first, with the cursor of the next page. */
export const auditListResponseSchema = z.object({
  data: z.array(auditEntrySchema),
  nextCursor: z.string().nullable(),
});
export type AuditListResponse = z.infer<typeof auditListResponseSchema>;
