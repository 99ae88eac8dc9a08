import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { driverWalletEntries } from '../db/schema';
import { insertMany } from './bulk-insert';
import { Random } from './random';

/** Demo drivers given a wallet: enough for every screen to show one, few enough to load fast. */
const DEMO_WALLETS = 400;

/**
 * Wallets as the driver app kept them, for the first demo drivers: a recharge, then rides that
 * each take 10% of the fare, the odd 5-star reward and recharge, newest last. The driver's balance
 * is the last entry's. A generator of its own keeps the rest of the demo data as it was.
 */
export async function seedDemoWallets(db: Db, driverIds: readonly string[]): Promise<void> {
  const rng = new Random(2026);
  const rows: (typeof driverWalletEntries.$inferInsert)[] = [];
  const start = Date.now() - 60 * 86_400_000;
  for (const [n, driverId] of driverIds.slice(0, DEMO_WALLETS).entries()) {
    let balance = 0;
    let at = start + rng.int(0, 10) * 86_400_000;
    const entries = rng.int(3, 24);
    for (let i = 0; i < entries; i++) {
      const kind =
        i === 0 || balance < 60 ? 'Recharge' : rng.chance(0.15) ? '5 Star Reward' : 'Ride Accepted';
      const amount =
        kind === 'Recharge'
          ? rng.pick([500, 1000, 2000])
          : kind === 'Ride Accepted'
            ? rng.int(8, 90)
            : rng.int(2, 20);
      const credit = kind !== 'Ride Accepted';
      balance += credit ? amount : -amount;
      at += rng.int(1, 48) * 3_600_000;
      rows.push({
        driverId,
        firebaseKey: `demo/${n}/${i}`,
        kind,
        amount,
        credit,
        balanceAfter: balance,
        orderId: kind === 'Recharge' ? `order_demo${n}x${i}` : null,
        createdAt: new Date(at),
      });
    }
  }
  await insertMany(db, driverWalletEntries, rows);
  await db.execute(sql`
    update drivers d set wallet_balance = w.balance_after
    from (select distinct on (driver_id) driver_id, balance_after from driver_wallet_entries
          order by driver_id, created_at desc, id desc) w
    where d.id = w.driver_id and d.wallet_balance is null`);
}
