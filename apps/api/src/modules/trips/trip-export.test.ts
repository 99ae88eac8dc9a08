import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, createDriver, createTrip } from '../../seed/factories';
import { istDate } from '../../lib/csv';
import { EXPORT_TUNING } from '../../plugins/csv-export';
import { fetchCsv, fetchListIds } from '../../../test/csv-export';
import { useTestApp } from '../../../test/test-app';
import { createTripWorld, uniqueTag, type Staff, type TripWorld } from '../../../test/trip-fixtures';

const t = useTestApp();
let w: TripWorld;

beforeAll(async () => {
  w = await createTripWorld(t.db);
});

afterEach(() => {
  EXPORT_TUNING.batchSize = 2000;
});

const exportOf = (who: Staff, query: Record<string, string>, headers: Record<string, string> = {}) =>
  fetchCsv(t, `/api/trips/export.csv?${new URLSearchParams(query).toString()}`, {
    ...who.headers,
    ...headers,
  });

/** The ids of the list for the same query, all pages: what the export must hold, in order. */
const listOf = (who: Staff, query: Record<string, string>) =>
  fetchListIds(t, { url: '/api/trips', query }, who.headers);

describe('GET /api/trips/export.csv', () => {
  it('answers an admin every trip the list shows, in list order, with every column', async () => {
    const csv = await exportOf(w.admin, { q: w.tag });
    const { a1, a2, b1, loose, requested, cancelled } = w.trips;
    expect(csv.rows.map((row) => row.ID)).toEqual([
      a1.id,
      a2.id,
      b1.id,
      loose.id,
      requested.id,
      cancelled.id,
    ]);
    expect(csv.rows.map((row) => row.ID)).toEqual(await listOf(w.admin, { q: w.tag }));
    expect(csv.headers).toEqual([
      'Date and Time (IST)',
      'Trip Title',
      'Trip Phone Number',
      'Pick-up Location',
      'Destination Location',
      'Status',
      'Paid',
      'Car type',
      'Distance (km)',
      'Price (₹)',
      'Driver Name',
      'Driver Phone Number',
      'Driver Vehicle Number',
      'Cancellation Reason',
      'ID',
    ]);
    const driver = w.drivers.a1;
    expect(csv.rows[0]).toEqual({
      'Date and Time (IST)': expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      'Trip Title': `Ravi Kumar ${w.tag}`,
      // Neutralised: a cell starting with + would be read as a formula.
      'Trip Phone Number': "'+919812345678",
      'Pick-up Location': a1.pickupLocation,
      'Destination Location': a1.destinationLocation,
      Status: 'Completed',
      Paid: 'Yes',
      'Car type': 'Sedan',
      'Distance (km)': String(a1.distanceKm),
      'Price (₹)': a1.price!.toFixed(2),
      'Driver Name': driver.name,
      'Driver Phone Number': driver.phoneNumber?.startsWith('+')
        ? `'${driver.phoneNumber}`
        : (driver.phoneNumber ?? ''),
      'Driver Vehicle Number': driver.vehicleNumber ?? '',
      'Cancellation Reason': '',
      ID: a1.id,
    });
    expect(csv.rows.find((row) => row.ID === requested.id)).toMatchObject({
      Status: 'Requested',
      Paid: 'No',
      'Driver Name': '',
    });
    expect(csv.rows.find((row) => row.ID === cancelled.id)?.['Cancellation Reason']).toBe(
      cancelled.cancelReason ?? '',
    );
  });

  it.each([
    ['dealerA', ['a1', 'a2']],
    ['dealerB', ['b1']],
    ['franchiseA1', ['a1']],
    ['franchiseA2', ['a2']],
  ] as const)('answers %s only the trips of its scope, as the list does', async (who, expected) => {
    const staff = w[who];
    const csv = await exportOf(staff, { q: w.tag });
    const ids = csv.rows.map((row) => row.ID);
    expect(ids).toEqual(expected.map((name) => w.trips[name].id));
    expect(ids).toEqual(await listOf(staff, { q: w.tag }));
    // The customer's phone number is the admins' only: no column at all for other roles.
    expect(csv.headers).not.toContain('Trip Phone Number');
    expect(csv.raw).not.toContain('9812345678');
  });

  it('applies the filters of the list', async () => {
    const queries: Record<string, string>[] = [
      { q: w.tag, status: 'completed' },
      { q: w.tag, paid: 'true' },
      { q: w.tag, carType: 'mini' },
      { q: w.tag, status: 'completed', paid: 'false' },
    ];
    for (const query of queries) {
      const csv = await exportOf(w.admin, query);
      expect(csv.rows.map((row) => row.ID)).toEqual(await listOf(w.admin, query));
    }
    const completed = await exportOf(w.admin, { q: w.tag, status: 'completed' });
    expect(completed.rows.map((row) => row.ID)).toEqual([w.trips.a1.id, w.trips.b1.id]);
  });

  it('walks every batch after the first with the list cursor, whatever the batch size', async () => {
    EXPORT_TUNING.batchSize = 2;
    for (const who of [w.admin, w.dealerA]) {
      const csv = await exportOf(who, { q: w.tag });
      EXPORT_TUNING.batchSize = 2000;
      const whole = await exportOf(who, { q: w.tag });
      EXPORT_TUNING.batchSize = 2;
      expect(csv.raw).toBe(whole.raw);
    }
    const csv = await exportOf(w.admin, { q: w.tag });
    expect(csv.rows).toHaveLength(6);
  });

  it('writes times in India Standard Time, amounts in rupees, and neutralises formulas', async () => {
    const tag = uniqueTag();
    const customer = await createCustomer(t.db, { name: `Anil ${tag}` });
    const driver = await createDriver(t.db, { carType: 'mini' });
    const trip = (title: string, minutes: number, price: number) =>
      createTrip(t.db, {
        customer,
        driver: { id: driver.id, state: 'maharashtra', carType: 'mini' },
        status: 'completed',
        // 20:00 UTC is 01:30 the next day in India.
        createdAt: new Date(Date.UTC(2026, 0, 15, 20, minutes, 0)),
        overrides: { title, price },
      });
    await trip(`=HYPERLINK("http://evil.example","${tag}")`, 5, 107.5);
    await trip(`@SUM(1+1) ${tag}`, 4, 250);
    await trip(`-2+3 ${tag}`, 3, 99.999);
    await trip(`\tcmd ${tag}`, 2, 0);
    await trip(`Rao, "Sunny" ${tag}\nline two`, 1, 1234567.8);
    const csv = await exportOf(w.admin, { q: tag });
    expect(csv.rows.map((row) => row['Trip Title'])).toEqual([
      `'=HYPERLINK("http://evil.example","${tag}")`,
      `'@SUM(1+1) ${tag}`,
      `'-2+3 ${tag}`,
      `'\tcmd ${tag}`,
      `Rao, "Sunny" ${tag}\nline two`,
    ]);
    expect(csv.raw).toContain(`"'=HYPERLINK(""http://evil.example"",""${tag}"")"`);
    expect(csv.rows.map((row) => row['Date and Time (IST)'])).toEqual([
      '2026-01-16 01:35:00',
      '2026-01-16 01:34:00',
      '2026-01-16 01:33:00',
      '2026-01-16 01:32:00',
      '2026-01-16 01:31:00',
    ]);
    expect(csv.rows.map((row) => row['Price (₹)'])).toEqual([
      '107.50',
      '250.00',
      '100.00',
      '0.00',
      '1234567.80',
    ]);
  });

  it('speaks the language of the request, in its headers and labels', async () => {
    const csv = await exportOf(w.admin, { q: w.tag, status: 'completed' }, { 'accept-language': 'hi' });
    expect(csv.headers).toContain('स्थिति');
    expect(csv.headers).toContain('किराया (₹)');
    expect(csv.rows[0]).toMatchObject({ स्थिति: 'पूरी हुई', आईडी: w.trips.a1.id });
    // A download manager sends the browser's languages: the address can choose the file's.
    const chosen = await exportOf(
      w.admin,
      { q: w.tag, status: 'completed', lang: 'hi' },
      { 'accept-language': 'en' },
    );
    expect(chosen.raw).toBe(csv.raw);
    const english = await exportOf(
      w.admin,
      { q: w.tag, status: 'completed', lang: 'en' },
      { 'accept-language': 'hi' },
    );
    expect(english.headers).toContain('Status');
  });

  it("names the file after the list and today's date in India", async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/trips/export.csv?q=${w.tag}`,
      headers: w.admin.headers,
    });
    expect(response.headers['content-disposition']).toBe(`attachment; filename="trips-${istDate()}.csv"`);
  });

  it('answers 401 without a token and 400 for a query the list would refuse', async () => {
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/trips/export.csv' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ code: 'UNAUTHORIZED' });
    const bad = await t.app.inject({
      method: 'GET',
      url: '/api/trips/export.csv?status=flying',
      headers: w.admin.headers,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'VALIDATION', fieldErrors: { status: expect.any(Array) } });
    const head = await t.app.inject({
      method: 'HEAD',
      url: '/api/trips/export.csv',
      headers: w.admin.headers,
    });
    // A HEAD would walk the whole export for nothing: it is refused.
    expect(head.statusCode).toBeGreaterThanOrEqual(400);
    expect(head.statusCode).toBeLessThan(500);
    expect(head.headers['content-disposition']).toBeUndefined();
  });
});
