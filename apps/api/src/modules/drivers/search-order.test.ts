import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { DriverListResponse } from '@bmet/shared/schemas/driver';
import { drivers } from '../../db/schema';
import { createAccount, createDriver } from '../../seed/factories';
import { useTestApp } from '../../../test/test-app';
import { createStaff, getAs, uniqueTag, type Staff } from '../../../test/driver-fixtures';
import { driverSearchOrder, keepDriverSearchInOrder } from './search-order';

const t = useTestApp();

const namesFound = async (who: Staff, url: string) => {
  const response = await getAs(t, who, url);
  expect(response.statusCode, response.body).toBe(200);
  return Object.values(response.json<DriverListResponse>().data).map((driver) => driver.name);
};

// 02:00 and 14:00 in India.
const NIGHT = new Date('2026-12-02T20:30:00Z');
const DAY = new Date('2026-12-02T08:30:00Z');

describe('the driver search', () => {
  it('follows every change of a driver: its name, email, phone, vehicle, franchise and deletion', async () => {
    const admin = await createStaff(t.db, { role: 'admin' });
    const dealer = await createStaff(t.db, { role: 'city_dealer', state: 'maharashtra' });
    const [first, second] = [
      await createStaff(t.db, { role: 'franchise', dealerId: dealer.id, state: 'maharashtra' }),
      await createStaff(t.db, { role: 'franchise', dealerId: dealer.id, state: 'maharashtra' }),
    ];
    const tag = uniqueTag();
    const driver = await createDriver(t.db, {
      name: `Asha ${tag}`,
      franchiseId: first.id,
      state: 'maharashtra',
    });
    const search = (who: Staff, q: string, deleted = false) =>
      namesFound(
        who,
        `/api/${who.role === 'admin' ? 'drivers' : who.role}?q=${encodeURIComponent(q)}${deleted ? '&deleted=true' : ''}`,
      );

    expect(await search(first, tag)).toEqual([`Asha ${tag}`]);
    expect(await search(dealer, tag)).toEqual([`Asha ${tag}`]);

    // As the driver app's writes reach the console through the Firebase link.
    await t.db
      .update(drivers)
      .set({
        name: `Bela ${tag}`,
        email: `bela.${tag}@example.test`,
        phoneNumber: '+919812345678',
        vehicleNumber: `MH12${tag}`,
      })
      .where(eq(drivers.id, driver.id));
    expect(await search(admin, `asha ${tag}`)).toEqual([]);
    expect(await search(admin, `bela ${tag}`)).toEqual([`Bela ${tag}`]);
    expect(await search(admin, `bela.${tag}@`)).toEqual([`Bela ${tag}`]);
    expect(await search(admin, `mh12${tag}`)).toEqual([`Bela ${tag}`]);

    // A position changes nothing the search reads.
    await t.db
      .update(drivers)
      .set({ lat: 18.52, long: 73.85, positionAt: new Date() })
      .where(eq(drivers.id, driver.id));
    expect(await search(first, tag)).toEqual([`Bela ${tag}`]);

    const moved = await t.app.inject({
      method: 'PATCH',
      url: `/api/drivers/driver/${driver.id}/assignment`,
      headers: admin.headers,
      payload: { franchiseId: second.id, state: null },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await search(first, tag)).toEqual([]);
    expect(await search(second, tag)).toEqual([`Bela ${tag}`]);

    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/drivers/driver/${driver.id}`,
      headers: admin.headers,
    });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(await search(second, tag)).toEqual([]);
    expect(await search(admin, tag)).toEqual([]);
    expect(await search(admin, tag, true)).toEqual([`Bela ${tag}`]);

    const restored = await t.app.inject({
      method: 'POST',
      url: `/api/drivers/driver/${driver.id}/restore`,
      headers: admin.headers,
    });
    expect(restored.statusCode, restored.body).toBe(200);
    expect(await search(second, tag)).toEqual([`Bela ${tag}`]);

    // A driver removed for good (as a second import of the original data may) is found no more.
    await t.db.delete(drivers).where(eq(drivers.id, driver.id));
    expect(await search(admin, tag)).toEqual([]);
  });
});

describe('keepDriverSearchInOrder', () => {
  it('puts the search back in name order at night once enough drivers came out of order', async () => {
    const admin = await createStaff(t.db, { role: 'admin' });
    const franchise = await createAccount(t.db, { role: 'franchise' });
    const tag = uniqueTag();
    // Added one by one in the reverse of name order: each lands at the table's end.
    const names = Array.from({ length: 150 }, (_, i) => `${tag} ${String(150 - i).padStart(3, '0')}`);
    for (const name of names) await createDriver(t.db, { name, franchiseId: franchise.id });
    const before = await driverSearchOrder(t.db);
    expect(before.outOfOrder).toBeGreaterThanOrEqual(149);

    // By day it waits, whatever the table's state.
    expect(await keepDriverSearchInOrder(t.db, DAY)).toBeNull();

    const order = await keepDriverSearchInOrder(t.db, NIGHT);
    expect(order).toMatchObject({ rows: before.rows, ordered: true });
    expect(await driverSearchOrder(t.db)).toEqual({ rows: before.rows, outOfOrder: 0 });
    // Ordered, nothing to do.
    expect(await keepDriverSearchInOrder(t.db, NIGHT)).toEqual({
      rows: before.rows,
      outOfOrder: 0,
      ordered: false,
    });

    // The search answers as before.
    expect(await namesFound(admin, `/api/drivers?q=${tag}&limit=200`)).toEqual([...names].reverse());
  });
});
