import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { retriedTransaction } from './retry-on-deadlock';
import { drivers } from './schema';
import { createAccount, createDriver } from '../seed/factories';
import { getTestDatabase } from '../../test/test-database';

// Two transactions at once need two connections: only a server database has them.
describe.skipIf(!process.env.TEST_DATABASE_URL)('a retried transaction failed to end a deadlock', () => {
  it('is run again, and both saves are kept', async () => {
    const { db } = await getTestDatabase();
    const franchise = await createAccount(db, { role: 'franchise' });
    const a = await createDriver(db, { franchiseId: franchise.id });
    const b = await createDriver(db, { franchiseId: franchise.id });
    const rename = (tx: Pick<typeof db, 'update'>, id: string, name: string) =>
      tx.update(drivers).set({ name }).where(eq(drivers.id, id));

    // The first save takes driver A, the second takes B and then waits for A; the first then asks
    // for B. PostgreSQL ends the deadlock by failing the save that waited first: the second.
    let firstTookA!: () => void;
    const tookA = new Promise<void>((resolve) => (firstTookA = resolve));
    let letFirstOn!: () => void;
    const firstGoesOn = new Promise<void>((resolve) => (letFirstOn = resolve));
    const first = db.transaction(async (tx) => {
      await rename(tx, a.id, 'First on A');
      firstTookA();
      await firstGoesOn;
      await rename(tx, b.id, 'First on B');
    });
    await tookA;
    let attempts = 0;
    const second = retriedTransaction(db, async (tx) => {
      attempts++;
      await rename(tx, b.id, 'Second on B');
      // Long enough for this save to wait for A before the first asks for B.
      if (attempts === 1) setTimeout(letFirstOn, 300);
      await rename(tx, a.id, 'Second on A');
    });

    const [firstSaved, secondSaved] = await Promise.allSettled([first, second]);
    expect(firstSaved.status).toBe('fulfilled');
    expect(secondSaved.status).toBe('fulfilled');
    // Run again at least once; a busy machine may have it fail once more (its rows taken by the
    // second attempt before the first save woke), which the attempts allow for.
    expect(attempts).toBeGreaterThanOrEqual(2);
    // The second save ran last, whole.
    const names = await db
      .select({ id: drivers.id, name: drivers.name })
      .from(drivers)
      .where(inArray(drivers.id, [a.id, b.id]));
    expect(Object.fromEntries(names.map((row) => [row.id, row.name]))).toEqual({
      [a.id]: 'Second on A',
      [b.id]: 'Second on B',
    });
  });
});
