import { z } from 'zod';
import { CAR_TYPES, STATES, TRIP_STATUSES } from '../constants';
import { m } from '../paraglide/messages.js';
import { booleanQuerySchema as booleanQuery, envelope, withinCalendar } from './common';
import { sortShape, TRIP_SORTS } from './sort';

const timestamp = z.string();
const place = z.object({
  location: z.string().nullable(),
  lat: z.number().nullable(),
  long: z.number().nullable(),
});

/** A trip with the spec's field names; `driver` is true when one is assigned. */
export const tripSchema = z.object({
  id: z.uuid(),
  title: z.string(),
  body: z.string().nullable(),
  /** The customer's phone number: personal data, sent to admins only (null for other roles). */
  phoneNumber: z.string().nullable(),
  'pick-up': place,
  destination: place,
  status: z.enum(TRIP_STATUSES),
  paid: z.boolean(),
  completed: z.boolean(),
  driver: z.boolean(),
  driverId: z.uuid().nullable(),
  driver_info: z
    .object({
      name: z.string(),
      phoneNumber: z.string().nullable(),
      rating: z.number().nullable(),
      /** The vehicle type, named as the driver app names it. */
      Car: z.string().nullable(),
      vehicleNumber: z.string().nullable(),
    })
    .nullable(),
  carType: z.enum(CAR_TYPES).nullable(),
  distance: z.number().nullable(),
  price: z.number().nullable(),
  cancelReason: z.string().nullable(),
  createdAt: timestamp,
});
export type Trip = z.infer<typeof tripSchema>;

/**
 * A bound of a period of trips: an ISO date-time with its offset, or a bare date (a whole day in
 * India Standard Time), within DAY_RANGE and OFFSET_RANGE. The trip list and the dashboard read
 * periods alike.
 */
export const tripDateBoundSchema = withinCalendar(
  z.union([z.iso.datetime({ offset: true }), z.iso.date()], {
    error: (issue) => (issue.input === undefined ? m.fieldRequired() : m.tripDateBoundInvalid()),
  }),
);

/** Filters a dispatcher expects, shared by both trip list paths. */
const tripFilters = {
  q: z.string().trim().max(100).optional(),
  status: z.enum(TRIP_STATUSES).optional(),
  carType: z.enum(CAR_TYPES).optional(),
  /** Inclusive bounds on the trip's date (ISO date or date-time). */
  from: tripDateBoundSchema.optional(),
  to: tripDateBoundSchema.optional(),
  /** The trips of this franchise's drivers (within the caller's scope). */
  franchiseId: z.uuid().optional(),
  /** The trips of drivers of this state. */
  state: z.enum(STATES).optional(),
  /** The trips that started in this hour of the day in India (0 to 23), as the dashboard counts them. */
  hour: z.coerce.number().int().min(0).max(23).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(500).optional(),
  ...sortShape(TRIP_SORTS),
};

/** The sort of `POST /api/trips/filter-trips` in its query string, as every list takes it. */
export const tripSortQuerySchema = z.object(sortShape(TRIP_SORTS));

/** GET /api/trips (admin): filters in the query string. */
export const tripListQuerySchema = z.object({ ...tripFilters, paid: booleanQuery.optional() });
export type TripListQuery = z.input<typeof tripListQuerySchema>;

/**
 * The trip list's search, filters and sort, as every layer reads them once checked: the API's list
 * (with its page and the spec's driver ids), the web app's query and the list's address.
 */
export type TripListFilters = Omit<z.output<typeof tripListQuerySchema>, 'limit' | 'cursor'>;

/**
 * POST /api/trips/filter-trips: the spec's ids of the caller's drivers (optional: without them,
 * all the caller's trips). The server answers only trips of drivers in the caller's scope.
 */
export const filterTripsBodySchema = z.object({
  ids: z.array(z.uuid()).max(1000).optional(),
  ...tripFilters,
  paid: z.boolean().optional(),
});
export type FilterTripsBody = z.input<typeof filterTripsBodySchema>;

/** The spec's `{ data: { id: trip } }`, newest first, with the cursor of the next page. */
export const tripListResponseSchema = z.object({
  data: z.record(z.string(), tripSchema),
  nextCursor: z.string().nullable(),
});
export type TripListResponse = z.infer<typeof tripListResponseSchema>;

export const tripFeedbackSchema = z.object({
  id: z.uuid(),
  feedback: z.string(),
  rating: z.number().int().min(1).max(5),
  author: z.object({ id: z.uuid(), name: z.string() }),
  createdAt: timestamp,
});
export type TripFeedback = z.infer<typeof tripFeedbackSchema>;

/** When the trip reached each step; null where the console did not see it happen. */
export const tripTimelineSchema = z.object({
  requestedAt: timestamp,
  assignedAt: timestamp.nullable(),
  startedAt: timestamp.nullable(),
  finishedAt: timestamp.nullable(),
  cancelledAt: timestamp.nullable(),
});
export type TripTimeline = z.infer<typeof tripTimelineSchema>;

/**
 * How the trip's fare is made by the rates of its driver's state for its car type, as they stood
 * when it was booked (`ratesFrom`: the change that set them, null for the rates as they are now when
 * no change before the booking is kept). `matchesPrice` says whether these parts add up to the
 * recorded price (the app may have priced it by other rates).
 */
export const tripFareSchema = z.object({
  base: z.number(),
  perKm: z.number(),
  km: z.number(),
  distance: z.number(),
  night: z.number(),
  total: z.number(),
  matchesPrice: z.boolean(),
  /** The state whose rates made it (the driver's). */
  state: z.enum(STATES),
  ratesFrom: timestamp.nullable(),
});
export type TripFare = z.infer<typeof tripFareSchema>;

export const tripDetailResponseSchema = envelope(
  tripSchema.extend({
    feedback: z.array(tripFeedbackSchema),
    timeline: tripTimelineSchema,
    /** Null when the trip has no driver's state, car type, distance or rates to price it by. */
    fare: tripFareSchema.nullable(),
  }),
);

/** POST /api/trips/count: the size of the list these filters give, counted up to the lists' cap. */
export const tripCountResponseSchema = envelope(
  z.object({ total: z.number().int().min(0), totalCapped: z.boolean() }),
);

/** Feedback and a 1-to-5 star rating; a rating is required. */
export const tripFeedbackBodySchema = z.object({
  feedback: z
    .string()
    .trim()
    .max(2000, { error: () => m.feedbackTooLong({ max: 2000 }) })
    .default(''),
  rating: z
    .number({ error: () => m.tripRatingRequired() })
    .int({ error: () => m.tripRatingRequired() })
    .min(1, { error: () => m.tripRatingRequired() })
    .max(5, { error: () => m.tripRatingRequired() }),
});
export const tripFeedbackResponseSchema = envelope(tripFeedbackSchema);
