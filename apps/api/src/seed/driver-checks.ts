import type { Db } from '../db/client';
import { driverChecks } from '../db/schema';
import { insertMany } from './bulk-insert';
import { Random } from './random';

/** A day `days` from today (UTC days: close enough for demo data). */
const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/**
 * The demo drivers' checks beside their documents: most in order, some not (a verification
 * expired, an induction short of 40 hours, health cover below ₹5 lakh, no term insurance yet), so
 * that every status shows. A generator of its own keeps the rest of the demo data as it was.
 */
export async function seedDemoChecks(db: Db, driverIds: readonly string[]): Promise<void> {
  const rng = new Random(2027);
  const rows: (typeof driverChecks.$inferInsert)[] = [];
  for (const [n, driverId] of driverIds.entries()) {
    const reference = (prefix: string) => `${prefix}/${2024 + (n % 3)}/${String(1000 + n).padStart(5, '0')}`;
    const joined = -rng.int(60, 900);
    rows.push({
      driverId,
      kind: 'police_verification',
      doneOn: day(joined),
      reference: reference('PV'),
      result: 'passed',
      expiresOn: day(joined + (rng.chance(0.1) ? rng.int(30, 300) : rng.int(700, 1100))),
    });
    if (rng.chance(0.9)) {
      rows.push({
        driverId,
        kind: 'medical_fitness',
        doneOn: day(joined),
        reference: reference('MED'),
        result: 'passed',
        expiresOn: day(joined + 365 + rng.int(0, 700)),
      });
    }
    rows.push({
      driverId,
      kind: 'induction_training',
      doneOn: day(joined - 7),
      reference: reference('IND'),
      hours: rng.chance(0.07) ? 32 : 40,
    });
    if (joined < -365 && rng.chance(0.8)) {
      rows.push({
        driverId,
        kind: 'refresher_training',
        doneOn: day(-rng.int(10, 340)),
        reference: reference('REF'),
        hours: 8,
      });
    }
    rows.push({
      driverId,
      kind: 'health_insurance',
      doneOn: day(-rng.int(10, 300)),
      reference: reference('HI'),
      amount: rng.chance(0.08) ? 300_000 : 500_000,
      expiresOn: day(rng.int(-20, 360)),
    });
    if (rng.chance(0.85)) {
      rows.push({
        driverId,
        kind: 'term_insurance',
        doneOn: day(-rng.int(10, 300)),
        reference: reference('TI'),
        amount: 1_000_000,
        expiresOn: day(rng.int(30, 700)),
      });
    }
  }
  await insertMany(db, driverChecks, rows);
}
