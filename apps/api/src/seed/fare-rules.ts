import { CAR_TYPES, type CarType, type State } from '@bmet/shared/constants';
import type { Db } from '../db/client';
import { stateSettings } from '../db/schema';
import { FARE_RULE_DEFAULTS, STATE_DEFAULTS } from '../modules/fare-rules/repository';
import { BASE_RATES } from './india';

/**
 * The demo's notified fares: Delhi's and Maharashtra's, from 1 July 2025 (when the revised
 * guidelines came out). Delhi notified 1.1 times the typical rates, so its rates sit in the band;
 * Maharashtra notified a sedan fare far below what the demo charges, so the fare report has
 * something to show. Other states notified nothing: no band is checked there.
 */
const NOTIFIED: Partial<Record<State, (carType: CarType) => number>> = {
  delhi: () => 1.1,
  maharashtra: (carType) => (carType === 'sedan' ? 0.6 : 1.1),
};

export async function insertDemoFareRules(db: Db): Promise<void> {
  const rows: (typeof stateSettings.$inferInsert)[] = [];
  for (const [state, factor] of Object.entries(NOTIFIED) as [State, (carType: CarType) => number][]) {
    for (const carType of CAR_TYPES) {
      const base = BASE_RATES[carType];
      rows.push({
        state,
        name: `fare-rules/${carType}`,
        value: {
          ...FARE_RULE_DEFAULTS,
          ...STATE_DEFAULTS[state],
          notifiedBaseFare: Math.round(base.basePrice * factor(carType)),
          notifiedPerKm: Math.round(base.per_km * factor(carType) * 2) / 2,
        },
        effectiveFrom: '2025-07-01',
        version: 1,
      });
    }
  }
  await db.insert(stateSettings).values(rows);
}
