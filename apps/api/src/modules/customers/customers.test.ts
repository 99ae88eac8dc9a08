import { randomInt, randomUUID } from 'node:crypto';
import { count, eq, like } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '@bmet/shared/constants';
import { m } from '@bmet/shared/paraglide/messages';
import type { customerListResponseSchema } from '@bmet/shared/schemas/customer';
import type { z } from 'zod';
import type { Db } from '../../db/client';
import { customerRatings, customers } from '../../db/schema';
import { createAccount, createCustomer } from '../../seed/factories';
import { authHeader, issueToken, useTestApp } from '../../../test/test-app';

type CustomerList = z.infer<typeof customerListResponseSchema>;

const t = useTestApp();
const headers = {} as Record<Role, { authorization: string }>;

/** A word of letters no other test uses: customers named with it are found by searching for it. */
const uniqueTag = () => Array.from({ length: 8 }, () => String.fromCharCode(97 + randomInt(26))).join('');

async function headersOf(db: Db, role: Role) {
  const account = await createAccount(db, { role });
  return authHeader((await issueToken(db, account)).token);
}

beforeAll(async () => {
  for (const role of ['admin', 'city_dealer', 'franchise'] as const)
    headers[role] = await headersOf(t.db, role);
});

const get = (role: Role, url: string) => t.app.inject({ method: 'GET', url, headers: headers[role] });
const list = async (query: string) => {
  const response = await get('admin', `/api/customers?${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<CustomerList>();
};

describe('customers are for admins only', () => {
  it.each(['city_dealer', 'franchise'] as const)('answers 403 to a %s', async (role) => {
    const customer = await createCustomer(t.db);
    for (const url of ['/api/customers', `/api/customers/${customer.id}`, '/api/customers?q=a']) {
      const response = await get(role, url);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ error: m.forbidden(), code: 'FORBIDDEN' });
    }
  });

  it('answers 401 without a token', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/customers' });
    expect(response.statusCode).toBe(401);
  });
});

describe('GET /api/customers', () => {
  const tag = uniqueTag();
  const made: Record<string, { id: string; name: string; email: string | null; phoneNumber: string | null }> =
    {};

  beforeAll(async () => {
    const rows = {
      zara: { name: `Zara Khan ${tag}`, email: `zara.${tag}@example.in`, phoneNumber: '+919800000001' },
      anil: { name: `Anil Mehta ${tag}`, email: null, phoneNumber: '+919811112222' },
      bela: { name: `Bela Das ${tag}`, email: `BELA.DAS.${tag}@Example.IN`, phoneNumber: null },
      percent: { name: `Percent 100% ${tag}`, email: null, phoneNumber: null },
      underscore: { name: `Under a_b ${tag}`, email: null, phoneNumber: null },
      lookalike: { name: `Under axb ${tag}`, email: null, phoneNumber: null },
    };
    for (const [key, row] of Object.entries(rows)) made[key] = await createCustomer(t.db, row);
  });

  const names = (body: CustomerList) => Object.values(body.data).map((customer) => customer.name);

  it('answers customers by name, keyed by id, with their email and phone, and the total', async () => {
    const body = await list(`q=${tag}`);
    expect(names(body)).toEqual([
      `Anil Mehta ${tag}`,
      `Bela Das ${tag}`,
      `Percent 100% ${tag}`,
      `Under a_b ${tag}`,
      `Under axb ${tag}`,
      `Zara Khan ${tag}`,
    ]);
    expect(body.total).toBe(6);
    expect(body.nextCursor).toBeNull();
    expect(body.data[made.zara!.id]).toEqual({
      id: made.zara!.id,
      name: `Zara Khan ${tag}`,
      email: `zara.${tag}@example.in`,
      phoneNumber: '+919800000001',
    });
    expect(body.data[made.anil!.id]).toMatchObject({ email: null });
  });

  it('searches name, email and phone number, whatever the case', async () => {
    expect(names(await list(`q=zara KHAN ${tag}`))).toEqual([`Zara Khan ${tag}`]);
    expect(names(await list(`q=bela.das.${tag.toUpperCase()}@example`))).toEqual([`Bela Das ${tag}`]);
    // Anil has no email: his search text reads 'anil mehta <tag>  +919811112222'.
    const byPhone = await list(`q=${encodeURIComponent(`${tag}  +91981111`)}`);
    expect(names(byPhone)).toEqual([`Anil Mehta ${tag}`]);
    expect(byPhone.total).toBe(1);
    expect(names(await list(`q=${encodeURIComponent('+919800000001')}`))).toContain(`Zara Khan ${tag}`);
  });

  it('takes % and _ literally', async () => {
    expect(names(await list(`q=${encodeURIComponent(`100% ${tag}`)}`))).toEqual([`Percent 100% ${tag}`]);
    expect(names(await list(`q=${encodeURIComponent(`a_b ${tag}`)}`))).toEqual([`Under a_b ${tag}`]);
  });

  it('refuses a search holding the NUL character, which PostgreSQL text cannot hold', async () => {
    const response = await get('admin', '/api/customers?q=a%00b');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'q: Must not contain the NUL character.' });
  });

  it('walks the pages in name order, each customer once, with the total on every page', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const body: CustomerList = await list(`q=${tag}&limit=4${cursor ? `&cursor=${cursor}` : ''}`);
      expect(body.total).toBe(6);
      seen.push(...Object.keys(body.data));
      cursor = body.nextCursor;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(2);
    const expected = ['anil', 'bela', 'percent', 'underscore', 'lookalike', 'zara'].map(
      (key) => made[key]!.id,
    );
    expect(seen).toEqual(expected);
  });

  it('orders customers of the same name by id', async () => {
    const twinTag = uniqueTag();
    const twins = [];
    for (let i = 0; i < 3; i++) twins.push(await createCustomer(t.db, { name: `Twin ${twinTag}` }));
    const ids = twins.map((twin) => twin.id).sort();
    const first = await list(`q=${twinTag}&limit=2`);
    const second = await list(`q=${twinTag}&limit=2&cursor=${first.nextCursor}`);
    expect([...Object.keys(first.data), ...Object.keys(second.data)]).toEqual(ids);
    expect(second.nextCursor).toBeNull();
  });

  it('answers 400 Invalid cursor. for a cursor it did not hand out', async () => {
    const forged = [
      { name: 1, id: randomUUID() },
      { name: 'a\u0000', id: randomUUID() },
    ].map((key) => Buffer.from(JSON.stringify(key)).toString('base64url'));
    for (const cursor of ['%%%', 'e30', ...forged]) {
      const response = await get('admin', `/api/customers?cursor=${encodeURIComponent(cursor)}`);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        error: m.invalidCursor(),
        code: 'VALIDATION',
        fieldErrors: { cursor: [m.invalidCursor()] },
      });
    }
  });
});

describe('the count of the unsearched customer list', () => {
  const tableCount = async () => (await t.db.select({ n: count() }).from(customers))[0]!.n;
  const shownCount = async () => {
    const body = await list('limit=1');
    expect(body.totalCapped).toBe(false);
    return body.total;
  };

  it('is every customer, exactly, through inserts and deletes one by one and in bulk', async () => {
    expect(await shownCount()).toBe(await tableCount());
    const tag = uniqueTag();
    const one = await createCustomer(t.db, { name: `Counted ${tag}` });
    expect(await shownCount()).toBe(await tableCount());
    await t.db
      .insert(customers)
      .values(Array.from({ length: 7 }, (_, i) => ({ name: `Counted ${tag} ${i}` })));
    const before = await tableCount();
    expect(await shownCount()).toBe(before);
    await t.db.delete(customers).where(eq(customers.id, one.id));
    expect(await shownCount()).toBe(before - 1);
    await t.db.delete(customers).where(like(customers.name, `Counted ${tag} %`));
    expect(await shownCount()).toBe(before - 8);
    expect(await shownCount()).toBe(await tableCount());
  });
});

describe('GET /api/customers/:id', () => {
  it('answers the customer with ratings newest first, unrated entries kept, and the average of the rated', async () => {
    const customer = await createCustomer(t.db, { name: 'Kavya Iyer', email: 'kavya@example.in' });
    const day = (n: number) => new Date(Date.UTC(2025, 0, n));
    await t.db.insert(customerRatings).values([
      {
        customerId: customer.id,
        customerName: 'Kavya Iyer',
        description: 'Polite',
        rating: 5,
        createdAt: day(1),
      },
      {
        customerId: customer.id,
        customerName: 'Kavya Iyer',
        description: 'Late',
        rating: 2,
        createdAt: day(3),
      },
      { customerId: customer.id, customerName: null, description: null, rating: null, createdAt: day(4) },
      // A value outside 1 to 5 left by an old app: shown unrated, not counted.
      {
        customerId: customer.id,
        customerName: 'Kavya Iyer',
        description: 'Odd',
        rating: 0,
        createdAt: day(2),
      },
    ]);
    const response = await get('admin', `/api/customers/${customer.id}`);
    expect(response.statusCode).toBe(200);
    const { data } = response.json();
    expect(data).toMatchObject({
      id: customer.id,
      name: 'Kavya Iyer',
      email: 'kavya@example.in',
      phoneNumber: customer.phoneNumber,
      rating: { average: 3.5, count: 2 },
    });
    expect(data.ratings).toEqual([
      {
        id: expect.any(String),
        customerName: null,
        description: null,
        rating: null,
        date: day(4).toISOString(),
      },
      {
        id: expect.any(String),
        customerName: 'Kavya Iyer',
        description: 'Late',
        rating: 2,
        date: day(3).toISOString(),
      },
      {
        id: expect.any(String),
        customerName: 'Kavya Iyer',
        description: 'Odd',
        rating: null,
        date: day(2).toISOString(),
      },
      {
        id: expect.any(String),
        customerName: 'Kavya Iyer',
        description: 'Polite',
        rating: 5,
        date: day(1).toISOString(),
      },
    ]);
  });

  it('answers a customer without ratings with a null average', async () => {
    const customer = await createCustomer(t.db);
    const response = await get('admin', `/api/customers/${customer.id}`);
    expect(response.json().data).toMatchObject({ ratings: [], rating: { average: null, count: 0 } });
  });

  it('sends the newest 100 entries but averages them all', async () => {
    const customer = await createCustomer(t.db);
    await t.db.insert(customerRatings).values(
      Array.from({ length: 105 }, (_, i) => ({
        customerId: customer.id,
        customerName: 'Someone',
        description: `Entry ${i}`,
        rating: i < 5 ? 1 : 5,
        createdAt: new Date(Date.UTC(2025, 0, 1) + i * 60_000),
      })),
    );
    const { data } = (await get('admin', `/api/customers/${customer.id}`)).json();
    expect(data.ratings).toHaveLength(100);
    expect(data.ratings[0].description).toBe('Entry 104');
    expect(data.ratings[99].description).toBe('Entry 5');
    expect(data.rating).toEqual({ average: 4.8, count: 105 });
  });

  it('answers 404 for an unknown customer and 400 for an id that is not an id', async () => {
    const missing = await get('admin', `/api/customers/${randomUUID()}`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: m.notFound(), code: 'NOT_FOUND' });
    expect((await get('admin', '/api/customers/123')).statusCode).toBe(400);
  });
});
