import { z } from 'zod';
import { m } from '../paraglide/messages.js';
import {
  SOS_ACTIONS,
  SOS_ESCALATIONS,
  SOS_OUTCOMES,
  SOS_PERSONS,
  SOS_SOURCES,
  SOS_STATUSES,
} from '../sos-rules';
import { booleanQuerySchema, calendarDaySchema, envelope, listTotalShape, momentSchema } from './common';
import { sortShape } from './sort';

export const SOS_SORTS = ['raisedAt'] as const;

export const sosEscalationSchema = z.object({
  to: z.enum(SOS_ESCALATIONS),
  note: z.string().nullable(),
  byName: z.string().nullable(),
  at: z.string(),
});

/**
 * An SOS alert as the control room and the banner show it. The customer's phone is sent to every
 * staff member whose scope holds the driver while it matters most: someone may be in danger.
 */
export const sosAlertSchema = z.object({
  id: z.uuid(),
  /** What staff say on the phone: `SOS-000042`. */
  number: z.string(),
  status: z.enum(SOS_STATUSES),
  source: z.enum(SOS_SOURCES),
  person: z.enum(SOS_PERSONS),
  driverId: z.uuid().nullable(),
  driverName: z.string().nullable(),
  driverPhone: z.string().nullable(),
  vehicleNumber: z.string().nullable(),
  franchiseName: z.string().nullable(),
  tripId: z.uuid().nullable(),
  customerName: z.string().nullable(),
  customerPhone: z.string().nullable(),
  /** Where the alert came from (the phone's position, or what the caller said). */
  lat: z.number().nullable(),
  long: z.number().nullable(),
  positionAt: z.string().nullable(),
  note: z.string().nullable(),
  raisedAt: z.string(),
  raisedByName: z.string().nullable(),
  acknowledgedAt: z.string().nullable(),
  acknowledgedByName: z.string().nullable(),
  /** Seconds from the alert to its acknowledgement. */
  secondsToAcknowledge: z.number().nullable(),
  /** Raised again to every admin: nobody acknowledged it within 60 s. */
  reraisedAt: z.string().nullable(),
  escalations: z.array(sosEscalationSchema),
  resolvedAt: z.string().nullable(),
  resolvedByName: z.string().nullable(),
  outcome: z.enum(SOS_OUTCOMES).nullable(),
  outcomeNote: z.string().nullable(),
});
export type SosAlert = z.infer<typeof sosAlertSchema>;

export const sosAlertResponseSchema = envelope(sosAlertSchema);

export const SOS_STATUS_FILTERS = ['open', 'resolved'] as const;

export const sosListQuerySchema = z.object({
  /** `open`: every alert not yet resolved; `resolved`: the history. */
  status: z.enum(SOS_STATUS_FILTERS).optional(),
  outcome: z.enum(SOS_OUTCOMES).optional(),
  driverId: z.uuid({ error: () => m.notValidId() }).optional(),
  /** Raised from this day, to this day (IST, inclusive). */
  from: calendarDaySchema(() => m.sosDateInvalid()).optional(),
  to: calendarDaySchema(() => m.sosDateInvalid()).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(500).optional(),
  ...sortShape(SOS_SORTS),
});

export const sosListResponseSchema = z.object({
  data: z.record(z.string(), sosAlertSchema),
  nextCursor: z.string().nullable(),
  ...listTotalShape,
});

const noteSchema = z
  .string()
  .trim()
  .max(2000, { error: () => m.sosNoteTooLong({ max: 2000 }) })
  .transform((value) => value || null)
  .nullable()
  .optional();

/** `POST /api/sos`: an alert logged by staff from a call, about a driver or a trip. */
export const createSosBodySchema = z.strictObject({
  person: z.enum(SOS_PERSONS, { error: () => m.sosPersonMissing() }),
  driverId: z
    .uuid({ error: () => m.notValidId() })
    .nullable()
    .optional(),
  tripId: z
    .uuid({ error: () => m.notValidId() })
    .nullable()
    .optional(),
  note: noteSchema,
  lat: z.number().min(-90).max(90).nullable().optional(),
  long: z.number().min(-180).max(180).nullable().optional(),
});

/** `POST /api/driver-app/sos`: the driver's phone, with its position (and the trip, if one is on). */
export const deviceSosBodySchema = z.strictObject({
  lat: z
    .number({ error: () => m.sosPositionMissing() })
    .min(-90)
    .max(90),
  long: z
    .number({ error: () => m.sosPositionMissing() })
    .min(-180)
    .max(180),
  recordedAt: momentSchema().optional(),
  tripId: z.uuid({ error: () => m.notValidId() }).optional(),
});

/** `PATCH /api/sos/{id}`: a step: acknowledge, escalate (to whom, with a note), resolve (with the outcome). */
export const updateSosBodySchema = z.strictObject({
  action: z.enum(SOS_ACTIONS, { error: () => m.sosActionMissing() }),
  to: z.enum(SOS_ESCALATIONS).optional(),
  outcome: z.enum(SOS_OUTCOMES).optional(),
  note: noteSchema,
});

/** What the driver app is answered: the alert's number, to show on the phone. */
export const deviceSosResponseSchema = envelope(z.object({ id: z.uuid(), number: z.string() }));

/** A tab carries the positions of at most this many drivers on its stream (the control room's open alerts). */
export const TAB_STREAM_MAX_DRIVERS = 10;

/**
 * `GET /api/sos/stream`: a tab's one stream carries its alerts and inbox, and the positions it
 * shows: the fleet of the caller's scope (`fleet=true`), or some drivers' (`drivers`, ids by commas).
 */
export const tabStreamQuerySchema = z.object({
  fleet: booleanQuerySchema.optional(),
  drivers: z
    .string()
    .max(2_000)
    .transform((value) => [...new Set(value.split(',').filter(Boolean))])
    .pipe(
      z.array(z.uuid({ error: () => m.notValidId() })).max(TAB_STREAM_MAX_DRIVERS, {
        error: () => m.tooManyStreamDrivers({ count: TAB_STREAM_MAX_DRIVERS }),
      }),
    )
    .optional(),
});
