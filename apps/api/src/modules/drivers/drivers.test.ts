import { MANDATORY_DOCUMENTS } from '@bmet/shared/document-rules';
import { randomUUID } from 'node:crypto';
import { eq, isNotNull, isNull } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { LIST_TOTAL_CAP } from '@bmet/shared/constants';
import { m } from '@bmet/shared/paraglide/messages';
import type { DriverListResponse } from '@bmet/shared/schemas/driver';
import { drivers } from '../../db/schema';
import { createDriver, insertDriverRatings } from '../../seed/factories';
import { useTestApp } from '../../../test/test-app';
import {
  auditRowsOf,
  createDriverWorld,
  createStaff,
  getAs,
  notFoundBody,
  uniqueTag,
  type DriverWorld,
  type Staff,
  NO_CHECKS,
} from '../../../test/driver-fixtures';
import { stateLabel } from '@bmet/shared/labels';

const t = useTestApp();
let w: DriverWorld;

beforeAll(async () => {
  w = await createDriverWorld(t.db);
});

const list = async (who: Staff, url: string) => {
  const response = await getAs(t, who, url);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<DriverListResponse>();
};
const idsOf = (body: DriverListResponse) => Object.keys(body.data);

describe('GET /api/drivers, /api/city_dealer, /api/franchise', () => {
  it('answers an admin every driver, keyed by id in name order, with the franchise name', async () => {
    const body = await list(w.admin, `/api/drivers?q=${w.tag}`);
    const { a1, a2, b1, loose } = w.drivers;
    expect(idsOf(body)).toEqual([a1.id, a2.id, b1.id, loose.id]);
    expect(body.total).toBe(4);
    expect(body.nextCursor).toBeNull();
    expect(body.data[a1.id]).toEqual({
      id: a1.id,
      name: a1.name,
      email: a1.email,
      phoneNumber: a1.phoneNumber,
      country: a1.country,
      state: 'maharashtra',
      franchiseId: w.franchiseA1.id,
      franchiseName: `Pune ${w.tag} Cabs`,
      carModel: a1.carModel,
      vehicleNumber: a1.vehicleNumber,
      carType: a1.carType,
      position: a1.lat === null ? null : { lat: a1.lat, long: a1.long },
      positionAt: a1.positionAt?.toISOString() ?? null,
      createdAt: a1.createdAt.toISOString(),
      deletedAt: null,
      compliance: {
        compliant: false,
        problems: MANDATORY_DOCUMENTS.map((document) => ({ document, problem: 'missing' })),
        checks: NO_CHECKS,
        vehicle: [],
      },
    });
    expect(body.data[loose.id]).toMatchObject({ franchiseId: null, franchiseName: null, state: null });
  });

  it('names a franchise without a display name by its email', async () => {
    const franchise = await createStaff(t.db, { role: 'franchise', displayName: null });
    const driver = await createDriver(t.db, { franchiseId: franchise.id });
    const body = await list(franchise, '/api/franchise');
    expect(body.data[driver.id]?.franchiseName).toBe(franchise.email);
  });

  it.each(['/api/drivers', '/api/city_dealer'])(
    'answers a city dealer on %s only the drivers of its own franchises',
    async (path) => {
      const body = await list(w.dealerA, path);
      expect(idsOf(body)).toEqual([w.drivers.a1.id, w.drivers.a2.id]);
      expect(body.total).toBe(2);
      const other = await list(w.dealerB, path);
      expect(idsOf(other)).toEqual([w.drivers.b1.id]);
    },
  );

  it.each(['/api/drivers', '/api/franchise'])(
    'answers a franchise on %s only its own drivers',
    async (path) => {
      const body = await list(w.franchiseA1, path);
      expect(idsOf(body)).toEqual([w.drivers.a1.id]);
      expect(body.total).toBe(1);
    },
  );

  it("does not count a dealer's franchise's drivers for another dealer even when searched by name", async () => {
    const body = await list(w.dealerA, `/api/city_dealer?q=${encodeURIComponent(w.drivers.b1.name)}`);
    expect(body).toEqual({ data: {}, nextCursor: null, total: 0, totalCapped: false });
  });

  it('answers an empty page to a franchise without drivers', async () => {
    const franchise = await createStaff(t.db, { role: 'franchise' });
    expect(await list(franchise, '/api/franchise')).toEqual({
      data: {},
      nextCursor: null,
      total: 0,
      totalCapped: false,
    });
  });

  describe('pagination', () => {
    let franchise: Staff;
    let created: { id: string; name: string }[];

    beforeAll(async () => {
      franchise = await createStaff(t.db, { role: 'franchise' });
      // Names repeat, so that the order within one name (by id) matters too.
      const names = Array.from({ length: 23 }, (_, i) => `Pager ${String.fromCharCode(65 + (i % 9))}`);
      created = [];
      for (const name of names) created.push(await createDriver(t.db, { name, franchiseId: franchise.id }));
    });

    it('walks every page with the cursor: each driver once, in name then id order', async () => {
      const seen: string[] = [];
      const names: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const query = new URLSearchParams({ limit: '5', ...(cursor ? { cursor } : {}) });
        const body = await list(franchise, `/api/franchise?${query}`);
        expect(body.total).toBe(23);
        expect(Object.keys(body.data).length).toBeLessThanOrEqual(5);
        for (const driver of Object.values(body.data)) {
          seen.push(driver.id);
          names.push(driver.name);
        }
        cursor = body.nextCursor;
        pages++;
      } while (cursor && pages < 10);

      expect(pages).toBe(5);
      expect(new Set(seen).size).toBe(23);
      expect(new Set(seen)).toEqual(new Set(created.map((driver) => driver.id)));
      const expected = [...created]
        .sort((a, b) => (a.name === b.name ? (a.id < b.id ? -1 : 1) : a.name < b.name ? -1 : 1))
        .map((driver) => driver.id);
      expect(seen).toEqual(expected);
    });

    it("walks a city dealer's pages across its franchises, in one name order", async () => {
      const dealer = await createStaff(t.db, { role: 'city_dealer' });
      const mine = [];
      for (let f = 0; f < 3; f++) {
        const own = await createStaff(t.db, { role: 'franchise', dealerId: dealer.id });
        for (let i = 0; i < 5; i++) {
          // Interleaved names: every page mixes franchises.
          mine.push(
            await createDriver(t.db, {
              name: `Walk ${String.fromCharCode(65 + ((i * 3 + f) % 7))}`,
              franchiseId: own.id,
            }),
          );
        }
      }
      // Another dealer's driver of the same name stays out.
      await createDriver(t.db, { name: 'Walk A', franchiseId: w.franchiseB1.id });

      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const query = new URLSearchParams({ limit: '4', ...(cursor ? { cursor } : {}) });
        const body = await list(dealer, `/api/city_dealer?${query}`);
        expect(body.total).toBe(15);
        seen.push(...Object.keys(body.data));
        cursor = body.nextCursor;
        pages++;
      } while (cursor && pages < 10);
      expect(pages).toBe(4);
      const expected = [...mine]
        .sort((a, b) => (a.name === b.name ? (a.id < b.id ? -1 : 1) : a.name < b.name ? -1 : 1))
        .map((driver) => driver.id);
      expect(seen).toEqual(expected);
    });

    it('answers no cursor on a page that ends exactly at the last driver', async () => {
      const body = await list(franchise, '/api/franchise?limit=23');
      expect(Object.keys(body.data)).toHaveLength(23);
      expect(body.nextCursor).toBeNull();
    });

    it('counts a search exactly whether its first page holds all of it, all but one, or room to spare', async () => {
      for (const limit of [22, 23, 24]) {
        const body = await list(franchise, `/api/franchise?q=pager&limit=${limit}`);
        expect(body).toMatchObject({ total: 23, totalCapped: false });
        expect(idsOf(body)).toHaveLength(Math.min(limit, 23));
        expect(body.nextCursor === null).toBe(limit >= 23);
      }
    });

    it('pages a search too', async () => {
      const first = await list(w.admin, `/api/drivers?q=${w.tag}&limit=3`);
      expect(idsOf(first)).toHaveLength(3);
      expect(first.total).toBe(4);
      const second = await list(w.admin, `/api/drivers?q=${w.tag}&limit=3&cursor=${first.nextCursor}`);
      expect(idsOf(second)).toEqual([w.drivers.loose.id]);
      expect(second.nextCursor).toBeNull();
    });

    it.each([
      ['garbage', 'not a cursor!'],
      ['base64url of text that is not JSON', Buffer.from('hello').toString('base64url')],
      ['JSON of another shape', Buffer.from(JSON.stringify({ name: 'A' })).toString('base64url')],
      ['a key that is not a uuid', Buffer.from(JSON.stringify({ name: 'A', id: 'x' })).toString('base64url')],
    ])('answers 400 Invalid cursor. to %s', async (_label, cursor) => {
      const response = await getAs(t, franchise, `/api/franchise?cursor=${encodeURIComponent(cursor)}`);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        error: m.invalidCursor(),
        code: 'VALIDATION',
        fieldErrors: { cursor: [m.invalidCursor()] },
      });
    });

    it('answers 400 to a search carrying a NUL character (PostgreSQL text cannot hold it)', async () => {
      const response = await getAs(t, w.admin, '/api/drivers?q=a%00b');
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'VALIDATION', fieldErrors: { q: expect.any(Array) } });
    });

    it.each(['2026-02-30T10:00:00.000000Z', '0000-01-01T00:00:00.000000Z'])(
      'answers 400 Invalid cursor. to a booking-history cursor at the impossible time %s',
      async (at) => {
        const cursor = Buffer.from(JSON.stringify({ at, id: randomUUID() })).toString('base64url');
        const response = await getAs(
          t,
          w.admin,
          `/api/drivers/driver/${w.drivers.a1.id}/history?cursor=${cursor}`,
        );
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual({
          error: m.invalidCursor(),
          code: 'VALIDATION',
          fieldErrors: { cursor: [m.invalidCursor()] },
        });
      },
    );

    it.each(['0', '201', 'many'])('refuses limit=%s', async (limit) => {
      const response = await getAs(t, franchise, `/api/franchise?limit=${limit}`);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        code: 'VALIDATION',
        fieldErrors: { limit: expect.any(Array) },
      });
    });
  });

  describe('search', () => {
    let franchise: Staff;
    let tag: string;
    let target: Awaited<ReturnType<typeof createDriver>>;
    let percent: Awaited<ReturnType<typeof createDriver>>;
    let underscore: Awaited<ReturnType<typeof createDriver>>;

    beforeAll(async () => {
      tag = uniqueTag();
      franchise = await createStaff(t.db, { role: 'franchise' });
      target = await createDriver(t.db, {
        name: `Sunita ${tag} Deshmukh`,
        email: `sunita.${tag}@mail.example.in`,
        phoneNumber: '+919812345678',
        vehicleNumber: 'MH 12 AB 4321',
        franchiseId: franchise.id,
      });
      percent = await createDriver(t.db, {
        name: 'Ravi 100% Kumar',
        email: null,
        phoneNumber: '+917000000001',
        vehicleNumber: 'KA 01 ZZ 0001',
        franchiseId: franchise.id,
      });
      underscore = await createDriver(t.db, {
        name: 'Meena Iyer',
        email: 'meena_iyer@mail.example.in',
        phoneNumber: '+917000000002',
        vehicleNumber: 'TN 09 XY 0002',
        franchiseId: franchise.id,
      });
      // Would match "100%" and "a_i" if % and _ were wildcards.
      await createDriver(t.db, {
        name: 'Ravi 1000 Kumar',
        email: 'meenaxiyer@mail.example.in',
        phoneNumber: '+917000000003',
        vehicleNumber: 'GJ 05 QQ 0003',
        franchiseId: franchise.id,
      });
    });

    const search = async (q: string) =>
      idsOf(await list(franchise, `/api/franchise?q=${encodeURIComponent(q)}`));

    it.each([
      ['part of the name', () => `${tag} desh`],
      ['the name in another case', () => `SUNITA ${tag.toUpperCase()}`],
      ['part of the email', () => `a.${tag}@mail`],
      ['part of the phone number', () => '98123456'],
      ['part of the vehicle number, any case', () => 'mh 12 ab'],
      ['the phone number as said, without +91', () => '98123 45678'],
      ['the phone number with a leading 0', () => '09812345678'],
      ['the vehicle number in other spacing', () => 'mh12-ab-4321'],
    ])('finds a driver by %s', async (_label, q) => {
      expect(await search(q())).toEqual([target.id]);
    });

    it('reads % and _ literally', async () => {
      expect(await search('100%')).toEqual([percent.id]);
      expect(await search('%')).toEqual([percent.id]);
      expect(await search('a_i')).toEqual([underscore.id]);
      expect(await search('_')).toEqual([underscore.id]);
    });

    it('treats a backslash as an ordinary character', async () => {
      expect(await search('\\')).toEqual([]);
    });

    it('ignores surrounding spaces and an empty search', async () => {
      expect(await search(`  ${tag}  `)).toEqual([target.id]);
      expect(await search('   ')).toHaveLength(4);
    });

    it('counts what matches, not the whole scope', async () => {
      const body = await list(franchise, '/api/franchise?q=ravi&limit=1');
      expect(body.total).toBe(2);
      expect(idsOf(body)).toHaveLength(1);
      expect(body.nextCursor).not.toBeNull();
    });

    it('refuses a search longer than 100 characters', async () => {
      const response = await getAs(t, franchise, `/api/franchise?q=${'x'.repeat(101)}`);
      expect(response.statusCode).toBe(400);
    });
  });
});

describe('GET /api/drivers/driver/:id', () => {
  it('answers the driver with the average (one decimal) and count of its ratings', async () => {
    const driver = await createDriver(t.db, { franchiseId: w.franchiseA1.id, name: `Rated ${w.tag}` });
    const at = new Date();
    await insertDriverRatings(
      t.db,
      driver.id,
      [5, 4, null, 4].map((rating) => ({ customerName: 'Asha', description: 'Fine', rating, createdAt: at })),
    );
    const response = await getAs(t, w.dealerA, `/api/drivers/driver/${driver.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({
      id: driver.id,
      name: driver.name,
      franchiseName: `Pune ${w.tag} Cabs`,
      rating: { average: 4.3, count: 3 },
    });
  });

  it('answers a null average for a driver without ratings', async () => {
    const response = await getAs(t, w.admin, `/api/drivers/driver/${w.drivers.loose.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json().data.rating).toEqual({ average: null, count: 0 });
  });

  it.each([
    ['admin', 'b1'],
    ['dealerA', 'a2'],
    ['franchiseA1', 'a1'],
  ] as const)('shows a %s a driver in its scope (%s)', async (who, driver) => {
    const response = await getAs(t, w[who], `/api/drivers/driver/${w.drivers[driver].id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json().data.id).toBe(w.drivers[driver].id);
  });

  it.each([
    ['dealerA', 'b1'],
    ['dealerA', 'loose'],
    ['dealerB', 'a1'],
    ['franchiseA1', 'a2'],
    ['franchiseB1', 'a1'],
  ] as const)('answers a %s 404 for a driver outside its scope (%s), as for none', async (who, driver) => {
    const response = await getAs(t, w[who], `/api/drivers/driver/${w.drivers[driver].id}`);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual(notFoundBody);
    const missing = await getAs(t, w[who], `/api/drivers/driver/${randomUUID()}`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual(notFoundBody);
  });

  it('answers 400 for an id that is not a uuid', async () => {
    const response = await getAs(t, w.admin, '/api/drivers/driver/42');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION', fieldErrors: { id: ['Not a valid id.'] } });
  });
});

describe('soft delete and restore', () => {
  const del = (who: Staff, id: string) =>
    t.app.inject({ method: 'DELETE', url: `/api/drivers/driver/${id}`, headers: who.headers });
  const restore = (who: Staff, id: string) =>
    t.app.inject({ method: 'POST', url: `/api/drivers/driver/${id}/restore`, headers: who.headers });

  it('hides a deleted driver everywhere until an admin restores it', async () => {
    const driver = await createDriver(t.db, { name: `Gone ${w.tag}`, franchiseId: w.franchiseA1.id });

    const deleted = await del(w.franchiseA1, driver.id);
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');

    const [row] = await t.db.select().from(drivers).where(eq(drivers.id, driver.id));
    expect(row?.deletedAt).toBeInstanceOf(Date);
    expect(row?.deletedBy).toBe(w.franchiseA1.id);

    for (const who of [w.admin, w.dealerA, w.franchiseA1]) {
      expect(idsOf(await list(who, `/api/drivers?q=${w.tag}`))).not.toContain(driver.id);
      const detail = await getAs(t, who, `/api/drivers/driver/${driver.id}`);
      expect(detail.statusCode).toBe(404);
      for (const part of ['documents', 'history', 'ratings']) {
        expect((await getAs(t, who, `/api/drivers/driver/${driver.id}/${part}`)).statusCode).toBe(404);
      }
    }
    expect((await del(w.franchiseA1, driver.id)).statusCode).toBe(404);
    expect((await del(w.admin, driver.id)).statusCode).toBe(404);

    const deletedList = await list(w.admin, `/api/drivers?q=${w.tag}&deleted=true`);
    expect(idsOf(deletedList)).toEqual([driver.id]);
    expect(deletedList.total).toBe(1);
    expect(deletedList.data[driver.id]?.deletedAt).toBe(row!.deletedAt!.toISOString());

    const restored = await restore(w.admin, driver.id);
    expect(restored.statusCode).toBe(200);
    expect(restored.json().data).toMatchObject({ id: driver.id, deletedAt: null, rating: { count: 0 } });
    expect(idsOf(await list(w.franchiseA1, '/api/franchise'))).toContain(driver.id);
    expect(idsOf(await list(w.admin, `/api/drivers?q=${w.tag}&deleted=true`))).toEqual([]);
    expect((await getAs(t, w.dealerA, `/api/drivers/driver/${driver.id}`)).statusCode).toBe(200);

    const audit = await auditRowsOf(t.db, 'drivers', driver.id);
    expect(audit).toHaveLength(2);
    expect(audit[0]).toMatchObject({
      actorId: w.franchiseA1.id,
      action: 'delete',
      before: { deletedAt: null, deletedBy: null },
      after: { deletedAt: row!.deletedAt!.toISOString(), deletedBy: w.franchiseA1.id },
      requestId: deleted.headers['x-request-id'],
    });
    expect(audit[1]).toMatchObject({
      actorId: w.admin.id,
      action: 'restore',
      before: { deletedAt: row!.deletedAt!.toISOString(), deletedBy: w.franchiseA1.id },
      after: { deletedAt: null, deletedBy: null },
      requestId: restored.headers['x-request-id'],
    });
  });

  it.each([
    ['dealerB', 'a1'],
    ['dealerA', 'b1'],
    ['franchiseA1', 'a2'],
    ['dealerA', 'loose'],
  ] as const)(
    'answers a %s 404 when deleting a driver outside its scope (%s), and keeps it',
    async (who, key) => {
      const driver = w.drivers[key];
      const response = await del(w[who], driver.id);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(notFoundBody);
      expect((await getAs(t, w.admin, `/api/drivers/driver/${driver.id}`)).statusCode).toBe(200);
      expect(await auditRowsOf(t.db, 'drivers', driver.id)).toEqual([]);
    },
  );

  it('lets a city dealer delete a driver of its franchises', async () => {
    const driver = await createDriver(t.db, { franchiseId: w.franchiseA2.id });
    expect((await del(w.dealerA, driver.id)).statusCode).toBe(204);
    expect((await getAs(t, w.dealerA, `/api/drivers/driver/${driver.id}`)).statusCode).toBe(404);
  });

  it.each(['dealerA', 'franchiseA1'] as const)('refuses the deleted list to a %s', async (who) => {
    const response = await getAs(t, w[who], '/api/drivers?deleted=true');
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ error: m.deletedDriversAdminOnly(), code: 'FORBIDDEN' });
    expect((await getAs(t, w[who], '/api/drivers?deleted=false')).statusCode).toBe(200);
  });

  it.each(['dealerA', 'franchiseA1'] as const)('refuses restore to a %s', async (who) => {
    const driver = await createDriver(t.db, { franchiseId: w.franchiseA1.id, deletedAt: new Date() });
    const response = await restore(w[who], driver.id);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ error: m.forbidden(), code: 'FORBIDDEN' });
  });

  it('answers 404 when restoring a driver that is not deleted, or none', async () => {
    expect((await restore(w.admin, w.drivers.a1.id)).statusCode).toBe(404);
    expect((await restore(w.admin, randomUUID())).statusCode).toBe(404);
  });
});

describe('PATCH /api/drivers/driver/:id/assignment', () => {
  const assign = (who: Staff, id: string, payload: unknown) =>
    t.app.inject({
      method: 'PATCH',
      url: `/api/drivers/driver/${id}/assignment`,
      headers: who.headers,
      payload: payload as object,
    });

  it("assigns a driver to a franchise, taking the franchise's state, and the dealer then sees it", async () => {
    const driver = await createDriver(t.db, { franchiseId: null, state: null });
    expect((await getAs(t, w.dealerA, `/api/drivers/driver/${driver.id}`)).statusCode).toBe(404);

    const response = await assign(w.admin, driver.id, { franchiseId: w.franchiseA1.id, state: null });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({
      id: driver.id,
      franchiseId: w.franchiseA1.id,
      franchiseName: `Pune ${w.tag} Cabs`,
      state: 'maharashtra',
      rating: { average: null, count: 0 },
    });
    expect((await getAs(t, w.dealerA, `/api/drivers/driver/${driver.id}`)).statusCode).toBe(200);
    expect((await getAs(t, w.franchiseA1, `/api/drivers/driver/${driver.id}`)).statusCode).toBe(200);

    const [audit] = await auditRowsOf(t.db, 'drivers', driver.id);
    expect(audit).toMatchObject({
      actorId: w.admin.id,
      action: 'assign',
      before: { franchiseId: null, state: null },
      after: { franchiseId: w.franchiseA1.id, state: 'maharashtra' },
      requestId: response.headers['x-request-id'],
    });
  });

  it("accepts the franchise's own state and moves a driver between dealers", async () => {
    const driver = await createDriver(t.db, { franchiseId: w.franchiseA1.id, state: 'maharashtra' });
    const response = await assign(w.admin, driver.id, { franchiseId: w.franchiseB1.id, state: 'karnataka' });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({ franchiseId: w.franchiseB1.id, state: 'karnataka' });
    expect((await getAs(t, w.dealerA, `/api/drivers/driver/${driver.id}`)).statusCode).toBe(404);
    expect((await getAs(t, w.dealerB, `/api/drivers/driver/${driver.id}`)).statusCode).toBe(200);
  });

  it("refuses a state other than the franchise's, saying which one it must be", async () => {
    const driver = await createDriver(t.db, { franchiseId: null, state: 'goa' });
    const response = await assign(w.admin, driver.id, { franchiseId: w.franchiseA1.id, state: 'goa' });
    expect(response.statusCode).toBe(400);
    const message = m.stateDiffersFromFranchise({ state: stateLabel('maharashtra') });
    expect(response.json()).toEqual({
      error: message,
      code: 'VALIDATION',
      fieldErrors: { state: [message] },
    });
    const [row] = await t.db.select().from(drivers).where(eq(drivers.id, driver.id));
    expect(row).toMatchObject({ franchiseId: null, state: 'goa' });
    expect(await auditRowsOf(t.db, 'drivers', driver.id)).toEqual([]);
  });

  it('refuses a franchise that does not exist, is not a franchise, or is disabled', async () => {
    const disabled = await createStaff(t.db, { role: 'franchise', disabled: true });
    const driver = await createDriver(t.db, { franchiseId: null });
    for (const franchiseId of [randomUUID(), w.dealerA.id, w.admin.id, disabled.id]) {
      const response = await assign(w.admin, driver.id, { franchiseId, state: null });
      expect(response.statusCode, franchiseId).toBe(400);
      expect(response.json()).toEqual({
        error: m.franchiseNotFound(),
        code: 'VALIDATION',
        fieldErrors: { franchiseId: [m.franchiseNotFound()] },
      });
    }
  });

  it('unassigns a driver and sets a state alone', async () => {
    const driver = await createDriver(t.db, { franchiseId: w.franchiseA1.id, state: 'maharashtra' });
    const response = await assign(w.admin, driver.id, { franchiseId: null, state: 'goa' });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({ franchiseId: null, franchiseName: null, state: 'goa' });
    const cleared = await assign(w.admin, driver.id, { franchiseId: null, state: null });
    expect(cleared.json().data).toMatchObject({ franchiseId: null, state: null });
  });

  it('validates the body', async () => {
    const driver = w.drivers.loose;
    for (const payload of [{}, { franchiseId: 'x', state: null }, { franchiseId: null, state: 'atlantis' }]) {
      const response = await assign(w.admin, driver.id, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().code).toBe('VALIDATION');
    }
  });

  it('answers 404 for a deleted or unknown driver', async () => {
    const driver = await createDriver(t.db, { deletedAt: new Date() });
    expect((await assign(w.admin, driver.id, { franchiseId: null, state: null })).statusCode).toBe(404);
    expect((await assign(w.admin, randomUUID(), { franchiseId: null, state: null })).statusCode).toBe(404);
  });

  it.each(['dealerA', 'franchiseA1'] as const)('is refused to a %s', async (who) => {
    const response = await assign(w[who], w.drivers.a1.id, { franchiseId: w.franchiseA1.id, state: null });
    expect(response.statusCode).toBe(403);
  });
});

describe('the count of a long list', () => {
  it('is exact past 10,000 unsearched, stops at 10,000 searched, and the next pages carry it on', async () => {
    const dealer = await createStaff(t.db, { role: 'city_dealer', state: 'goa' });
    const franchise = await createStaff(t.db, {
      role: 'franchise',
      state: 'goa',
      dealerId: dealer.id,
    });
    const rows = Array.from({ length: LIST_TOTAL_CAP + 5 }, (_, i) => ({
      name: `Fleet driver ${String(i).padStart(5, '0')}`,
      franchiseId: franchise.id,
      state: 'goa',
    }));
    // Stored last name first: a search reading the first 10,001 matches it finds would miss the
    // first names in the list's order.
    const stored = [...rows].reverse();
    for (let start = 0; start < stored.length; start += 2000) {
      await t.db.insert(drivers).values(stored.slice(start, start + 2000));
    }

    // Unsearched, the count is the one the database keeps: exact, whatever the size.
    const first = await list(dealer, '/api/city_dealer?limit=100');
    expect(first).toMatchObject({ total: LIST_TOTAL_CAP + 5, totalCapped: false });
    expect(idsOf(first)).toHaveLength(100);
    const second = await list(dealer, `/api/city_dealer?limit=100&cursor=${first.nextCursor}`);
    expect(second).toMatchObject({ total: LIST_TOTAL_CAP + 5, totalCapped: false });
    expect(idsOf(second)).toHaveLength(100);
    expect(idsOf(second).some((id) => idsOf(first).includes(id))).toBe(false);
    expect(await list(franchise, '/api/franchise?limit=1')).toMatchObject({
      total: LIST_TOTAL_CAP + 5,
      totalCapped: false,
    });

    // Searched, counting stops at the cap and says so.
    const all = await list(dealer, '/api/city_dealer?q=Fleet%20driver&limit=100');
    expect(all).toMatchObject({ total: LIST_TOTAL_CAP, totalCapped: true });
    // Its first page is still the first of all the matches in the list's order.
    expect(Object.values(all.data).map((driver) => driver.name)).toEqual(
      rows.slice(0, 100).map((row) => row.name),
    );
    const allNext = await list(
      dealer,
      `/api/city_dealer?q=Fleet%20driver&limit=100&cursor=${all.nextCursor}`,
    );
    expect(allNext).toMatchObject({ total: LIST_TOTAL_CAP, totalCapped: true });

    // A search below the cap is counted exactly, on every page.
    const searched = await list(franchise, '/api/franchise?q=Fleet%20driver%20000&limit=4');
    expect(searched).toMatchObject({ total: 100, totalCapped: false });
    const next = await list(
      franchise,
      `/api/franchise?q=Fleet%20driver%20000&limit=4&cursor=${searched.nextCursor}`,
    );
    expect(next).toMatchObject({ total: 100, totalCapped: false });
  }, 60_000);
});

describe('the count of an unsearched list', () => {
  /** Every id of a list, page after page, and the total its first page told. */
  const walk = async (who: Staff, path: string) => {
    const ids: string[] = [];
    let url = `${path}${path.includes('?') ? '&' : '?'}limit=100`;
    const first = await list(who, url);
    for (let body = first; ;) {
      ids.push(...idsOf(body));
      if (!body.nextCursor) break;
      url = `${path}${path.includes('?') ? '&' : '?'}limit=100&cursor=${body.nextCursor}`;
      body = await list(who, url);
    }
    return { total: first.total, totalCapped: first.totalCapped, ids };
  };
  const activeDrivers = async () =>
    (await t.db.select({ id: drivers.id }).from(drivers).where(isNull(drivers.deletedAt))).length;
  const deletedDrivers = async () =>
    (await t.db.select({ id: drivers.id }).from(drivers).where(isNotNull(drivers.deletedAt))).length;

  /** Each role's unsearched total against the rows that role's pages hold (the admin's: the table's). */
  const expectCountsRight = async (world: DriverWorld) => {
    for (const [who, path] of [
      [world.dealerA, '/api/city_dealer'],
      [world.dealerB, '/api/city_dealer'],
      [world.franchiseA1, '/api/franchise'],
      [world.franchiseA2, '/api/franchise'],
      [world.franchiseB1, '/api/franchise'],
    ] as const) {
      const walked = await walk(who, path);
      expect(walked.total, `${who.email} ${path}`).toBe(walked.ids.length);
      expect(walked.totalCapped).toBe(false);
    }
    expect((await list(world.admin, '/api/drivers?limit=1')).total).toBe(await activeDrivers());
    expect((await list(world.admin, '/api/drivers?deleted=true&limit=1')).total).toBe(await deletedDrivers());
  };

  it('stays right for every role through creating, moving, deleting, restoring and erasing drivers', async () => {
    const world = await createDriverWorld(t.db);
    await expectCountsRight(world);
    expect((await walk(world.dealerA, '/api/city_dealer')).ids).toHaveLength(2);

    // Created in bulk and alone.
    await t.db.insert(drivers).values(
      Array.from({ length: 3 }, (_, i) => ({
        name: `Counted ${i} ${world.tag}`,
        franchiseId: world.franchiseA2.id,
      })),
    );
    await expectCountsRight(world);
    expect((await walk(world.franchiseA2, '/api/franchise')).ids).toHaveLength(4);

    // Moved to another dealer's franchise, and to none.
    const move = (id: string, franchiseId: string | null) =>
      t.app.inject({
        method: 'PATCH',
        url: `/api/drivers/driver/${id}/assignment`,
        headers: world.admin.headers,
        payload: { franchiseId, state: null },
      });
    expect((await move(world.drivers.a1.id, world.franchiseB1.id)).statusCode).toBe(200);
    await expectCountsRight(world);
    expect((await walk(world.dealerB, '/api/city_dealer')).ids).toHaveLength(2);
    expect((await move(world.drivers.b1.id, null)).statusCode).toBe(200);
    await expectCountsRight(world);

    // Deleted and restored.
    const remove = (id: string) =>
      t.app.inject({ method: 'DELETE', url: `/api/drivers/driver/${id}`, headers: world.admin.headers });
    const restore = (id: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/drivers/driver/${id}/restore`,
        headers: world.admin.headers,
      });
    expect((await remove(world.drivers.a2.id)).statusCode).toBeLessThan(300);
    await expectCountsRight(world);
    expect((await walk(world.franchiseA2, '/api/franchise')).ids).toHaveLength(3);
    expect((await restore(world.drivers.a2.id)).statusCode).toBe(200);
    await expectCountsRight(world);
    expect((await remove(world.drivers.loose.id)).statusCode).toBeLessThan(300);
    await expectCountsRight(world);

    // Erased from the table.
    await t.db.delete(drivers).where(eq(drivers.franchiseId, world.franchiseA2.id));
    await expectCountsRight(world);
    expect((await walk(world.dealerA, '/api/city_dealer')).ids).toHaveLength(0);
  });
});
