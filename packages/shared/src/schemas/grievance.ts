import { z } from 'zod';
import { m } from '../paraglide/messages.js';
import { LANGUAGES, STATES } from '../constants';
import {
  COMPLAINANT_KINDS,
  GRIEVANCE_ATTACHMENT_TYPES,
  GRIEVANCE_CATEGORIES,
  GRIEVANCE_CLOCKS,
  GRIEVANCE_PRIORITIES,
  GRIEVANCE_STATUSES,
} from '../grievance-rules';
import { calendarDaySchema, emailSchema, envelope, listTotalShape, momentSchema } from './common';
import { sortShape } from './sort';

/** The desk sorts by deadline (soonest first) unless asked otherwise. */
export const GRIEVANCE_SORTS = ['dueAt', 'receivedAt'] as const;

/** A grievance as the desk lists it. */
export const grievanceSchema = z.object({
  id: z.uuid(),
  /** What the complainant quotes: `GR-2026-000042`. */
  number: z.string(),
  status: z.enum(GRIEVANCE_STATUSES),
  category: z.enum(GRIEVANCE_CATEGORIES),
  priority: z.enum(GRIEVANCE_PRIORITIES),
  complainant: z.object({
    kind: z.enum(COMPLAINANT_KINDS),
    name: z.string(),
    phone: z.string().nullable(),
    email: z.string().nullable(),
    language: z.enum(LANGUAGES),
  }),
  /** What it is about: a trip, a driver (the trip's, when a trip is named), a customer. */
  tripId: z.uuid().nullable(),
  driverId: z.uuid().nullable(),
  driverName: z.string().nullable(),
  customerId: z.uuid().nullable(),
  customerName: z.string().nullable(),
  franchiseName: z.string().nullable(),
  /** The state whose holidays count (the driver's), else national holidays only. */
  state: z.enum(STATES).nullable(),
  description: z.string(),
  receivedAt: z.string(),
  /** 23:59 IST of the third working day after receipt (after a reopening, after that). */
  dueAt: z.string(),
  /** Where it stands against its deadline; null once resolved or closed. */
  clock: z.enum(GRIEVANCE_CLOCKS).nullable(),
  resolution: z.string().nullable(),
  resolvedAt: z.string().nullable(),
  /** Whether it was resolved by its deadline; null until resolved. */
  resolvedInTime: z.boolean().nullable(),
  loggedByName: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Grievance = z.infer<typeof grievanceSchema>;

export const GRIEVANCE_EVENT_KINDS = ['logged', 'status', 'comment', 'changed', 'attachment'] as const;

/** A step of a grievance's life, or a comment inside the team: who and when. */
export const grievanceEventSchema = z.object({
  id: z.string(),
  kind: z.enum(GRIEVANCE_EVENT_KINDS),
  /** The state it moved to (kind `status`). */
  status: z.enum(GRIEVANCE_STATUSES).nullable(),
  text: z.string().nullable(),
  byName: z.string().nullable(),
  at: z.string(),
});
export type GrievanceEvent = z.infer<typeof grievanceEventSchema>;

export const grievanceAttachmentSchema = z.object({
  id: z.uuid(),
  fileName: z.string(),
  contentType: z.enum(GRIEVANCE_ATTACHMENT_TYPES),
  size: z.number().int(),
  uploadedByName: z.string().nullable(),
  uploadedAt: z.string(),
});
export type GrievanceAttachment = z.infer<typeof grievanceAttachmentSchema>;
export const grievanceAttachmentResponseSchema = envelope(grievanceAttachmentSchema);
export const grievanceAttachmentParamsSchema = z.object({
  id: z.uuid({ error: () => m.notValidId() }),
  attachmentId: z.uuid({ error: () => m.notValidId() }),
});

export const grievanceDetailResponseSchema = envelope(
  grievanceSchema.extend({
    events: z.array(grievanceEventSchema),
    attachments: z.array(grievanceAttachmentSchema),
  }),
);
export const grievanceResponseSchema = envelope(grievanceSchema);

/** `status=unresolved` keeps those still running against their deadline. */
export const GRIEVANCE_STATUS_FILTERS = [...GRIEVANCE_STATUSES, 'unresolved'] as const;

export const grievanceListQuerySchema = z.object({
  /** Its number, the complainant's name, phone or email, or words of its description. */
  q: z.string().trim().max(100).optional(),
  status: z.enum(GRIEVANCE_STATUS_FILTERS).optional(),
  category: z.enum(GRIEVANCE_CATEGORIES).optional(),
  priority: z.enum(GRIEVANCE_PRIORITIES).optional(),
  clock: z.enum(GRIEVANCE_CLOCKS).optional(),
  driverId: z.uuid({ error: () => m.notValidId() }).optional(),
  tripId: z.uuid({ error: () => m.notValidId() }).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(500).optional(),
  ...sortShape(GRIEVANCE_SORTS),
});

export const grievanceListResponseSchema = z.object({
  data: z.record(z.string(), grievanceSchema),
  nextCursor: z.string().nullable(),
  ...listTotalShape,
});

/** The navigation's count: what needs the caller's attention. */
export const grievanceSummaryResponseSchema = envelope(
  z.object({ unresolved: z.number().int(), dueSoon: z.number().int(), overdue: z.number().int() }),
);

const requiredText = (max: number, missing: () => string) =>
  z
    .string({ error: missing })
    .trim()
    .min(1, { error: missing })
    .max(max, { error: () => m.grievanceTextTooLong({ max }) });

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, { error: () => m.grievanceTextTooLong({ max }) })
    .transform((value) => value || null)
    .nullable()
    .optional();

/** A phone number as staff type it: digits, spaces, + and dashes. */
const phoneSchema = z
  .string()
  .trim()
  .max(20, { error: () => m.grievancePhoneInvalid() })
  .refine((value) => value === '' || /^\+?[\d\s-]{6,20}$/.test(value), {
    error: () => m.grievancePhoneInvalid(),
  })
  .transform((value) => value || null)
  .nullable()
  .optional();

/** `POST /api/grievances`: logged from a call or a mail. Staff other than admins name a trip or a driver of theirs. */
export const createGrievanceBodySchema = z.strictObject({
  complainantKind: z.enum(COMPLAINANT_KINDS, { error: () => m.grievanceComplainantKindMissing() }),
  complainantName: requiredText(120, () => m.grievanceComplainantNameMissing()),
  complainantPhone: phoneSchema,
  complainantEmail: z
    .union([z.literal(''), emailSchema])
    .transform((value) => value || null)
    .nullable()
    .optional(),
  complainantLanguage: z.enum(LANGUAGES).optional(),
  tripId: z
    .uuid({ error: () => m.notValidId() })
    .nullable()
    .optional(),
  driverId: z
    .uuid({ error: () => m.notValidId() })
    .nullable()
    .optional(),
  customerId: z
    .uuid({ error: () => m.notValidId() })
    .nullable()
    .optional(),
  category: z.enum(GRIEVANCE_CATEGORIES, { error: () => m.grievanceCategoryMissing() }),
  priority: z.enum(GRIEVANCE_PRIORITIES).optional(),
  description: requiredText(4000, () => m.grievanceDescriptionMissing()),
  /** When it reached the company: now unless given (a mail read late); never in the future. */
  receivedAt: momentSchema(() => m.grievanceReceivedInvalid()).optional(),
});
export type CreateGrievanceBody = z.infer<typeof createGrievanceBodySchema>;

/** `PATCH /api/grievances/{id}`: a step (with a note), or a new category or priority. */
export const updateGrievanceBodySchema = z.strictObject({
  status: z.enum(GRIEVANCE_STATUSES).optional(),
  /** What the complainant is told; required to resolve. */
  resolution: optionalText(4000),
  note: optionalText(2000),
  category: z.enum(GRIEVANCE_CATEGORIES).optional(),
  priority: z.enum(GRIEVANCE_PRIORITIES).optional(),
});
export type UpdateGrievanceBody = z.infer<typeof updateGrievanceBodySchema>;

export const grievanceCommentBodySchema = z.strictObject({
  text: requiredText(2000, () => m.grievanceCommentMissing()),
});

/** A day off that does not count towards a deadline: national (no state) or a state's own. */
export const holidaySchema = z.object({
  id: z.string(),
  day: z.string(),
  state: z.enum(STATES).nullable(),
  name: z.string(),
});
export type Holiday = z.infer<typeof holidaySchema>;

export const holidayListQuerySchema = z.object({
  year: z.coerce.number().int().min(2000).max(2100).optional(),
});
export const holidayListResponseSchema = envelope(z.array(holidaySchema));

export const createHolidayBodySchema = z.strictObject({
  day: calendarDaySchema(() => m.holidayDayInvalid()),
  state: z.enum(STATES).nullable().optional(),
  name: requiredText(80, () => m.holidayNameMissing()),
});
export const holidayResponseSchema = envelope(holidaySchema);

/** The admin who answers for grievances: mailed of those due within a day and overdue. */
export const grievanceOfficerResponseSchema = envelope(
  z.object({ accountId: z.uuid().nullable(), name: z.string().nullable(), email: z.string().nullable() }),
);
/** Names the officer by email, as the admins' list (`GET /api/get-admins`) gives them; null for none. */
export const grievanceOfficerBodySchema = z.strictObject({
  email: emailSchema.nullable(),
});

export const grievanceEventResponseSchema = envelope(grievanceEventSchema);

/** A month of the reports: `2026-11`. */
export const monthSchema = z
  .string()
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/, { error: () => m.grievanceMonthInvalid() });

export const grievanceMonthQuerySchema = z.object({ month: monthSchema.optional() });

/** Received in the month, and how those were resolved against their deadline. */
export const grievanceFiguresSchema = z.object({
  received: z.number().int(),
  resolvedInTime: z.number().int(),
  resolvedLate: z.number().int(),
  /** Still unresolved, past their deadline. */
  overdue: z.number().int(),
  /** Hours from receipt to resolution, the middle one; null when none was resolved. */
  medianHoursToResolve: z.number().nullable(),
});
export type GrievanceFigures = z.infer<typeof grievanceFiguresSchema>;

export const grievanceReportResponseSchema = envelope(
  z.object({
    month: z.string(),
    total: grievanceFiguresSchema,
    byCategory: z.array(grievanceFiguresSchema.extend({ category: z.enum(GRIEVANCE_CATEGORIES) })),
    /** Null: about no franchise's driver (a customer, a trip without a driver). */
    byFranchise: z.array(
      grievanceFiguresSchema.extend({
        franchiseId: z.uuid().nullable(),
        franchiseName: z.string().nullable(),
      }),
    ),
  }),
);

/** Why a driver needs action in a month (the guidelines' thresholds). */
export const DRIVER_ACTION_REASONS = ['complaints', 'low_ratings'] as const;

/** A driver whose complaints reach 15% of a month's rides, or whose ratings below 3 stars exceed 25% of those rated. */
export const driverNeedingActionSchema = z.object({
  driverId: z.uuid(),
  driverName: z.string(),
  franchiseName: z.string().nullable(),
  rides: z.number().int(),
  complaints: z.number().int(),
  ratings: z.number().int(),
  lowRatings: z.number().int(),
  reasons: z.array(z.enum(DRIVER_ACTION_REASONS)),
});
export type DriverNeedingAction = z.infer<typeof driverNeedingActionSchema>;

export const driversNeedingActionQuerySchema = z.object({
  month: monthSchema.optional(),
  driverId: z.uuid({ error: () => m.notValidId() }).optional(),
});
export const driversNeedingActionResponseSchema = envelope(
  z.object({ month: z.string(), drivers: z.array(driverNeedingActionSchema) }),
);
