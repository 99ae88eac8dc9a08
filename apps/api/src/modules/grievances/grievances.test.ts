import { eq, inArray } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Grievance, GrievanceEvent } from '@bmet/shared/schemas/grievance';
import { buildApp, type App } from '../../app';
import { grievances, holidays } from '../../db/schema';
import { createDriver, createTrip, insertDriverRatings } from '../../seed/factories';
import { fetchCsv } from '../../../test/csv-export';
import {
  auditRowsOf,
  createDriverWorld,
  createStaff,
  notFoundBody,
  type DriverWorld,
  type Staff,
} from '../../../test/driver-fixtures';
import { startMailReceiver } from '../../../test/mail-receiver';
import { createMailer } from '../../infra/mailer';
import { sendGrievanceAlerts } from './alerts';
import { TEST_CONFIG, testAppOptions, type TestApp } from '../../../test/test-app';
import { getTestDatabase } from '../../../test/test-database';

let t: TestApp;
let w: DriverWorld;
let receiver: Awaited<ReturnType<typeof startMailReceiver>>;

beforeAll(async () => {
  receiver = await startMailReceiver();
  const { db } = await getTestDatabase();
  const config = {
    ...TEST_CONFIG,
    mail: {
      smtpUrl: receiver.url,
      from: 'Book-My-ETaxi <no-reply@test.bookmyetaxi.in>',
      appUrl: 'http://x.test',
    },
  };
  const app: App = await buildApp({ ...testAppOptions(db), config });
  await app.ready();
  t = { app, db, close: () => app.close() };
  w = await createDriverWorld(db);
});

afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

const send = (
  who: Staff,
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  url: string,
  payload?: unknown,
) =>
  t.app.inject({
    method,
    url,
    headers: who.headers,
    payload: payload as Record<string, unknown> | undefined,
  });

const complaint = (extra: Record<string, unknown> = {}) => ({
  complainantKind: 'customer',
  complainantName: `Ritu Verma ${w.tag}`,
  complainantPhone: '+91 98765 43210',
  category: 'behaviour',
  description: `The driver was rude on the way to the station ${w.tag}`,
  ...extra,
});

async function logAs(who: Staff, extra: Record<string, unknown> = {}): Promise<Grievance> {
  const response = await send(who, 'POST', '/api/grievances', complaint(extra));
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data as Grievance;
}

const listOf = async (who: Staff, query = '') => {
  const response = await send(who, 'GET', `/api/grievances?q=${w.tag}&limit=200${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return Object.values(response.json().data as Record<string, Grievance>);
};

describe('logging a grievance', () => {
  it('numbers it, works out its deadline and records who logged it', async () => {
    const trip = await createTrip(t.db, {
      driver: { id: w.drivers.a1.id, state: 'maharashtra', carType: null },
    });
    const grievance = await logAs(w.admin, { tripId: trip.id, priority: 'high' });
    expect(grievance).toMatchObject({
      status: 'open',
      priority: 'high',
      tripId: trip.id,
      driverId: w.drivers.a1.id,
      customerId: trip.customerId,
      state: 'maharashtra',
      clock: 'on_time',
      loggedByName: `Admin ${w.tag}`,
      resolvedInTime: null,
    });
    expect(grievance.number).toMatch(/^GR-\d{4}-\d{6}$/);
    // Three working days: never less than 3 days and never more than 3 plus Sunday and holidays.
    const days = (Date.parse(grievance.dueAt) - Date.parse(grievance.receivedAt)) / 86_400_000;
    expect(days).toBeGreaterThan(2);
    expect(days).toBeLessThan(5);
    expect(new Date(Date.parse(grievance.dueAt) + 330 * 60_000).toISOString().slice(11, 16)).toBe('23:59');
    const detail = await send(w.admin, 'GET', `/api/grievances/${grievance.id}`);
    expect(detail.json().data.events).toMatchObject([
      { kind: 'logged', status: 'open', byName: `Admin ${w.tag}` },
    ]);
    expect(await auditRowsOf(t.db, 'grievances', grievance.id)).toMatchObject([{ action: 'create' }]);
  });

  it('mails the complainant its number and deadline in their language', async () => {
    const email = `ritu.${w.tag}@example.in`;
    const grievance = await logAs(w.admin, {
      driverId: w.drivers.a2.id,
      complainantEmail: email,
      complainantLanguage: 'hi',
    });
    const mail = await receiver.waitForMail(email);
    expect(mail.subject).toBe(`आपकी शिकायत ${grievance.number} दर्ज हो गई है`);
    expect(mail.text).toContain(grievance.number);
  });

  it('refuses what it cannot log, with a message beside the field, and logs nothing', async () => {
    const before = await listOf(w.admin);
    const missing = await send(w.admin, 'POST', '/api/grievances', complaint({ description: '  ' }));
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fieldErrors.description).toEqual(['Describe the complaint.']);
    const future = await send(
      w.admin,
      'POST',
      '/api/grievances',
      complaint({ receivedAt: new Date(Date.now() + 3_600_000).toISOString() }),
    );
    expect(future.statusCode).toBe(400);
    expect(future.json().fieldErrors.receivedAt).toEqual(['The time received cannot be in the future.']);
    const phone = await send(w.admin, 'POST', '/api/grievances', complaint({ complainantPhone: 'call me' }));
    expect(phone.json().fieldErrors.complainantPhone).toBeDefined();
    expect(await listOf(w.admin)).toHaveLength(before.length);
  });

  it("keeps a franchise to its own drivers' grievances", async () => {
    const none = await send(w.franchiseA1, 'POST', '/api/grievances', complaint());
    expect(none.statusCode).toBe(400);
    expect(none.json().fieldErrors.driverId).toEqual(['Name the trip or the driver the complaint is about.']);
    const other = await send(
      w.franchiseA1,
      'POST',
      '/api/grievances',
      complaint({ driverId: w.drivers.b1.id }),
    );
    expect(other.statusCode).toBe(400);
    expect(other.json().fieldErrors.driverId).toEqual(['No driver of yours has this id.']);
    const own = await logAs(w.franchiseA1, { driverId: w.drivers.a1.id });
    expect(own.franchiseName).toBe(`Pune ${w.tag} Cabs`);
  });

  it('takes an earlier time of receipt, and the deadline runs from it', async () => {
    const receivedAt = new Date(Date.now() - 10 * 86_400_000).toISOString();
    const late = await logAs(w.admin, { driverId: w.drivers.b1.id, receivedAt });
    expect(late.receivedAt).toBe(receivedAt);
    expect(late.clock).toBe('overdue');
  });
});

describe('the scope of the desk', () => {
  let aboutA1: Grievance;
  let aboutB1: Grievance;
  let aboutCustomer: Grievance;
  beforeAll(async () => {
    aboutA1 = await logAs(w.admin, { driverId: w.drivers.a1.id });
    aboutB1 = await logAs(w.admin, { driverId: w.drivers.b1.id });
    aboutCustomer = await logAs(w.admin, { complainantKind: 'other' });
  });

  it.each([
    ['admin', () => w.admin, () => [aboutA1, aboutB1, aboutCustomer], () => []],
    ['the city dealer', () => w.dealerA, () => [aboutA1], () => [aboutB1, aboutCustomer]],
    ['the franchise', () => w.franchiseA1, () => [aboutA1], () => [aboutB1, aboutCustomer]],
    ['another franchise', () => w.franchiseA2, () => [], () => [aboutA1, aboutB1, aboutCustomer]],
  ])('%s sees and works only those about its drivers', async (_who, who, seen, unseen) => {
    const ids = (await listOf(who())).map((grievance) => grievance.id);
    for (const grievance of seen()) {
      expect(ids).toContain(grievance.id);
      expect((await send(who(), 'GET', `/api/grievances/${grievance.id}`)).statusCode).toBe(200);
    }
    for (const grievance of unseen()) {
      expect(ids).not.toContain(grievance.id);
      const read = await send(who(), 'GET', `/api/grievances/${grievance.id}`);
      expect(read.statusCode).toBe(404);
      expect(read.json()).toEqual(notFoundBody);
      const step = await send(who(), 'PATCH', `/api/grievances/${grievance.id}`, { status: 'in_progress' });
      expect(step.statusCode).toBe(404);
      const comment = await send(who(), 'POST', `/api/grievances/${grievance.id}/comments`, { text: 'x' });
      expect(comment.statusCode).toBe(404);
    }
  });

  it('counts what needs attention in the caller’s scope', async () => {
    const summary = async (who: Staff) => (await send(who, 'GET', '/api/grievances/summary')).json().data;
    const admin = await summary(w.admin);
    expect(admin.unresolved).toBeGreaterThanOrEqual(3);
    // The counts are those of the desk's own filters (the fixtures' grievances aside, none elsewhere).
    for (const who of [w.franchiseA2, w.dealerB]) {
      const counts = await summary(who);
      const listed = async (query: string) =>
        Object.keys((await send(who, 'GET', `/api/grievances?limit=200${query}`)).json().data).length;
      expect(counts).toEqual({
        unresolved: await listed('&status=unresolved'),
        dueSoon: await listed('&clock=due_soon'),
        overdue: await listed('&clock=overdue'),
      });
    }
    expect((await summary(w.dealerB)).overdue).toBeGreaterThanOrEqual(1);
  });
});

describe('working a grievance', () => {
  it('moves through its steps, refuses the others, and mails the resolution', async () => {
    const email = `step.${w.tag}@example.in`;
    const grievance = await logAs(w.dealerA, { driverId: w.drivers.a2.id, complainantEmail: email });
    const step = (payload: Record<string, unknown>) =>
      send(w.dealerA, 'PATCH', `/api/grievances/${grievance.id}`, payload);

    expect((await step({ status: 'in_progress', note: 'Called the driver' })).json().data.status).toBe(
      'in_progress',
    );
    const closed = await step({ status: 'closed' });
    expect(closed.statusCode).toBe(400);
    expect(closed.json().fieldErrors.status).toEqual([
      'A grievance that is In progress cannot be moved to Closed.',
    ]);
    const bare = await step({ status: 'resolved' });
    expect(bare.json().fieldErrors.resolution).toEqual([
      'Write the resolution the complainant will be told.',
    ]);

    const comment = await send(w.franchiseA2, 'POST', `/api/grievances/${grievance.id}/comments`, {
      text: 'Driver says the customer was late',
    });
    expect(comment.statusCode).toBe(201);

    const resolved = await step({
      status: 'resolved',
      resolution: 'The driver has been warned; ₹50 refunded.',
    });
    expect(resolved.json().data).toMatchObject({
      status: 'resolved',
      clock: null,
      resolvedInTime: true,
      resolution: 'The driver has been warned; ₹50 refunded.',
    });
    const mails = receiver.mailsTo(email).length;
    const mail = await receiver.waitForMail(email, { already: Math.max(1, mails - 1) });
    expect(mail.subject).toBe(`Your complaint ${grievance.number} has been resolved`);
    expect(mail.text).toContain('₹50 refunded');

    const reopened = await step({ status: 'reopened', note: 'Customer called back' });
    expect(reopened.json().data).toMatchObject({ status: 'reopened', resolvedAt: null, clock: 'on_time' });
    expect(Date.parse(reopened.json().data.dueAt)).toBeGreaterThanOrEqual(Date.parse(grievance.dueAt));

    const detail = (await send(w.admin, 'GET', `/api/grievances/${grievance.id}`)).json().data;
    expect(detail.events.map((event: GrievanceEvent) => [event.kind, event.status, event.text])).toEqual([
      ['logged', 'open', null],
      ['status', 'in_progress', 'Called the driver'],
      ['comment', null, 'Driver says the customer was late'],
      ['status', 'resolved', 'The driver has been warned; ₹50 refunded.'],
      ['status', 'reopened', 'Customer called back'],
    ]);
    expect((await auditRowsOf(t.db, 'grievances', grievance.id)).map((row) => row.action)).toEqual([
      'create',
      'update',
      'update',
      'update',
    ]);
  });

  it('changes category and priority, recorded as a change', async () => {
    const grievance = await logAs(w.admin, { driverId: w.drivers.a1.id });
    const changed = await send(w.franchiseA1, 'PATCH', `/api/grievances/${grievance.id}`, {
      category: 'safety',
      priority: 'urgent',
    });
    expect(changed.json().data).toMatchObject({ category: 'safety', priority: 'urgent', status: 'open' });
    const nothing = await send(w.franchiseA1, 'PATCH', `/api/grievances/${grievance.id}`, {});
    expect(nothing.statusCode).toBe(400);
  });

  it('filters by clock, status and category, sorts by deadline, and exports what it lists', async () => {
    const overdue = await logAs(w.admin, {
      driverId: w.drivers.a1.id,
      category: 'lost_item',
      receivedAt: new Date(Date.now() - 20 * 86_400_000).toISOString(),
    });
    const byClock = await listOf(w.admin, '&clock=overdue');
    expect(byClock.map((grievance) => grievance.id)).toContain(overdue.id);
    expect(byClock.every((grievance) => grievance.clock === 'overdue')).toBe(true);
    const lost = await listOf(w.admin, '&category=lost_item&status=unresolved');
    expect(lost.map((grievance) => grievance.id)).toEqual([overdue.id]);
    const all = await listOf(w.admin);
    const due = all.map((grievance) => grievance.dueAt);
    expect(due).toEqual([...due].sort());
    const newest = await listOf(w.admin, '&sort=receivedAt&order=desc');
    expect(newest.at(-1)!.id).toBe(overdue.id);
    const byNumber = await send(w.admin, 'GET', `/api/grievances?q=${overdue.number.toLowerCase()}`);
    expect(Object.keys(byNumber.json().data)).toEqual([overdue.id]);
    const byPhone = await send(w.admin, 'GET', `/api/grievances?q=9876543210&clock=overdue`);
    expect(Object.keys(byPhone.json().data)).toContain(overdue.id);

    const csv = await fetchCsv(
      t,
      `/api/grievances/export.csv?q=${w.tag}&category=lost_item`,
      w.admin.headers,
    );
    expect(csv.rows).toHaveLength(1);
    expect(csv.rows[0]).toMatchObject({ Number: overdue.number, Category: 'Lost item', Deadline: 'Overdue' });
  });
});

describe('holidays move deadlines', () => {
  it("a state's holiday moves its open grievances by a day, and back when removed", async () => {
    const grievance = await logAs(w.admin, { driverId: w.drivers.b1.id });
    const received = new Date(Date.parse(grievance.receivedAt) + 330 * 60_000);
    const nextWorkingDay = new Date(received.getTime() + 86_400_000);
    if (nextWorkingDay.getUTCDay() === 0) nextWorkingDay.setUTCDate(nextWorkingDay.getUTCDate() + 1);
    const day = nextWorkingDay.toISOString().slice(0, 10);

    const refused = await send(w.franchiseB1, 'POST', '/api/holidays', {
      day,
      state: 'karnataka',
      name: 'x',
    });
    expect(refused.statusCode).toBe(403);
    const added = await send(w.admin, 'POST', '/api/holidays', {
      day,
      state: 'karnataka',
      name: 'Rajyotsava',
    });
    expect(added.statusCode, added.body).toBe(201);
    const again = await send(w.admin, 'POST', '/api/holidays', { day, state: 'karnataka', name: 'Again' });
    expect(again.statusCode).toBe(409);

    const moved = (await send(w.admin, 'GET', `/api/grievances/${grievance.id}`)).json().data;
    const shift = Date.parse(moved.dueAt) - Date.parse(grievance.dueAt);
    expect(shift).toBeGreaterThanOrEqual(86_400_000);
    // Another state's grievance stays as it was.
    const listed = await send(w.franchiseB1, 'GET', `/api/holidays?year=${day.slice(0, 4)}`);
    expect(listed.json().data).toContainEqual({
      id: added.json().data.id,
      day,
      state: 'karnataka',
      name: 'Rajyotsava',
    });

    const removed = await send(w.admin, 'DELETE', `/api/holidays/${added.json().data.id}`);
    expect(removed.statusCode).toBe(200);
    const back = (await send(w.admin, 'GET', `/api/grievances/${grievance.id}`)).json().data;
    expect(back.dueAt).toBe(grievance.dueAt);
    await t.db.delete(holidays).where(eq(holidays.day, day));
  });
});

describe('the rules by state', () => {
  const today = () => new Date(Date.now() + 330 * 60_000).toISOString().slice(0, 10);
  const inDays = (days: number) =>
    new Date(Date.now() + 330 * 60_000 + days * 86_400_000).toISOString().slice(0, 10);
  const rulesOf = async (who: Staff, state: string) => {
    const response = await send(who, 'GET', '/api/desk-rules');
    expect(response.statusCode, response.body).toBe(200);
    return (response.json().data as { state: string }[]).find(
      (entry) => entry.state === state,
    ) as unknown as {
      rules: Record<string, number | null>;
      effectiveFrom: string | null;
      scheduled: { effectiveFrom: string; rules: Record<string, number | null> }[];
    };
  };
  const tripura = { workingDays: 3, complaintPercent: null, lowRatingPercent: null, sosReraiseSeconds: 60 };

  it("are read by every role: the guidelines' by default, Delhi's shares only in Delhi", async () => {
    expect(await rulesOf(w.franchiseB1, 'delhi')).toMatchObject({
      rules: { workingDays: 3, complaintPercent: 15, lowRatingPercent: 25, sosReraiseSeconds: 60 },
      effectiveFrom: null,
      scheduled: [],
    });
    expect((await rulesOf(w.dealerA, 'tripura')).rules).toEqual(tripura);
  });

  it('are set by admins only, in bounds, with a message beside each field, changing nothing', async () => {
    const body = { effectiveFrom: today(), rules: { ...tripura, workingDays: 5 } };
    expect((await send(w.dealerA, 'PUT', '/api/desk-rules/tripura', body)).statusCode).toBe(403);
    const refused = await send(w.admin, 'PUT', '/api/desk-rules/tripura', {
      effectiveFrom: 'tomorrow',
      rules: { workingDays: 0, complaintPercent: 150, lowRatingPercent: -1, sosReraiseSeconds: 5 },
    });
    expect(refused.statusCode).toBe(400);
    expect(Object.keys(refused.json().fieldErrors as object).sort()).toEqual([
      'effectiveFrom',
      'rules.complaintPercent',
      'rules.lowRatingPercent',
      'rules.sosReraiseSeconds',
      'rules.workingDays',
    ]);
    expect((await send(w.admin, 'PUT', '/api/desk-rules/nowhere', body)).statusCode).toBe(400);
    expect(await rulesOf(w.admin, 'tripura')).toMatchObject({ rules: tripura, effectiveFrom: null });
  });

  it("move the deadlines of the state's open grievances from the day they take effect, audited", async () => {
    const driver = await createDriver(t.db, {
      name: `Biplab Tripura ${w.tag}`,
      franchiseId: null,
      state: 'tripura',
    });
    const before = await logAs(w.admin, { driverId: driver.id });
    expect(before.state).toBe('tripura');

    const saved = await send(w.admin, 'PUT', '/api/desk-rules/tripura', {
      effectiveFrom: today(),
      rules: { ...tripura, workingDays: 5 },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data).toMatchObject({ rules: { workingDays: 5 }, effectiveFrom: today() });
    const moved = (await send(w.admin, 'GET', `/api/grievances/${before.id}`)).json().data as Grievance;
    // Two more working days: at least two calendar days later, still at 23:59 IST.
    expect(Date.parse(moved.dueAt) - Date.parse(before.dueAt)).toBeGreaterThanOrEqual(2 * 86_400_000);
    expect(new Date(Date.parse(moved.dueAt) + 330 * 60_000).toISOString().slice(11, 16)).toBe('23:59');
    // A grievance logged now runs by the same rules; another state's keeps three working days.
    expect((await logAs(w.admin, { driverId: driver.id })).dueAt).toBe(moved.dueAt);
    const elsewhere = await logAs(w.admin, { driverId: w.drivers.a1.id });
    expect(Date.parse(elsewhere.dueAt)).toBeLessThan(Date.parse(moved.dueAt));

    const [audit] = await auditRowsOf(t.db, 'settings', 'tripura/desk-rules');
    expect(audit).toMatchObject({
      action: 'update',
      before: { workingDays: 3, effectiveFrom: null },
      after: { workingDays: 5, effectiveFrom: today(), deadlinesMoved: 1 },
    });

    // Rules for a later day wait for it: today's stay, and so do the deadlines.
    const later = await send(w.admin, 'PUT', '/api/desk-rules/tripura', {
      effectiveFrom: inDays(10),
      rules: { ...tripura, workingDays: 4, complaintPercent: 20 },
    });
    expect(later.statusCode, later.body).toBe(200);
    expect(await rulesOf(w.franchiseB1, 'tripura')).toMatchObject({
      rules: { workingDays: 5, complaintPercent: null },
      effectiveFrom: today(),
      scheduled: [{ effectiveFrom: inDays(10), rules: { workingDays: 4, complaintPercent: 20 } }],
    });
    expect((await send(w.admin, 'GET', `/api/grievances/${before.id}`)).json().data.dueAt).toBe(moved.dueAt);
  });
});

describe('the grievance officer', () => {
  it('is an active admin named by an admin', async () => {
    const set = await send(w.admin, 'PUT', '/api/grievances/officer', { email: w.admin.email });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().data).toMatchObject({ accountId: w.admin.id, email: w.admin.email });
    const dealer = await send(w.admin, 'PUT', '/api/grievances/officer', { email: w.dealerA.email });
    expect(dealer.statusCode).toBe(400);
    expect((await send(w.admin, 'GET', '/api/grievances/officer')).json().data.accountId).toBe(w.admin.id);
    expect((await send(w.dealerA, 'GET', '/api/grievances/officer')).statusCode).toBe(403);
  });
});

describe('the monthly report and the drivers needing action', () => {
  let r: DriverWorld;
  let month: string;
  beforeAll(async () => {
    r = await createDriverWorld(t.db);
    month = new Date(Date.now() + 330 * 60_000).toISOString().slice(0, 7);
    // Delhi's rules, taken up by Maharashtra from the month's first day (by default it has none).
    const rules = await send(r.admin, 'PUT', '/api/desk-rules/maharashtra', {
      effectiveFrom: `${month}-01`,
      rules: { workingDays: 3, complaintPercent: 15, lowRatingPercent: 25, sosReraiseSeconds: 60 },
    });
    expect(rules.statusCode, rules.body).toBe(200);
    const about = (driverId: string, category: string) =>
      send(r.admin, 'POST', '/api/grievances', { ...complaint({ driverId, category }) }).then(
        (response) => response.json().data as Grievance,
      );
    const inTime = await about(r.drivers.a1.id, 'fare');
    await send(r.admin, 'PATCH', `/api/grievances/${inTime.id}`, {
      status: 'resolved',
      resolution: 'Refunded',
    });
    // A fake clock: these two ran past their deadline.
    const late = await about(r.drivers.a1.id, 'fare');
    const overdue = await about(r.drivers.a1.id, 'safety');
    await t.db
      .update(grievances)
      .set({ dueAt: new Date(Date.now() - 60_000) })
      .where(inArray(grievances.id, [late.id, overdue.id]));
    await send(r.admin, 'PATCH', `/api/grievances/${late.id}`, {
      status: 'resolved',
      resolution: 'Apologised',
    });
    for (let i = 0; i < 10; i++) {
      await createTrip(t.db, {
        driver: { id: r.drivers.a1.id, state: 'maharashtra', carType: null },
        status: 'completed',
      });
    }
    const rating = (stars: number) => ({ customerName: 'A customer', description: null, rating: stars });
    await insertDriverRatings(t.db, r.drivers.a2.id, [rating(1), rating(2), rating(5), rating(4)]);
    await insertDriverRatings(t.db, r.drivers.b1.id, [rating(2), rating(5), rating(5), rating(4), rating(5)]);
  });

  it('counts a month: received, resolved in and after time, overdue, by category and franchise', async () => {
    const response = await send(r.franchiseA1, 'GET', `/api/grievances/report?month=${month}`);
    expect(response.statusCode, response.body).toBe(200);
    const report = response.json().data;
    expect(report.total).toMatchObject({ received: 3, resolvedInTime: 1, resolvedLate: 1, overdue: 1 });
    expect(report.total.medianHoursToResolve).toBeGreaterThanOrEqual(0);
    expect(report.byCategory).toMatchObject([
      { category: 'fare', received: 2, resolvedInTime: 1, resolvedLate: 1, overdue: 0 },
      { category: 'safety', received: 1, overdue: 1 },
    ]);
    expect(report.byFranchise).toMatchObject([{ franchiseName: `Pune ${r.tag} Cabs`, received: 3 }]);
    expect(
      (await send(r.franchiseB1, 'GET', `/api/grievances/report?month=${month}`)).json().data.total.received,
    ).toBe(0);
    expect((await send(r.admin, 'GET', '/api/grievances/report?month=2026-13')).statusCode).toBe(400);

    const file = await t.app.inject({
      method: 'GET',
      url: `/api/grievances/report.csv?month=${month}`,
      headers: r.franchiseA1.headers,
    });
    expect(file.statusCode).toBe(200);
    expect(file.body).toContain('All grievances,' + month + ',3,1,1,1,');
  });

  it('names the drivers whose complaints or low ratings call for action, with the figures', async () => {
    const response = await send(r.dealerA, 'GET', `/api/grievances/drivers-needing-action?month=${month}`);
    expect(response.statusCode, response.body).toBe(200);
    const found = response.json().data.drivers;
    expect(found).toEqual([
      expect.objectContaining({
        driverId: r.drivers.a1.id,
        rides: 10,
        complaints: 3,
        reasons: ['complaints'],
      }),
      expect.objectContaining({
        driverId: r.drivers.a2.id,
        ratings: 4,
        lowRatings: 2,
        reasons: ['low_ratings'],
      }),
    ]);
    // Karnataka has no such rules; were it Delhi's, 1 low rating of 5 (20%) is not beyond 25% either.
    const admin = await send(
      r.admin,
      'GET',
      `/api/grievances/drivers-needing-action?month=${month}&driverId=${r.drivers.b1.id}`,
    );
    expect(admin.json().data.drivers).toEqual([]);
    const one = await send(
      r.franchiseA1,
      'GET',
      `/api/grievances/drivers-needing-action?driverId=${r.drivers.a1.id}`,
    );
    expect(one.json().data.drivers).toHaveLength(1);
    const other = await send(
      r.franchiseB1,
      'GET',
      `/api/grievances/drivers-needing-action?driverId=${r.drivers.a1.id}`,
    );
    expect(other.json().data.drivers).toEqual([]);
  });
});

describe("the grievance officer's alerts", () => {
  it('mails the officer each grievance due within a day or overdue, once, and again after a failure', async () => {
    const officer = await createStaff(t.db, { role: 'admin', displayName: `Officer ${w.tag}` });
    expect((await send(w.admin, 'PUT', '/api/grievances/officer', { email: officer.email })).statusCode).toBe(
      200,
    );
    const overdue = await logAs(w.admin, {
      driverId: w.drivers.a1.id,
      receivedAt: new Date(Date.now() - 12 * 86_400_000).toISOString(),
    });
    const mailer = createMailer({
      smtpUrl: receiver.url,
      from: 'x@test.in',
      logger: { info: () => {}, warn: () => {} },
    });
    const broken = { send: () => Promise.reject(new Error('mail server down')) };

    const failed = await sendGrievanceAlerts(t.db, broken, { appUrl: 'http://x.test' });
    expect(failed?.error).toBe('mail server down');
    const first = await sendGrievanceAlerts(t.db, mailer, { appUrl: 'http://x.test' });
    expect(first).toMatchObject({ to: officer.email });
    expect(first!.overdue).toBeGreaterThanOrEqual(1);
    const mail = await receiver.waitForMail(officer.email);
    expect(mail.text).toContain(overdue.number);
    expect(mail.text).toContain('http://x.test/grievances');
    const again = await sendGrievanceAlerts(t.db, mailer, { appUrl: 'http://x.test' });
    expect(again).toMatchObject({ dueSoon: 0, overdue: 0 });
    mailer.close();
  });
});

describe('attachments', () => {
  const pdf = (extra = '') =>
    Buffer.from(
      `%PDF-1.4\n1 0 obj << /Type /Catalog ${extra} >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n`,
      'latin1',
    );
  const attach = (who: Staff, id: string, body: Buffer, type: string, name?: string) =>
    t.app.inject({
      method: 'POST',
      url: `/api/grievances/${id}/attachments`,
      headers: {
        ...who.headers,
        'content-type': type,
        ...(name ? { 'x-file-name': encodeURIComponent(name) } : {}),
      },
      payload: body,
    });

  it('keeps a checked image and PDF, lists them, and serves them to those who see the grievance', async () => {
    const grievance = await logAs(w.franchiseA1, { driverId: w.drivers.a1.id });
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#c00' } })
      .png()
      .toBuffer();
    const image = await attach(w.franchiseA1, grievance.id, png, 'image/png', 'receipt photo.png');
    expect(image.statusCode, image.body).toBe(201);
    expect(image.json().data).toMatchObject({ fileName: 'receipt photo.png', contentType: 'image/png' });
    const document = await attach(w.franchiseA1, grievance.id, pdf(), 'application/pdf', 'bill.pdf');
    expect(document.statusCode, document.body).toBe(201);

    const detail = (await send(w.dealerA, 'GET', `/api/grievances/${grievance.id}`)).json().data;
    expect(detail.attachments.map((file: { fileName: string }) => file.fileName)).toEqual([
      'receipt photo.png',
      'bill.pdf',
    ]);
    expect(detail.events.filter((event: GrievanceEvent) => event.kind === 'attachment')).toHaveLength(2);

    const download = await send(
      w.dealerA,
      'GET',
      `/api/grievances/${grievance.id}/attachments/${document.json().data.id}`,
    );
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.headers['content-disposition']).toBe("attachment; filename*=UTF-8''bill.pdf");
    expect(download.headers['x-content-type-options']).toBe('nosniff');
    const hidden = await send(
      w.franchiseA2,
      'GET',
      `/api/grievances/${grievance.id}/attachments/${document.json().data.id}`,
    );
    expect(hidden.statusCode).toBe(404);
    expect((await attach(w.franchiseA2, grievance.id, pdf(), 'application/pdf')).statusCode).toBe(404);
  });

  it('refuses what is not a clean image or PDF, and keeps nothing', async () => {
    const grievance = await logAs(w.admin, { driverId: w.drivers.a1.id });
    const scripted = await attach(
      w.admin,
      grievance.id,
      pdf('/OpenAction << /S /JavaScript /JS (app.alert(1)) >>'),
      'application/pdf',
    );
    expect(scripted.statusCode).toBe(400);
    const fake = await attach(
      w.admin,
      grievance.id,
      Buffer.from('<html>not a pdf</html>'),
      'application/pdf',
    );
    expect(fake.statusCode).toBe(400);
    expect(fake.json().error).toBe('The file is not a readable PDF.');
    const notImage = await attach(w.admin, grievance.id, Buffer.from('GIF89a'), 'image/png');
    expect(notImage.statusCode).toBe(400);
    const text = await attach(w.admin, grievance.id, Buffer.from('hello'), 'text/plain');
    expect(text.statusCode).toBe(415);
    const detail = (await send(w.admin, 'GET', `/api/grievances/${grievance.id}`)).json().data;
    expect(detail.attachments).toEqual([]);
  });
});

// Keep the table tidy for other files' counts.
afterAll(async () => {
  if (t?.db) await t.db.delete(grievances).where(eq(grievances.complainantName, `Ritu Verma ${w.tag}`));
});
