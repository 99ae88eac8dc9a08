import { randomInt } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { TRIP_STATUSES } from '@bmet/shared/constants';
import { EXPIRING_DOCUMENTS } from '@bmet/shared/document-rules';
import {
  buildDocumentRow,
  createAccount,
  createCustomer,
  createDriver,
  createTrip,
  insertDocuments,
} from '../seed/factories';
import { recordAudit } from '../infra/audit';
import { fetchCsv } from '../../test/csv-export';
import { authHeader, issueToken, useTestApp } from '../../test/test-app';

const t = useTestApp();
const tag = Array.from({ length: 8 }, () => String.fromCharCode(97 + randomInt(26))).join('');
type Role = 'admin' | 'city_dealer' | 'franchise';
const headers = {} as Record<Role, { authorization: string }>;
let adminId: string;
type Row = Record<string, unknown> & { id: string };

const day = (n: number) => new Date(Date.UTC(2026, 0, 1 + n, 6, 30));
/** A date some days ahead, clear of the edges of the day in India. */
const daysAhead = (n: number) => new Date(Date.now() + (n + 1) * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  const admin = await createAccount(t.db, { role: 'admin' });
  adminId = admin.id;
  const dealer = await createAccount(t.db, {
    role: 'city_dealer',
    state: 'maharashtra',
    displayName: `Dealer ${tag}`,
  });
  const otherDealer = await createAccount(t.db, {
    role: 'city_dealer',
    state: 'gujarat',
    displayName: `Bhavna ${tag}`,
  });
  await createAccount(t.db, { role: 'city_dealer', state: 'goa', displayName: `Dealer ${tag}` });
  // Franchises with tied names and states, created on different days.
  const franchises = [
    await createAccount(t.db, {
      role: 'franchise',
      dealerId: dealer.id,
      state: 'maharashtra',
      displayName: `Kiran ${tag}`,
      createdAt: day(3),
    }),
    await createAccount(t.db, {
      role: 'franchise',
      dealerId: dealer.id,
      state: 'maharashtra',
      displayName: `Arun ${tag}`,
      createdAt: day(1),
    }),
    await createAccount(t.db, {
      role: 'franchise',
      dealerId: otherDealer.id,
      state: 'gujarat',
      displayName: `Arun ${tag}`,
      createdAt: day(2),
    }),
  ];
  const franchise = franchises[0]!;
  headers.admin = authHeader((await issueToken(t.db, admin)).token);
  headers.city_dealer = authHeader((await issueToken(t.db, dealer)).token);
  headers.franchise = authHeader((await issueToken(t.db, franchise)).token);

  // Drivers in all three franchises: tied names, creation days out of name order.
  const names = ['Mohan', 'Bala', 'Mohan', 'Zoya', 'Charu', 'Bala', 'Irfan'];
  const drivers = [];
  for (const [index, name] of names.entries()) {
    drivers.push(
      await createDriver(t.db, {
        name: `${name} ${tag}`,
        franchiseId: franchises[index % 3]!.id,
        createdAt: day(10 - index),
        deletedAt: null,
      }),
    );
  }
  // The franchise's drivers' documents: expiring on tied and distinct days, and awaiting review.
  const own = drivers.filter((_, index) => index % 3 === 0);
  await insertDocuments(t.db, [
    ...own.flatMap((driver, i) =>
      EXPIRING_DOCUMENTS.slice(0, 3).map((key, j) =>
        buildDocumentRow(
          driver.id,
          { key, status: 'approved', expiresOn: daysAhead((i * 7 + j * 4) % 12) },
          null,
          'k',
          1,
        ),
      ),
    ),
    ...own.map((driver, i) => ({
      ...buildDocumentRow(driver.id, { key: 'aadharCard', status: 'submitted' }, null, 'k', 1),
      uploadedAt: day(i === 1 ? 5 : 9 - i),
      expiresOn: i === 2 ? daysAhead(40) : null,
    })),
  ]);
  // Changes by the admin, for the audit trail.
  for (const [index, driver] of drivers.slice(0, 5).entries()) {
    await recordAudit(
      t.db,
      { id: admin.id, requestId: `sorting-${index}` },
      {
        action: 'update',
        resource: 'drivers',
        resourceId: driver.id,
        before: { name: 'x' },
        after: { name: 'y' },
      },
    );
  }
  for (const name of ['Pooja', 'Anil', 'Pooja', 'Farah']) {
    await createCustomer(t.db, { name: `${name} ${tag}` });
  }
  // Trips of those drivers: tied and unknown prices, every status, created out of price order.
  const customer = await createCustomer(t.db, { name: `Rider ${tag}` });
  const prices = [250, null, 90, 250, 410, 90, null, 1200, 75.5, 250];
  for (const [index, price] of prices.entries()) {
    await createTrip(t.db, {
      customer,
      driver: { id: drivers[index % drivers.length]!.id, state: 'maharashtra', carType: null },
      createdAt: day(20 + ((index * 7) % 10)),
      status: TRIP_STATUSES[index % TRIP_STATUSES.length],
      overrides: { price, title: `Rider ${tag}` },
    });
  }
});

type ListRequest = {
  method?: 'GET' | 'POST';
  url: string;
  query?: Record<string, string>;
  body?: Record<string, unknown>;
  /** Where the rows are: the spec's `{ data: { id: row } }` or a plain `{ data: [rows] }`. */
  keyed?: boolean;
};

/** Every row of a list in its order, read two at a time so that every page boundary is crossed. */
async function walk(request: ListRequest, role: Role, sort: Record<string, string> = {}): Promise<Row[]> {
  const rows: Row[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 100; page++) {
    const paging = { limit: '2', ...(cursor ? { cursor } : {}) };
    const response =
      request.method === 'POST'
        ? await t.app.inject({
            method: 'POST',
            url: request.url,
            headers: headers[role],
            query: sort,
            payload: { ...request.body, limit: 2, ...(cursor ? { cursor } : {}) },
          })
        : await t.app.inject({
            method: 'GET',
            url: request.url,
            headers: headers[role],
            query: { ...request.query, ...sort, ...paging },
          });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json() as { data: Row[] | Record<string, Row>; nextCursor: string | null };
    const data = Array.isArray(body.data) ? body.data : Object.values(body.data);
    // A compliance entry is a driver's document: that is its identity.
    rows.push(
      ...data.map((row) => ({ ...row, id: row.id ?? `${String(row.driverId)}/${String(row.document)}` })),
    );
    if (!body.nextCursor) return rows;
    cursor = body.nextCursor;
  }
  throw new Error('the list did not end');
}

const ids = (rows: Row[]) => rows.map((row) => row.id);

type Compare = (a: Row, b: Row) => number;
const byText =
  (field: string): Compare =>
  (a, b) => {
    const x = String(a[field] ?? '');
    const y = String(b[field] ?? '');
    return x < y ? -1 : x > y ? 1 : 0;
  };
const byNumber =
  (field: string, missing: number): Compare =>
  (a, b) =>
    ((a[field] as number | null) ?? missing) - ((b[field] as number | null) ?? missing);
const byTime =
  (field: string): Compare =>
  (a, b) =>
    Date.parse(String(a[field])) - Date.parse(String(b[field]));
const then =
  (...compares: Compare[]): Compare =>
  (a, b) => {
    for (const compare of compares) {
      const result = compare(a, b);
      if (result !== 0) return result;
    }
    return 0;
  };

/**
 * A sort of a list, as the caller reads it: the same rows as the list in its own order (the scope
 * unchanged), in the order `compare` describes, no row twice across the pages; and `desc` the
 * exact reverse of `asc`.
 */
async function expectSorted(request: ListRequest, role: Role, field: string, compare: Compare) {
  const plain = await walk(request, role);
  const ascending = await walk(request, role, { sort: field, order: 'asc' });
  const descending = await walk(request, role, { sort: field, order: 'desc' });
  expect(new Set(ids(ascending)).size).toBe(ascending.length);
  expect([...ids(ascending)].sort()).toEqual([...ids(plain)].sort());
  expect(ascending.length).toBeGreaterThan(1);
  for (let i = 1; i < ascending.length; i++) {
    expect(compare(ascending[i - 1]!, ascending[i]!), `${field}: row ${i}`).toBeLessThanOrEqual(0);
  }
  expect(ids(descending)).toEqual(ids(ascending).reverse());
  return ascending;
}

describe('sorting the lists', () => {
  const drivers: ListRequest = { url: '/api/drivers', query: { q: tag } };

  it('sorts drivers by name and by creation for each role, within its scope', async () => {
    for (const role of ['admin', 'city_dealer', 'franchise'] as const) {
      const byName = await expectSorted(drivers, role, 'name', byText('name'));
      expect(byName.length).toBe({ admin: 7, city_dealer: 5, franchise: 3 }[role]);
      await expectSorted(drivers, role, 'createdAt', byTime('createdAt'));
    }
  });

  it('sorts customers by name', async () => {
    await expectSorted({ url: '/api/customers', query: { q: tag } }, 'admin', 'name', byText('name'));
  });

  it('sorts city dealers and franchises by name, state and creation', async () => {
    const franchises: ListRequest = { url: '/api/franchise/getFranchise', query: { q: tag } };
    for (const role of ['admin', 'city_dealer'] as const) {
      const rows = await expectSorted(franchises, role, 'name', byText('name'));
      expect(rows.length).toBe({ admin: 3, city_dealer: 2 }[role]);
      await expectSorted(franchises, role, 'state', then(byText('state'), byText('name')));
      await expectSorted(franchises, role, 'createdAt', byTime('createdAt'));
    }
    // The spec's POST list takes the sort in its query string, or in its body.
    const dealers: ListRequest = { method: 'POST', url: '/api/city_dealer/getcitydealers', body: { q: tag } };
    await expectSorted(dealers, 'admin', 'name', byText('name'));
    await expectSorted(dealers, 'admin', 'state', then(byText('state'), byText('name')));
    await expectSorted(dealers, 'admin', 'createdAt', byTime('createdAt'));
    const inBody = await walk({ ...dealers, body: { q: tag, sort: 'name', order: 'desc' } }, 'admin');
    expect(ids(inBody)).toEqual(ids(await walk(dealers, 'admin', { sort: 'name', order: 'desc' })));
  });

  it('sorts trips by date, price and status, on both list paths', async () => {
    const admin: ListRequest = { url: '/api/trips', query: { q: tag } };
    const dealer: ListRequest = { method: 'POST', url: '/api/trips/filter-trips', body: { q: tag } };
    const statusOrder: Compare = (a, b) =>
      TRIP_STATUSES.indexOf(a.status as never) - TRIP_STATUSES.indexOf(b.status as never);
    for (const [request, role] of [
      [admin, 'admin'],
      [dealer, 'city_dealer'],
      [dealer, 'franchise'],
    ] as const) {
      const newest = await walk(request, role);
      const oldest = await expectSorted(request, role, 'createdAt', byTime('createdAt'));
      expect(ids(newest)).toEqual(ids(oldest).reverse());
      const cheapest = await expectSorted(request, role, 'price', byNumber('price', -1));
      // Unknown prices sort as the lowest.
      if (cheapest.some((trip) => trip.price === null)) expect(cheapest[0]!.price).toBeNull();
      // Within a status, newest first.
      await expectSorted(
        request,
        role,
        'status',
        then(statusOrder, (a, b) => byTime('createdAt')(b, a)),
      );
    }
  });

  it('sorts the audit trail by time either way', async () => {
    const mine: ListRequest = { url: '/api/audit', query: { actor: adminId } };
    const oldest = await expectSorted(mine, 'admin', 'at', byTime('at'));
    expect(oldest.length).toBe(5);
    expect(ids(await walk(mine, 'admin'))).toEqual(ids(oldest).reverse());
  });

  it('sorts the compliance views by expiry, upload and driver name', async () => {
    const expiring: ListRequest = { url: '/api/compliance', query: { within: '30' }, keyed: false };
    const review: ListRequest = { url: '/api/compliance', query: { status: 'submitted' }, keyed: false };
    const byExpiry = await expectSorted(expiring, 'franchise', 'expiresOn', byText('expiresOn'));
    expect(byExpiry.length).toBe(9);
    expect(ids(await walk(expiring, 'franchise'))).toEqual(ids(byExpiry));
    await expectSorted(expiring, 'franchise', 'driverName', byText('driverName'));
    const byUpload = await expectSorted(review, 'franchise', 'uploadedAt', byTime('uploadedAt'));
    expect(byUpload.length).toBe(3);
    expect(ids(await walk(review, 'franchise'))).toEqual(ids(byUpload));
    // Without an expiry date, a document sorts as the latest.
    const latest = (row: Row) => String(row.expiresOn ?? '9999-12-31');
    const reviewByExpiry = await expectSorted(review, 'franchise', 'expiresOn', (a, b) =>
      latest(a).localeCompare(latest(b)),
    );
    expect(reviewByExpiry[0]!.expiresOn).not.toBeNull();
  });

  it('exports in the order the list is sorted', async () => {
    const sorted = await walk({ url: '/api/drivers', query: { q: tag } }, 'admin', {
      sort: 'createdAt',
      order: 'desc',
    });
    const csv = await fetchCsv(
      t,
      `/api/drivers/export.csv?q=${tag}&sort=createdAt&order=desc`,
      headers.admin,
    );
    expect(csv.rows.map((row) => row.ID)).toEqual(ids(sorted));
    const trips = await walk({ url: '/api/trips', query: { q: tag } }, 'admin', { sort: 'price' });
    const tripCsv = await fetchCsv(t, `/api/trips/export.csv?q=${tag}&sort=price`, headers.admin);
    expect(tripCsv.rows.map((row) => row.ID)).toEqual(ids(trips));
  });

  it('refuses a field a list does not sort by, an unknown order, and a cursor of another sort', async () => {
    const unknownField = await t.app.inject({
      method: 'GET',
      url: '/api/drivers?sort=email',
      headers: headers.admin,
    });
    expect(unknownField.statusCode).toBe(400);
    expect(unknownField.json().error).toContain('Sort by one of: name, createdAt.');
    const unknownOrder = await t.app.inject({
      method: 'GET',
      url: '/api/trips?order=up',
      headers: headers.admin,
    });
    expect(unknownOrder.statusCode).toBe(400);
    expect(unknownOrder.json().error).toContain('Order must be asc or desc.');

    const first = await t.app.inject({
      method: 'GET',
      url: `/api/drivers?q=${tag}&limit=2&sort=name`,
      headers: headers.admin,
    });
    const cursor = first.json().nextCursor as string;
    for (const sort of ['sort=createdAt', 'sort=name&order=desc']) {
      const mixed = await t.app.inject({
        method: 'GET',
        url: `/api/drivers?q=${tag}&limit=2&${sort}&cursor=${cursor}`,
        headers: headers.admin,
      });
      expect(mixed.statusCode).toBe(400);
      expect(mixed.json()).toEqual({
        error: 'Invalid cursor.',
        code: 'VALIDATION',
        fieldErrors: { cursor: ['Invalid cursor.'] },
      });
    }
  });
});
