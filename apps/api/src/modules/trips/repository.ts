import { and, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { CAR_TYPES, type CarType } from '@bmet/shared/constants';
import { carTypeLabel } from '@bmet/shared/labels';
import { AppError } from '@bmet/shared/errors';
import { m } from '@bmet/shared/paraglide/messages';
import type { Trip } from '@bmet/shared/schemas/trip';
import type { DbExecutor } from '../../db/client';
import { rowReader } from '../../db/row-reader';
import { accounts, driverAverageRating, drivers, trips } from '../../db/schema';
import { type ScopeCaller, tripScope } from '../../lib/scope';

export const driver = alias(drivers, 'driver');
export const author = alias(accounts, 'author');

const isCarType = (value: string | null): value is CarType => CAR_TYPES.includes(value as CarType);

/** created_at to the microsecond, in UTC, for a cursor. */
export const cursorAt = () =>
  sql<string>`to_char(${trips.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as(
    'cursor_at',
  );

export const tripColumns = {
  id: trips.id,
  title: trips.title,
  body: trips.body,
  phoneNumber: trips.phoneNumber,
  carType: trips.carType,
  pickupLocation: trips.pickupLocation,
  pickupLat: trips.pickupLat,
  pickupLong: trips.pickupLong,
  destinationLocation: trips.destinationLocation,
  destinationLat: trips.destinationLat,
  destinationLong: trips.destinationLong,
  distanceKm: trips.distanceKm,
  price: trips.price,
  status: trips.status,
  paid: trips.paid,
  cancelReason: trips.cancelReason,
  createdAt: trips.createdAt,
  cursorAt: cursorAt(),
  driverId: trips.driverId,
  driverName: driver.name,
  driverPhoneNumber: driver.phoneNumber,
  driverVehicleNumber: driver.vehicleNumber,
  driverCarType: driver.carType,
  /** The average rating (one decimal) from the sums the database keeps on the driver (migration 0017). */
  driverRating: driverAverageRating(driver),
};

export function selectTrips(db: DbExecutor) {
  return db.select(tripColumns).from(trips).leftJoin(driver, eq(driver.id, trips.driverId)).$dynamic();
}
/** A trip as the list reads it, before it takes the contract's shape (see toTrip). */
export type TripRecord = Awaited<ReturnType<typeof selectTrips>>[number];
export const readTripRecords = rowReader(tripColumns);

/**
 * A stored trip with the spec's field names. The customer's phone number is personal data: only
 * admins receive it.
 */
function toTrip(row: TripRecord, caller: ScopeCaller): Trip {
  const carType = isCarType(row.carType) ? row.carType : null;
  const vehicleType = carType ?? (isCarType(row.driverCarType) ? row.driverCarType : null);
  const assigned = row.driverId !== null && row.driverName !== null;
  return {
    id: row.id,
    title: row.title,
    body: row.body,
    phoneNumber: caller.role === 'admin' ? row.phoneNumber : null,
    'pick-up': { location: row.pickupLocation, lat: row.pickupLat, long: row.pickupLong },
    destination: { location: row.destinationLocation, lat: row.destinationLat, long: row.destinationLong },
    status: row.status,
    paid: row.paid,
    completed: row.status === 'completed',
    driver: assigned,
    driverId: row.driverId,
    driver_info: assigned
      ? {
          name: row.driverName!,
          phoneNumber: row.driverPhoneNumber,
          rating: row.driverRating === null ? null : Number(row.driverRating),
          Car: vehicleType ? carTypeLabel(vehicleType) : null,
          vehicleNumber: row.driverVehicleNumber,
        }
      : null,
    carType,
    distance: row.distanceKm,
    price: row.price,
    cancelReason: row.cancelReason,
    createdAt: row.createdAt.toISOString(),
  };
}

export function toTrips(caller: ScopeCaller, rows: TripRecord[]): Trip[] {
  return rows.map((row) => toTrip(row, caller));
}

// ---------------------------------------------------------------------------------------------
// One trip and its feedback

/** At most this many feedback entries come with a trip, newest first. */
export const TRIP_FEEDBACK_LIMIT = 100;

/** A trip in the caller's scope, or null. */
export async function findTrip(db: DbExecutor, caller: ScopeCaller, id: string): Promise<Trip | null> {
  const [row] = await selectTrips(db)
    .where(and(eq(trips.id, id), tripScope(caller)))
    .limit(1);
  if (!row) return null;
  const [trip] = toTrips(caller, [row]);
  return trip!;
}

/** Like findTrip, but a trip outside the caller's scope is a 404, as if it did not exist. */
export async function getTrip(db: DbExecutor, caller: ScopeCaller, id: string): Promise<Trip> {
  const trip = await findTrip(db, caller, id);
  if (!trip) throw new AppError('NOT_FOUND', m.notFound());
  return trip;
}
