import { and, eq, inArray } from 'drizzle-orm';
import type { CarType, State } from '@bmet/shared/constants';
import type { RateSetInput, StateRates } from '@bmet/shared/schemas/car-rate';
import type { Db } from '../src/db/client';
import { auditLog, carRateHistory, carRates } from '../src/db/schema';
import { createAccount, insertRates, type AccountRow } from '../src/seed/factories';
import { BASE_RATES } from '../src/seed/india';
import { authHeader, issueToken, type TestApp } from './test-app';

export type Staff = AccountRow & { headers: { authorization: string } };

/** An account of a role with a token (issued directly: no argon2 round trip per account). */
export async function createStaff(db: Db, input: Parameters<typeof createAccount>[1]): Promise<Staff> {
  const account = await createAccount(db, input);
  const { token } = await issueToken(db, account);
  return { ...account, headers: authHeader(token) };
}

/**
 * Gives a state exactly these car types, at the typical rates and version 1, with no history. The
 * test files of a worker share one database, so each test works on a state of its own.
 */
export async function resetState(db: Db, state: State, types: CarType[]): Promise<void> {
  await db.delete(carRates).where(eq(carRates.state, state));
  await db.delete(carRateHistory).where(eq(carRateHistory.state, state));
  for (const type of types) await insertRates(db, state, type, BASE_RATES[type]);
}

/** A rate set to send: the typical rates of a type with some fields changed. */
export function rateSet(type: CarType, changes: Partial<RateSetInput> = {}): RateSetInput {
  return { ...BASE_RATES[type], ...changes };
}

export function putRates(t: TestApp, who: Staff | null, state: State | string, body: unknown) {
  return t.app.inject({
    method: 'PUT',
    url: `/api/admin/updateRates/${encodeURIComponent(state)}`,
    headers: who?.headers ?? {},
    payload: body as Record<string, unknown>,
  });
}

export function postCopy(t: TestApp, who: Staff | null, body: unknown) {
  return t.app.inject({
    method: 'POST',
    url: '/api/admin/copyRates',
    headers: who?.headers ?? {},
    payload: body as Record<string, unknown>,
  });
}

/** The state's rates as stored, read straight from the table. */
export async function storedRates(db: Db, state: State): Promise<StateRates> {
  const rows = await db.select().from(carRates).where(eq(carRates.state, state));
  const rates: StateRates = {};
  for (const row of rows) {
    rates[row.carType as CarType] = {
      per_km: row.perKm,
      basePrice: row.basePrice,
      nightCharge: row.nightCharge,
      waitingCharge: row.waitingCharge,
      rushHour: row.rushHour,
      surCharges: row.surCharges,
      extra: row.extra,
      version: row.version,
    };
  }
  return rates;
}

export function historyRowsOf(db: Db, state: State) {
  return db.select().from(carRateHistory).where(eq(carRateHistory.state, state)).orderBy(carRateHistory.id);
}

/** The audit rows of the rate sets of a state, oldest first. */
export function auditRowsOf(db: Db, state: State, types: CarType[]) {
  return db
    .select()
    .from(auditLog)
    .where(
      and(
        eq(auditLog.resource, 'car-rates'),
        inArray(
          auditLog.resourceId,
          types.map((type) => `${state}/${type}`),
        ),
      ),
    )
    .orderBy(auditLog.id);
}
