import { and, desc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { RatingEntry } from '@bmet/shared/schemas/driver';
import type { DbExecutor } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { driverRatings, trips } from '../../db/schema';
import { cursorTimestampSchema, decodeCursor, keysetPage } from '../../lib/paging';

/** A driver's booking history and ratings: newest first, keyset on (created_at, id). */

const timeCursorSchema = z.object({ at: cursorTimestampSchema, id: z.uuid() }).strict();

/** created_at to the microsecond, in UTC, for a cursor. */
const cursorTime = (column: typeof trips.createdAt | typeof driverRatings.createdAt) =>
  sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

const timeKey = (row: { cursorAt: string; id: string }) => ({ at: row.cursorAt, id: row.id });

/**
 * A driver's booking history, newest first: its completed trips, and the entries of the driver
 * app's own history brought by the Firebase import (driver_booking_history). An imported entry
 * that repeats a completed trip (same pick-up, destination and price) is shown once, as the trip.
 */
export async function findDriverHistory(
  db: DbExecutor,
  driverId: string,
  options: { limit: number; cursor?: string },
) {
  const before = options.cursor ? decodeCursor(options.cursor, timeCursorSchema) : null;
  const after = (alias: string) =>
    before
      ? sql`(${sql.raw(alias)}.created_at, ${sql.raw(alias)}.id) < (${before.at}::timestamptz, ${before.id}::uuid)`
      : sql`true`;
  // Each side reads one page from its own index; the two pages are then merged.
  const rows = rowsOf(
    await db.execute(sql`
      select x.id, x.customer_name, x.pickup_location, x.destination_location, x.distance_km, x.price,
        to_char(x.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as date_time,
        to_char(x.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as cursor_at
      from (
        (select t.id, t.title as customer_name, t.pickup_location, t.destination_location, t.distance_km,
           t.price, t.created_at
         from trips t
         where t.driver_id = ${driverId} and t.status = 'completed' and ${after('t')}
         order by t.created_at desc, t.id desc limit ${options.limit + 1})
        union all
        (select h.id, h.customer_name, h.pickup_location, h.destination_location, h.distance_km, h.price,
           h.created_at
         from driver_booking_history h
         where h.driver_id = ${driverId} and ${after('h')}
           and not exists (select 1 from trips t where t.driver_id = h.driver_id and t.status = 'completed'
             and t.pickup_location is not distinct from h.pickup_location
             and t.destination_location is not distinct from h.destination_location
             and t.price is not distinct from h.price)
         order by h.created_at desc, h.id desc limit ${options.limit + 1})
      ) x
      order by x.created_at desc, x.id desc
      limit ${options.limit + 1}`),
  );
  const number = (value: unknown) => (value === null || value === undefined ? null : Number(value));
  const text = (value: unknown) => (value === null || value === undefined ? null : String(value));
  const entries = rows.map((row) => ({
    id: String(row.id),
    customerName: text(row.customer_name),
    pickUpLocation: text(row.pickup_location),
    destinationLocation: text(row.destination_location),
    distance: number(row.distance_km),
    price: number(row.price),
    dateTime: String(row.date_time),
    cursorAt: String(row.cursor_at),
  }));
  const { shown, nextCursor } = keysetPage(entries, options.limit, timeKey);
  return { data: shown.map(({ cursorAt: _cursorAt, ...entry }) => entry), nextCursor };
}

/** The rating entries of a driver, newest first. */
export async function findDriverRatings(
  db: DbExecutor,
  driverId: string,
  options: { limit: number; cursor?: string },
) {
  const before = options.cursor ? decodeCursor(options.cursor, timeCursorSchema) : null;
  const rows = await db
    .select({
      id: driverRatings.id,
      customerName: driverRatings.customerName,
      description: driverRatings.description,
      rating: driverRatings.rating,
      createdAt: driverRatings.createdAt,
      cursorAt: cursorTime(driverRatings.createdAt),
    })
    .from(driverRatings)
    .where(
      and(
        eq(driverRatings.driverId, driverId),
        before
          ? sql`(${driverRatings.createdAt}, ${driverRatings.id}) < (${before.at}::timestamptz, ${before.id}::uuid)`
          : undefined,
      ),
    )
    .orderBy(desc(driverRatings.createdAt), desc(driverRatings.id))
    .limit(options.limit + 1);
  const { shown, nextCursor } = keysetPage(rows, options.limit, timeKey);
  const data: RatingEntry[] = shown.map((row) => ({
    id: row.id,
    customerName: row.customerName,
    description: row.description,
    // Only 1 to 5 is a rating; anything else stored by an old app shows as 'Not rated'.
    rating: row.rating !== null && row.rating >= 1 && row.rating <= 5 ? row.rating : null,
    date: row.createdAt.toISOString(),
  }));
  return { data, nextCursor };
}
