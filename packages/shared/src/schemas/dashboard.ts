import { z } from 'zod';
import { CAR_TYPES, STATES, STATS_MAX_DAYS, TRIP_STATUSES } from '../constants';
import { m } from '../paraglide/messages.js';
import { envelope } from './common';
import { tripDateBoundSchema } from './trip';

/** How many cancellation reasons the overview names, the most frequent first. */
export const STATS_TOP_REASONS = 5;
/** How many franchises or states the breakdowns name; the others are summed in one row. */
export const STATS_TOP_GROUPS = 25;

const DAY_MS = 86_400_000;
const isBareDate = (bound: string) => /^\d{4}-\d{2}-\d{2}$/.test(bound);
const IST_OFFSET_MS = 5.5 * 3_600_000;

/**
 * Where a bound of a period falls, in milliseconds: a bare date is a whole day in India, so `from`
 * starts at its midnight and `to` ends at the next one.
 */
export function boundToMs(bound: string, side: 'from' | 'to'): number {
  if (!isBareDate(bound)) return Date.parse(bound);
  const [year, month, day] = bound.split('-').map(Number) as [number, number, number];
  // setUTCFullYear, not Date.UTC: that one reads the years 0 to 99 as 1900 to 1999.
  const midnight = new Date(0);
  midnight.setUTCFullYear(year, month - 1, day + (side === 'to' ? 1 : 0));
  return midnight.getTime() - IST_OFFSET_MS;
}

/**
 * The period of a dashboard: `from` and `to` as the trip list takes them (inclusive; a bare date
 * is a whole day in India Standard Time), both required, in order, at most STATS_MAX_DAYS long.
 */
export const statsQuerySchema = z
  .object({ from: tripDateBoundSchema, to: tripDateBoundSchema })
  .superRefine(({ from, to }, context) => {
    const start = boundToMs(from, 'from');
    const end = boundToMs(to, 'to');
    // A bare `to` ends at the next midnight, so ending where the period starts leaves no time at all.
    if (isBareDate(to) ? end <= start : end < start) {
      context.addIssue({ code: 'custom', path: ['to'], message: m.statsPeriodEndsBeforeStart() });
    } else if (end - start > STATS_MAX_DAYS * DAY_MS) {
      context.addIssue({
        code: 'custom',
        path: ['to'],
        message: m.statsPeriodTooLong({ days: STATS_MAX_DAYS }),
      });
    }
  });
export type StatsQuery = z.infer<typeof statsQuerySchema>;

const count = z.number().int();
/** Rupees, rounded to the paisa. */
const rupees = z.number();

export const statsOverviewSchema = z.object({
  /** Trips created in the period, in every status. */
  trips: count,
  completed: count,
  cancelled: count,
  /** Cancelled trips as a share of the period's trips (0 to 1); null without trips. */
  cancellationRate: z.number().nullable(),
  /** The most frequent reasons of the period's cancellations; '' is a cancellation without one. */
  cancelReasons: z.array(z.object({ reason: z.string(), trips: count })),
  /** Fares of the completed trips. */
  revenue: rupees,
  /** Average fare and distance of the completed trips that have one; null without any. */
  averageFare: rupees.nullable(),
  averageDistanceKm: z.number().nullable(),
  /** Drivers whose position was reported within ACTIVE_DRIVER_MINUTES, now (not in the period). */
  activeDrivers: count,
  /** Drivers with at least one document awaiting review, now. */
  pendingReviews: count,
  /** Customers who joined in the period: admins only (null for other roles). */
  newCustomers: count.nullable(),
});
export type StatsOverview = z.infer<typeof statsOverviewSchema>;
export const statsOverviewResponseSchema = envelope(statsOverviewSchema);

/** Trips of each day of the period (in India), by status; every day is present, empty or not. */
export const statsDailySchema = z.array(
  z.object({
    day: z.iso.date(),
    ...(Object.fromEntries(TRIP_STATUSES.map((status) => [status, count])) as Record<
      (typeof TRIP_STATUSES)[number],
      typeof count
    >),
  }),
);
export type StatsDaily = z.infer<typeof statsDailySchema>;
export const statsDailyResponseSchema = envelope(statsDailySchema);

/** Trips and revenue of one group (a car type, a franchise, a state). */
const groupFigures = { trips: count, completed: count, revenue: rupees };

/** By car type, the most revenue first; null is a trip without a car type. */
export const statsCarTypesSchema = z.array(
  z.object({ carType: z.enum(CAR_TYPES).nullable(), ...groupFigures }),
);
export type StatsCarTypes = z.infer<typeof statsCarTypesSchema>;
export const statsCarTypesResponseSchema = envelope(statsCarTypesSchema);

/** Trips by the hour of the day they were created in India, 0 to 23, every hour present. */
export const statsHoursSchema = z.array(z.object({ hour: z.number().int().min(0).max(23), trips: count }));
export type StatsHours = z.infer<typeof statsHoursSchema>;
export const statsHoursResponseSchema = envelope(statsHoursSchema);

/** The groups beyond the first STATS_TOP_GROUPS, summed; null when there are none. */
const othersSchema = z.object({ groups: count, ...groupFigures }).nullable();

/**
 * By the drivers' franchise, the most trips first. A null id gathers the trips of no franchise
 * (without a driver, or whose driver has none): only admins see those.
 */
export const statsFranchisesSchema = z.object({
  rows: z.array(z.object({ franchiseId: z.uuid().nullable(), name: z.string().nullable(), ...groupFigures })),
  others: othersSchema,
});
export type StatsFranchises = z.infer<typeof statsFranchisesSchema>;
export const statsFranchisesResponseSchema = envelope(statsFranchisesSchema);

/** By the drivers' state, the most trips first; null gathers the trips of no known state. */
export const statsStatesSchema = z.object({
  rows: z.array(z.object({ state: z.enum(STATES).nullable(), ...groupFigures })),
  others: othersSchema,
});
export type StatsStates = z.infer<typeof statsStatesSchema>;
export const statsStatesResponseSchema = envelope(statsStatesSchema);
