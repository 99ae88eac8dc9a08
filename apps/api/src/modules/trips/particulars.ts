import { eq, sql } from 'drizzle-orm';
import { STATES } from '@bmet/shared/constants';
import { fareParts, indianHour } from '@bmet/shared/fare';
import type { RateValues } from '@bmet/shared/schemas/car-rate';
import type { Trip, TripFare, TripTimeline } from '@bmet/shared/schemas/trip';
import type { DbExecutor } from '../../db/client';
import { carRateHistory, carRates, drivers, trips } from '../../db/schema';

/** The parts of a fare the app reads, from a stored rate set (any of them may be missing). */
type FareRateValues = Pick<RateValues, 'basePrice' | 'per_km' | 'nightCharge'>;

/** Rupees as the fare shows them: to the paisa, so that 0.1 + 0.2 reads as 0.3. */
const paise = (amount: number) => Math.round(amount * 100) / 100;

/**
 * What the trip panel shows beyond the list's fields, for a trip already found in the caller's
 * scope: when it reached each step, and how its fare is made by the rates of its driver's state as
 * they stood when it was booked (the last change before the booking, kept in the rates' history;
 * else the rates as they are now).
 */
export async function findTripParticulars(
  db: DbExecutor,
  trip: Trip,
): Promise<{ timeline: TripTimeline; fare: TripFare | null }> {
  const [row] = await db
    .select({
      assignedAt: trips.assignedAt,
      startedAt: trips.startedAt,
      finishedAt: trips.finishedAt,
      cancelledAt: trips.cancelledAt,
      state: drivers.state,
      ratesThen: sql<{ after: FareRateValues; changedAt: string } | null>`(
        select json_build_object('after', ${carRateHistory.after}, 'changedAt', ${carRateHistory.changedAt})
        from ${carRateHistory}
        where ${carRateHistory.state} = ${drivers.state} and ${carRateHistory.carType} = ${trips.carType}
          and ${carRateHistory.changedAt} <= ${trips.createdAt}
        order by ${carRateHistory.id} desc limit 1)`,
      basePrice: carRates.basePrice,
      perKm: carRates.perKm,
      nightCharge: carRates.nightCharge,
    })
    .from(trips)
    .leftJoin(drivers, eq(drivers.id, trips.driverId))
    .leftJoin(carRates, sql`${carRates.state} = ${drivers.state} and ${carRates.carType} = ${trips.carType}`)
    .where(eq(trips.id, trip.id))
    .limit(1);
  const iso = (moment: Date | null | undefined) => moment?.toISOString() ?? null;
  const timeline: TripTimeline = {
    requestedAt: trip.createdAt,
    assignedAt: iso(row?.assignedAt),
    startedAt: iso(row?.startedAt),
    finishedAt: iso(row?.finishedAt),
    cancelledAt: iso(row?.cancelledAt),
  };
  const state = STATES.find((known) => known === row?.state);
  if (!row || !state || trip.distance === null) return { timeline, fare: null };
  const rates: FareRateValues = row.ratesThen?.after ?? {
    basePrice: row.basePrice,
    per_km: row.perKm,
    nightCharge: row.nightCharge,
  };
  if (rates.basePrice === null || rates.per_km === null) return { timeline, fare: null };
  const parts = fareParts(
    { basePrice: rates.basePrice, per_km: rates.per_km, nightCharge: rates.nightCharge ?? 0 },
    trip.distance,
    indianHour(new Date(trip.createdAt)),
  );
  const fare: TripFare = {
    ...parts,
    distance: paise(parts.distance),
    total: paise(parts.total),
    matchesPrice: trip.price !== null && Math.abs(paise(parts.total) - trip.price) < 0.01,
    state,
    ratesFrom: row.ratesThen ? new Date(row.ratesThen.changedAt).toISOString() : null,
  };
  return { timeline, fare };
}
