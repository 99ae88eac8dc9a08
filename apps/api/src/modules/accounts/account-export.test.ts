import { randomInt } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, createDriver, type AccountRow } from '../../seed/factories';
import { EXPORT_TUNING } from '../../plugins/csv-export';
import { fetchCsv, fetchListIds } from '../../../test/csv-export';
import { authHeader, issueToken, useTestApp } from '../../../test/test-app';

const t = useTestApp();
const tag = Array.from({ length: 8 }, () => String.fromCharCode(97 + randomInt(26))).join('');
const HOUR = 3_600_000;

type Staff = AccountRow & { headers: { authorization: string } };
let admin: Staff;
let dealerA: Staff;
let dealerB: Staff;
let dealerC: AccountRow;
let franchiseA1: Staff;
let franchiseA2: Staff;
let franchiseB1: Staff;

async function staff(input: Parameters<typeof createAccount>[1]): Promise<Staff> {
  const account = await createAccount(t.db, input);
  return { ...account, headers: authHeader((await issueToken(t.db, account)).token) };
}

beforeAll(async () => {
  const at = (hours: number) => new Date(Date.now() - hours * HOUR);
  admin = await staff({ role: 'admin' });
  dealerA = await staff({
    role: 'city_dealer',
    state: 'maharashtra',
    displayName: `Mumbai Dealer ${tag}`,
    createdAt: at(10),
  });
  dealerB = await staff({
    role: 'city_dealer',
    state: 'karnataka',
    displayName: `Bengaluru Dealer ${tag}`,
    createdAt: at(9),
  });
  // Disabled: listed, but its token would not work.
  dealerC = await createAccount(t.db, {
    role: 'city_dealer',
    state: 'goa',
    displayName: `Panaji Dealer ${tag}`,
    disabled: true,
    createdAt: at(9.5),
  });
  franchiseA1 = await staff({
    role: 'franchise',
    state: 'maharashtra',
    dealerId: dealerA.id,
    displayName: `Pune Cabs ${tag}`,
    createdAt: at(8),
  });
  franchiseA2 = await staff({
    role: 'franchise',
    state: 'maharashtra',
    dealerId: dealerA.id,
    displayName: `+Thane Cabs ${tag}`,
    createdAt: at(7),
  });
  franchiseB1 = await staff({
    role: 'franchise',
    state: 'karnataka',
    dealerId: dealerB.id,
    displayName: `Mysuru Cabs ${tag}`,
    createdAt: at(6),
  });
  await createDriver(t.db, { franchiseId: franchiseA1.id, state: 'maharashtra' });
  await createDriver(t.db, { franchiseId: franchiseA1.id, state: 'maharashtra' });
  await createDriver(t.db, { franchiseId: franchiseA2.id, state: 'maharashtra' });
});

afterEach(() => {
  EXPORT_TUNING.batchSize = 2000;
});

const dealerList = (query: Record<string, string>) =>
  fetchListIds(t, { method: 'POST', url: '/api/city_dealer/getcitydealers', body: query }, admin.headers);
const franchiseList = (who: Staff, query: Record<string, string>) =>
  fetchListIds(t, { url: '/api/franchise/getFranchise', query }, who.headers);

describe('GET /api/city_dealer/export.csv', () => {
  it('answers an admin the city dealers of the list, newest first, with their counts', async () => {
    const csv = await fetchCsv(t, `/api/city_dealer/export.csv?q=${tag}`, admin.headers);
    expect(csv.headers).toEqual([
      'Name',
      'Email',
      'State',
      'Franchises',
      'Drivers',
      'Created (IST)',
      'Disabled',
      'ID',
    ]);
    expect(csv.rows.map((row) => row.ID)).toEqual([dealerB.id, dealerC.id, dealerA.id]);
    expect(csv.rows.map((row) => row.ID)).toEqual(await dealerList({ q: tag }));
    expect(csv.rows[2]).toMatchObject({
      Name: `Mumbai Dealer ${tag}`,
      Email: dealerA.email,
      State: 'Maharashtra',
      Franchises: '2',
      Drivers: '3',
      Disabled: 'No',
    });
    expect(csv.rows[0]).toMatchObject({ State: 'Karnataka', Franchises: '1', Drivers: '0', Disabled: 'No' });
    expect(csv.rows[1]).toMatchObject({ State: 'Goa', Franchises: '0', Disabled: 'Yes' });
  });

  it('applies the state filter of the list', async () => {
    const csv = await fetchCsv(t, `/api/city_dealer/export.csv?q=${tag}&state=karnataka`, admin.headers);
    expect(csv.rows.map((row) => row.ID)).toEqual([dealerB.id]);
    expect(csv.rows.map((row) => row.ID)).toEqual(await dealerList({ q: tag, state: 'karnataka' }));
  });

  it('is for admins only, as the list is', async () => {
    for (const who of [dealerA, franchiseA1]) {
      const response = await t.app.inject({
        method: 'GET',
        url: '/api/city_dealer/export.csv',
        headers: who.headers,
      });
      expect(response.statusCode).toBe(403);
    }
  });
});

describe('GET /api/franchise/export.csv', () => {
  it('answers an admin every franchise and a city dealer its own, as the list does', async () => {
    EXPORT_TUNING.batchSize = 1;
    const all = await fetchCsv(t, `/api/franchise/export.csv?q=${tag}`, admin.headers);
    expect(all.rows.map((row) => row.ID)).toEqual([franchiseB1.id, franchiseA2.id, franchiseA1.id]);
    expect(all.rows.map((row) => row.ID)).toEqual(await franchiseList(admin, { q: tag }));
    const own = await fetchCsv(t, `/api/franchise/export.csv?q=${tag}`, dealerA.headers);
    expect(own.rows.map((row) => row.ID)).toEqual([franchiseA2.id, franchiseA1.id]);
    expect(own.rows.map((row) => row.ID)).toEqual(await franchiseList(dealerA, { q: tag }));
    const other = await fetchCsv(t, `/api/franchise/export.csv?q=${tag}`, dealerB.headers);
    expect(other.rows.map((row) => row.ID)).toEqual([franchiseB1.id]);
  });

  it('writes the city dealer and the driver count, and neutralises formulas', async () => {
    const csv = await fetchCsv(t, `/api/franchise/export.csv?q=${tag}`, dealerA.headers);
    expect(csv.headers).toEqual([
      'Name',
      'Email',
      'State',
      'City Dealer',
      'Drivers',
      'Created (IST)',
      'Disabled',
      'ID',
    ]);
    expect(csv.rows[0]).toMatchObject({
      Name: `'+Thane Cabs ${tag}`,
      'City Dealer': `Mumbai Dealer ${tag}`,
      Drivers: '1',
    });
    expect(csv.rows[1]).toMatchObject({ Name: `Pune Cabs ${tag}`, Drivers: '2' });
  });

  it('is refused to franchises, as the list is', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/franchise/export.csv',
      headers: franchiseA1.headers,
    });
    expect(response.statusCode).toBe(403);
  });
});
