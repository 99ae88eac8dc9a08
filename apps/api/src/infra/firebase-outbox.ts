import { and, eq, isNull, sql } from 'drizzle-orm';
import { RATE_FIELDS } from '@bmet/shared/constants';
import type { DbExecutor } from '../db/client';
import { accounts, carRates, firebaseOutbox } from '../db/schema';

/**
 * What the console writes back to the apps' Firebase database: the rates the customer app prices
 * rides with (`state/{state}/{car type}`) and the city dealers and franchises the driver app offers
 * (`city_dealer/{uid}`, `franchise/{uid}`). Nothing else is ever written there.
 *
 * A write is queued here, in the transaction of the change, as the node's whole new value (or its
 * removal); the Firebase link sends it (firebase-link/outbox.ts). A crash between the two loses
 * nothing, and a change rolled back queues nothing.
 */

/** Whether changes are queued for Firebase: the link is configured and writes back. */
export type FirebaseWrites = { readonly enabled: boolean };

export const NO_FIREBASE_WRITES: FirebaseWrites = { enabled: false };

/** Queues a state's rate set of one car type as it is stored now (removed when it is not). */
export async function queueRateWrite(
  tx: DbExecutor,
  writes: FirebaseWrites,
  state: string,
  carType: string,
): Promise<void> {
  if (!writes.enabled) return;
  const [row] = await tx
    .select()
    .from(carRates)
    .where(and(eq(carRates.state, state), eq(carRates.carType, carType)));
  let value: Record<string, number> | null = null;
  if (row) {
    const stored: Record<string, number | null> = {
      per_km: row.perKm,
      basePrice: row.basePrice,
      nightCharge: row.nightCharge,
      waitingCharge: row.waitingCharge,
      rushHour: row.rushHour,
      surCharges: row.surCharges,
      extra: row.extra,
    };
    // As numbers, as the customer app reads them; a field never set is left out (Firebase has no null).
    value = Object.fromEntries(
      RATE_FIELDS.flatMap((field) => (stored[field] === null ? [] : [[field, stored[field]!]])),
    );
  }
  await tx.insert(firebaseOutbox).values({ path: `state/${state}/${carType}`, value });
}

/**
 * Queues a city dealer's or franchise's node as the account is now: `{name, email, state,
 * createdAt}`, and a franchise's `city_dealer` (its dealer's uid); removed once the account is
 * disabled or deleted, so the driver app no longer offers it. An account created in the console
 * takes its own id as its uid there, kept as its Firebase key so the link knows it when it comes back.
 */
export async function queueStaffWrite(
  tx: DbExecutor,
  writes: FirebaseWrites,
  accountId: string,
): Promise<void> {
  if (!writes.enabled) return;
  const [account] = await tx
    .select({
      id: accounts.id,
      role: accounts.role,
      firebaseKey: accounts.firebaseKey,
      name: accounts.displayName,
      email: accounts.email,
      state: accounts.state,
      createdAt: accounts.createdAt,
      disabled: accounts.disabled,
      deletedAt: accounts.deletedAt,
      dealerId: accounts.dealerId,
    })
    .from(accounts)
    .where(eq(accounts.id, accountId));
  if (!account || (account.role !== 'city_dealer' && account.role !== 'franchise')) return;
  let uid = account.firebaseKey;
  if (!uid) {
    uid = account.id;
    await tx
      .update(accounts)
      .set({ firebaseKey: uid })
      .where(and(eq(accounts.id, account.id), isNull(accounts.firebaseKey)));
  }
  let value: Record<string, string> | null = null;
  if (!account.disabled && !account.deletedAt) {
    value = {
      name: account.name ?? '',
      email: account.email,
      ...(account.state ? { state: account.state } : {}),
      createdAt: dartTime(account.createdAt),
    };
    if (account.role === 'franchise' && account.dealerId) {
      const [dealer] = await tx
        .select({ uid: sql<string>`coalesce(${accounts.firebaseKey}, ${accounts.id}::text)` })
        .from(accounts)
        .where(eq(accounts.id, account.dealerId));
      if (dealer) value.city_dealer = dealer.uid;
    }
  }
  await tx.insert(firebaseOutbox).values({ path: `${account.role}/${uid}`, value });
}

/**
 * A time as the apps write one (Dart's `DateTime.toString()` of India's local time):
 * `2023-03-14 18:22:05.123000`.
 */
export function dartTime(at: Date): string {
  const ist = new Date(at.getTime() + 330 * 60_000).toISOString();
  return `${ist.slice(0, 10)} ${ist.slice(11, 23)}000`;
}
