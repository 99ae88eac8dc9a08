import { z } from 'zod';
import { DRIVER_SORTS, sortShape } from './sort';
import { m } from '../paraglide/messages.js';
import { CAR_TYPES, DOCUMENT_STATUSES, STATES, STORED_DOCUMENT_KEYS } from '../constants';
import { booleanQuerySchema as booleanQuery, envelope, listTotalShape, momentSchema } from './common';
import { DRIVER_CHECK_KINDS } from '../driver-check-rules';
import { CHECK_PROBLEMS } from '../check-status';
import { VEHICLE_PROBLEMS } from '../vehicle-rules';

/** A point on the map; the driver app's field names. */
export const positionSchema = z.object({
  lat: z.number().min(-90).max(90),
  long: z.number().min(-180).max(180),
});
export type Position = z.infer<typeof positionSchema>;

/** Timestamps travel as ISO 8601 strings. */
const timestamp = z.string();

export const COMPLIANCE_PROBLEMS = ['missing', 'rejected', 'awaiting_review', 'expired'] as const;

/** One mandatory document that keeps a driver from being compliant, and why. */
export const complianceProblemSchema = z.object({
  document: z.enum(STORED_DOCUMENT_KEYS),
  problem: z.enum(COMPLIANCE_PROBLEMS),
});
export type ComplianceProblem = z.infer<typeof complianceProblemSchema>;

/** One check that keeps a driver from being compliant, and why (remedial training never does). */
export const complianceCheckProblemSchema = z.object({
  check: z.enum(DRIVER_CHECK_KINDS),
  problem: z.enum(CHECK_PROBLEMS),
});
export type ComplianceCheckProblem = z.infer<typeof complianceCheckProblemSchema>;

/**
 * Whether every mandatory document is approved and unexpired and every check the guidelines ask
 * is in order, with the reasons when not: the documents' in `problems`, the checks' in `checks`.
 */
export const complianceSchema = z.object({
  compliant: z.boolean(),
  problems: z.array(complianceProblemSchema),
  checks: z.array(complianceCheckProblemSchema),
  /** The vehicle the driver drives now, past its state's age limit. */
  vehicle: z.array(z.object({ problem: z.enum(VEHICLE_PROBLEMS), ageLimitYears: z.number().int() })),
});
export type Compliance = z.infer<typeof complianceSchema>;

export const driverSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  email: z.string().nullable(),
  phoneNumber: z.string().nullable(),
  country: z.string().nullable(),
  state: z.enum(STATES).nullable(),
  franchiseId: z.uuid().nullable(),
  franchiseName: z.string().nullable(),
  carModel: z.string().nullable(),
  vehicleNumber: z.string().nullable(),
  carType: z.enum(CAR_TYPES).nullable(),
  position: positionSchema.nullable(),
  positionAt: timestamp.nullable(),
  createdAt: timestamp,
  deletedAt: timestamp.nullable(),
  /** On the driver list and a driver's dashboard. */
  compliance: complianceSchema.optional(),
});
export type Driver = z.infer<typeof driverSchema>;

/** List query of every list endpoint of drivers: search, page size and the cursor of the next page. */
export const driverListQuerySchema = z.object({
  q: z.string().trim().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(500).optional(),
  /** Admins only: the soft-deleted drivers instead of the active ones. */
  deleted: booleanQuery.optional(),
  /** Only the drivers whose mandatory documents are all in order, or only those whose are not. */
  compliance: z.enum(['compliant', 'not_compliant']).optional(),
  /**
   * `due`: only the drivers due remedial training this calendar quarter: among the lowest-rated
   * share of their state's rated drivers, without a remedial training since the quarter began.
   */
  remedial: z.enum(['due']).optional(),
  ...sortShape(DRIVER_SORTS),
});
export type DriverListQuery = z.input<typeof driverListQuerySchema>;

/** The spec's `{ data: { id: driver } }`, in list order, with the cursor of the next page. */
export const driverListResponseSchema = z.object({
  data: z.record(z.string(), driverSchema),
  nextCursor: z.string().nullable(),
  ...listTotalShape,
});
export type DriverListResponse = z.infer<typeof driverListResponseSchema>;

export const ratingSummarySchema = z.object({
  average: z.number().nullable(),
  count: z.number().int(),
});

export const driverDetailResponseSchema = envelope(driverSchema.extend({ rating: ratingSummarySchema }));

/** What the spec's 5-second poll reads: who the driver is and where. */
export const driverLocationResponseSchema = envelope(
  z.object({
    name: z.string(),
    email: z.string().nullable(),
    phoneNumber: z.string().nullable(),
    position: positionSchema.nullable(),
    positionAt: timestamp.nullable(),
  }),
);

export const assignDriverBodySchema = z.object({
  franchiseId: z.uuid().nullable(),
  state: z.enum(STATES).nullable(),
});

export const driverDocumentSchema = z.object({
  key: z.enum(STORED_DOCUMENT_KEYS),
  label: z.string(),
  status: z.enum(DOCUMENT_STATUSES),
  hasImage: z.boolean(),
  contentType: z.string().nullable(),
  uploadedAt: timestamp.nullable(),
  reviewedAt: timestamp.nullable(),
  reviewedBy: z.object({ id: z.uuid(), name: z.string() }).nullable(),
  rejectionReason: z.string().nullable(),
  /** Whether this kind of document expires (licence, RC, pollution, fitness, permit). */
  expires: z.boolean(),
  /** The day it stops being valid (YYYY-MM-DD, a day in India), once entered at a review. */
  expiresOn: z.string().nullable(),
});
export type DriverDocument = z.infer<typeof driverDocumentSchema>;
export const driverDocumentsResponseSchema = envelope(z.array(driverDocumentSchema));
export const driverDocumentResponseSchema = envelope(driverDocumentSchema);

/** Which documents of a driver: the spec's ten (the default), or those of the vehicle they drive now. */
export const driverDocumentsQuerySchema = z.object({ of: z.enum(['driver', 'vehicle']).default('driver') });

export const documentParamsSchema = z.object({ id: z.uuid(), key: z.enum(STORED_DOCUMENT_KEYS) });

// PostgreSQL has no year 0 and a licence is not valid for centuries: a real date within reason.
const expiryDate = z.iso
  .date({ error: () => m.expiryDateInvalid() })
  .refine((value) => value >= '2000-01-01' && value <= '2099-12-31', { error: () => m.expiryDateInvalid() });

/**
 * A review decision: approve, reject with a reason, or send back to pending review. `expiresOn`
 * records or corrects the expiry of a document that expires; an approval of such a document needs
 * one that has not passed (the server checks, as it knows the document and the day in India).
 */
export const reviewDocumentBodySchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('approved'), expiresOn: expiryDate.optional() }),
  z.object({ status: z.literal('submitted'), expiresOn: expiryDate.optional() }),
  z.object({
    status: z.literal('rejected'),
    reason: z
      .string()
      .trim()
      .min(3, { error: () => m.giveReason() })
      .max(500),
    expiresOn: expiryDate.optional(),
  }),
]);

/** Accepted document images. */

const pageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().max(500).optional(),
});
export const historyQuerySchema = pageQuery;
export const ratingsQuerySchema = pageQuery;

/** One booking of the driver, with the spec's field names. */
export const historyEntrySchema = z.object({
  id: z.uuid(),
  customerName: z.string().nullable(),
  pickUpLocation: z.string().nullable(),
  destinationLocation: z.string().nullable(),
  distance: z.number().nullable(),
  price: z.number().nullable(),
  dateTime: timestamp,
});
export const historyResponseSchema = z.object({
  data: z.array(historyEntrySchema),
  nextCursor: z.string().nullable(),
});

export const ratingEntrySchema = z.object({
  id: z.uuid(),
  customerName: z.string().nullable(),
  description: z.string().nullable(),
  rating: z.number().int().min(1).max(5).nullable(),
  date: timestamp,
});
export type RatingEntry = z.infer<typeof ratingEntrySchema>;
export const ratingsResponseSchema = z.object({
  data: z.array(ratingEntrySchema),
  summary: ratingSummarySchema,
  nextCursor: z.string().nullable(),
});

/** Device tokens let a driver's phone report positions; the secret is shown once, at issue. */
export const deviceTokenSchema = z.object({
  id: z.uuid(),
  label: z.string(),
  createdAt: timestamp,
  lastUsedAt: timestamp.nullable(),
  revokedAt: timestamp.nullable(),
});
export const deviceTokensResponseSchema = envelope(z.array(deviceTokenSchema));
export const issueDeviceTokenBodySchema = z.object({
  label: z
    .string()
    .trim()
    .min(1, { error: () => m.nameTheDevice() })
    .max(80),
});
export const issuedDeviceTokenResponseSchema = envelope(deviceTokenSchema.extend({ token: z.string() }));

/** What the driver app reports. */
export const reportLocationBodySchema = positionSchema.extend({
  recordedAt: momentSchema().optional(),
});

/** A position pushed to dashboards. */
export const locationEventSchema = z.object({
  driverId: z.uuid(),
  lat: z.number(),
  long: z.number(),
  at: timestamp,
});
export type LocationEvent = z.infer<typeof locationEventSchema>;
