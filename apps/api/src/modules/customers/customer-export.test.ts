import { randomInt } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, createCustomer } from '../../seed/factories';
import { EXPORT_TUNING } from '../../plugins/csv-export';
import { fetchCsv, fetchListIds } from '../../../test/csv-export';
import { authHeader, issueToken, useTestApp } from '../../../test/test-app';

const t = useTestApp();
const tag = Array.from({ length: 8 }, () => String.fromCharCode(97 + randomInt(26))).join('');
const headers = {} as Record<'admin' | 'city_dealer' | 'franchise', { authorization: string }>;
let ids: string[];

beforeAll(async () => {
  for (const role of ['admin', 'city_dealer', 'franchise'] as const) {
    headers[role] = authHeader((await issueToken(t.db, await createAccount(t.db, { role }))).token);
  }
  const customers = [
    await createCustomer(t.db, {
      name: `Asha ${tag}`,
      email: `asha.${tag}@example.in`,
      phoneNumber: '+919800000001',
    }),
    await createCustomer(t.db, { name: `Bala ${tag}`, email: null, phoneNumber: null }),
    await createCustomer(t.db, {
      name: `=cmd|' /C calc'!A0 ${tag}`,
      email: `@evil.${tag}`,
      phoneNumber: '-1',
    }),
  ];
  // The list's order: by name.
  ids = [customers[2]!.id, customers[0]!.id, customers[1]!.id];
});

afterEach(() => {
  EXPORT_TUNING.batchSize = 2000;
});

describe('GET /api/customers/export.csv', () => {
  it('answers an admin the rows of the list, neutralising formulas', async () => {
    const csv = await fetchCsv(t, `/api/customers/export.csv?q=${tag}`, headers.admin);
    expect(csv.headers).toEqual(['Name', 'Email', 'Phone Number', 'ID']);
    expect(csv.rows.map((row) => row.ID)).toEqual(ids);
    expect(csv.rows.map((row) => row.ID)).toEqual(
      await fetchListIds(t, { url: '/api/customers', query: { q: tag } }, headers.admin),
    );
    expect(csv.rows[0]).toEqual({
      Name: `'=cmd|' /C calc'!A0 ${tag}`,
      Email: `'@evil.${tag}`,
      'Phone Number': "'-1",
      ID: ids[0],
    });
    expect(csv.rows[2]).toEqual({ Name: `Bala ${tag}`, Email: '', 'Phone Number': '', ID: ids[2] });
  });

  it('walks the list cursor batch after batch', async () => {
    EXPORT_TUNING.batchSize = 2;
    const csv = await fetchCsv(t, `/api/customers/export.csv?q=${tag}`, headers.admin);
    expect(csv.rows.map((row) => row.ID)).toEqual(ids);
  });

  it('is for admins only, as the list is', async () => {
    for (const role of ['city_dealer', 'franchise'] as const) {
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/customers/export.csv?q=${tag}`,
        headers: headers[role],
      });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ code: 'FORBIDDEN' });
    }
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/customers/export.csv' });
    expect(anonymous.statusCode).toBe(401);
  });
});
