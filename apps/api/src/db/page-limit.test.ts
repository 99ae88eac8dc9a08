import { randomInt } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAccount, createCustomer, createDriver, createTrip } from '../seed/factories';
import { pageLimit } from './page-limit';
import { trips } from './schema';
import { fetchListIds } from '../../test/csv-export';
import { authHeader, issueToken, useTestApp } from '../../test/test-app';

const t = useTestApp();
const tag = Array.from({ length: 8 }, () => String.fromCharCode(97 + randomInt(26))).join('');
let admin: { authorization: string };
const ROWS = 55;

beforeAll(async () => {
  admin = authHeader((await issueToken(t.db, await createAccount(t.db, { role: 'admin' }))).token);
  const customer = await createCustomer(t.db, { name: 'Rider' });
  for (let i = 0; i < ROWS; i++) {
    const number = String(i).padStart(2, '0');
    await createCustomer(t.db, { name: `Customer ${number} ${tag}` });
    await createDriver(t.db, { name: `Driver ${number} ${tag}` });
    await createTrip(t.db, {
      customer,
      createdAt: new Date(Date.now() - i * 60_000),
      overrides: { title: `Trip ${number} ${tag}` },
    });
  }
});

describe('pageLimit', () => {
  it('writes the usual page sizes into the statement and sends others as parameters', () => {
    const usual = t.db.select({ id: trips.id }).from(trips).limit(pageLimit(51)).toSQL();
    expect(usual.sql).toMatch(/ limit 51$/);
    expect(usual.params).toEqual([]);
    const other = t.db.select({ id: trips.id }).from(trips).limit(pageLimit(8)).toSQL();
    expect(other.sql).toMatch(/ limit \$1$/);
    expect(other.params).toEqual([8]);
  });
});

/** Every page of a list at one page size (the list's default without one), walked to the end. */
async function walk(url: string, limit?: number) {
  const sizes: number[] = [];
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const response: { statusCode: number; body: string; json: <T>() => T } = await t.app.inject({
      method: 'GET',
      url,
      headers: admin,
      query: { q: tag, ...(limit ? { limit: String(limit) } : {}), ...(cursor ? { cursor } : {}) },
    });
    expect(response.statusCode, response.body).toBe(200);
    const page: { data: Record<string, unknown>; nextCursor: string | null } = response.json<{
      data: Record<string, unknown>;
      nextCursor: string | null;
    }>();
    sizes.push(Object.keys(page.data).length);
    ids.push(...Object.keys(page.data));
    cursor = page.nextCursor;
  } while (cursor);
  return { sizes, ids };
}

describe.each(['/api/trips', '/api/drivers', '/api/customers'])('%s pages', (url) => {
  it('hold as many rows as asked at every size, written or sent, without a gap or a repeat', async () => {
    const all = await fetchListIds(t, { url, query: { q: tag } }, admin);
    expect(all).toHaveLength(ROWS);
    const byDefault = await walk(url);
    expect(byDefault.sizes).toEqual([50, 5]);
    expect(byDefault.ids).toEqual(all);
    const twenties = await walk(url, 20);
    expect(twenties.sizes).toEqual([20, 20, 15]);
    expect(twenties.ids).toEqual(all);
    const sevens = await walk(url, 7);
    expect(sevens.sizes).toEqual([7, 7, 7, 7, 7, 7, 7, 6]);
    expect(sevens.ids).toEqual(all);
  });
});
