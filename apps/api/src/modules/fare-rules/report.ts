import { sql } from 'drizzle-orm';
import { CAR_TYPES, STATES, type CarType, type State } from '@bmet/shared/constants';
import type { CommissionOverCap, FareReport, OutOfBandRate } from '@bmet/shared/schemas/fare-rule';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { findRulesInEffect, indiaToday, outOfBand } from './repository';

/**
 * What a transport department asks of the fares: every state and car type whose rates are
 * outside their band today (rates the apps' Firebase database set included: they are what the apps
 * charge), and the drivers whose commission in a month took more than their minimum share allows.
 * Wallet entries name no trip, so the second is per driver and month: the "Ride Accepted" debits
 * against the fares of the driver's completed trips that month (India's calendar month).
 */

const isState = (value: unknown): value is State => (STATES as readonly unknown[]).includes(value);
const isCarType = (value: unknown): value is CarType => (CAR_TYPES as readonly unknown[]).includes(value);

/** The rates outside their band today, in the order of states and car types. */
export async function findRatesOutOfBand(db: Db, day = indiaToday()): Promise<OutOfBandRate[]> {
  const rules = await findRulesInEffect(db, day);
  const rows = rowsOf(
    await db.execute(sql`
      select r.state, r.car_type, r.base_price, r.per_km, r.rush_hour,
        (select h.source from car_rate_history h where h.state = r.state and h.car_type = r.car_type
         order by h.id desc limit 1) as source
      from car_rates r
      order by r.state, r.car_type`),
  );
  const found: OutOfBandRate[] = [];
  for (const row of rows) {
    if (!isState(row.state) || !isCarType(row.car_type)) continue;
    const values = {
      basePrice: row.base_price === null ? null : Number(row.base_price),
      per_km: row.per_km === null ? null : Number(row.per_km),
      rushHour: row.rush_hour === null ? null : Number(row.rush_hour),
    };
    for (const each of outOfBand(values as never, rules.get(row.state)![row.car_type])) {
      found.push({
        state: row.state,
        carType: row.car_type,
        ...each,
        source: row.source === 'firebase' ? 'firebase' : 'console',
      });
    }
  }
  return found.sort(
    (a, b) =>
      STATES.indexOf(a.state) - STATES.indexOf(b.state) ||
      CAR_TYPES.indexOf(a.carType) - CAR_TYPES.indexOf(b.carType),
  );
}

/** The bounds of a month in India (YYYY-MM), as moments. */
function monthBounds(month: string): { from: string; to: string } {
  const [year, number] = month.split('-').map(Number) as [number, number];
  const next = number === 12 ? `${year + 1}-01` : `${year}-${String(number + 1).padStart(2, '0')}`;
  return { from: `${month}-01T00:00:00+05:30`, to: `${next}-01T00:00:00+05:30` };
}

/**
 * Drivers whose commission in the month exceeds (100 - minimum share)% of their completed trips'
 * fares. The minimum share is that of the driver's state and car type today, in the driver's own
 * vehicle (the console keeps no vehicle owner yet).
 */
export async function findCommissionOverCap(db: Db, month: string): Promise<CommissionOverCap[]> {
  const { from, to } = monthBounds(month);
  const rules = await findRulesInEffect(db);
  const rows = rowsOf(
    await db.execute(sql`
      with commission as (
        select driver_id, sum(amount) as commission from driver_wallet_entries
        where kind = 'Ride Accepted' and not credit
          and created_at >= ${from}::timestamptz and created_at < ${to}::timestamptz
        group by driver_id
      ), fares as (
        select driver_id, sum(coalesce(price, 0)) as fares from trips
        where status = 'completed' and driver_id in (select driver_id from commission)
          and created_at >= ${from}::timestamptz and created_at < ${to}::timestamptz
        group by driver_id
      )
      select d.id::text as id, d.name, d.state, d.car_type, c.commission, coalesce(f.fares, 0) as fares
      from commission c join drivers d on d.id = c.driver_id and d.deleted_at is null
      left join fares f on f.driver_id = c.driver_id
      order by d.name, d.id`),
  );
  const found: CommissionOverCap[] = [];
  for (const row of rows) {
    const state = isState(row.state) ? row.state : null;
    const carType = isCarType(row.car_type) ? row.car_type : 'sedan';
    const share = state ? rules.get(state)![carType].driverShareOwnVehicle : 80;
    const capPercent = 100 - share;
    const fares = Number(row.fares);
    const commission = Number(row.commission);
    if (commission > (fares * capPercent) / 100 + 0.005) {
      found.push({
        driverId: String(row.id),
        driverName: String(row.name),
        state,
        month,
        fares,
        commission,
        capPercent,
      });
    }
  }
  return found;
}

/** The month in India now (YYYY-MM). */
export const indiaMonth = (): string => indiaToday().slice(0, 7);

export async function findFareReport(db: Db, month = indiaMonth()): Promise<FareReport> {
  const day = indiaToday();
  const [rates, commission] = await Promise.all([
    findRatesOutOfBand(db, day),
    findCommissionOverCap(db, month),
  ]);
  return { day, month, rates, commission };
}
