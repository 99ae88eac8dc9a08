import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { m } from '@bmet/shared/paraglide/messages';
import { EXPORT_TUNING } from '../../plugins/csv-export';
import { fetchCsv, fetchListIds } from '../../../test/csv-export';
import { useTestApp } from '../../../test/test-app';
import { createDriverWorld, type DriverWorld, type Staff } from '../../../test/driver-fixtures';

const t = useTestApp();
let w: DriverWorld;

beforeAll(async () => {
  w = await createDriverWorld(t.db);
});

afterEach(() => {
  EXPORT_TUNING.batchSize = 2000;
});

const exportOf = (who: Staff, query: Record<string, string>, headers: Record<string, string> = {}) =>
  fetchCsv(t, `/api/drivers/export.csv?${new URLSearchParams(query).toString()}`, {
    ...who.headers,
    ...headers,
  });

/** The spec's list path of each role: each answers the drivers that caller may see. */
const LIST_PATH = { admin: '/api/drivers', city_dealer: '/api/city_dealer', franchise: '/api/franchise' };

const listOf = (who: Staff, query: Record<string, string>) =>
  fetchListIds(t, { url: LIST_PATH[who.role], query }, who.headers);

describe('GET /api/drivers/export.csv', () => {
  it('answers each role the drivers its list shows, in name order', async () => {
    const { a1, a2, b1, loose } = w.drivers;
    const expected = {
      admin: [a1, a2, b1, loose],
      dealerA: [a1, a2],
      dealerB: [b1],
      franchiseA1: [a1],
      franchiseA2: [a2],
      franchiseB1: [b1],
    } as const;
    for (const [who, drivers] of Object.entries(expected)) {
      const staff = w[who as keyof typeof expected];
      const csv = await exportOf(staff, { q: w.tag });
      const ids = csv.rows.map((row) => row.ID);
      expect(ids, who).toEqual(drivers.map((driver) => driver.id));
      expect(ids, who).toEqual(await listOf(staff, { q: w.tag }));
    }
  });

  it('writes the columns of the list and of the driver card', async () => {
    const csv = await exportOf(w.admin, { q: w.tag });
    expect(csv.headers).toEqual([
      'Name',
      'Email',
      'Phone Number',
      'Country',
      'State',
      'Franchise',
      'Vehicle',
      'Car type',
      'Vehicle Number',
      'Created (IST)',
      'ID',
    ]);
    const a1 = w.drivers.a1;
    expect(csv.rows[0]).toMatchObject({
      Name: `Anil Pawar ${w.tag}`,
      State: 'Maharashtra',
      Franchise: `Pune ${w.tag} Cabs`,
      Vehicle: a1.carModel ?? '',
      'Vehicle Number': a1.vehicleNumber ?? '',
      'Created (IST)': expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      ID: a1.id,
    });
    expect(csv.rows.find((row) => row.ID === w.drivers.loose.id)).toMatchObject({ State: '', Franchise: '' });
  });

  it('walks the list cursor batch after batch', async () => {
    EXPORT_TUNING.batchSize = 1;
    const csv = await exportOf(w.dealerA, { q: w.tag });
    expect(csv.rows.map((row) => row.ID)).toEqual([w.drivers.a1.id, w.drivers.a2.id]);
  });

  it('answers the deleted drivers to admins only, with when they were deleted', async () => {
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/drivers/driver/${w.drivers.b1.id}`,
      headers: w.admin.headers,
    });
    expect(deleted.statusCode).toBe(204);
    const csv = await exportOf(w.admin, { q: w.tag, deleted: 'true' });
    expect(csv.rows.map((row) => row.ID)).toEqual([w.drivers.b1.id]);
    expect(csv.rows.map((row) => row.ID)).toEqual(await listOf(w.admin, { q: w.tag, deleted: 'true' }));
    expect(csv.rows[0]!['Deleted (IST)']).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const active = await exportOf(w.admin, { q: w.tag });
    expect(active.rows.map((row) => row.ID)).not.toContain(w.drivers.b1.id);
    expect(active.headers).not.toContain('Deleted (IST)');

    for (const who of [w.dealerB, w.franchiseB1]) {
      const refused = await t.app.inject({
        method: 'GET',
        url: `/api/drivers/export.csv?deleted=true`,
        headers: who.headers,
      });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ code: 'FORBIDDEN', error: m.deletedDriversAdminOnly() });
    }
  });

  it('speaks Hindi when asked', async () => {
    const csv = await exportOf(w.franchiseA1, { q: w.tag }, { 'accept-language': 'hi' });
    expect(csv.headers[0]).toBe(m.driversName({}, { locale: 'hi' }));
    expect(csv.rows[0]).toMatchObject({ [m.driversState({}, { locale: 'hi' })]: 'महाराष्ट्र' });
  });

  it('answers 401 without a token', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/drivers/export.csv' });
    expect(response.statusCode).toBe(401);
  });
});
