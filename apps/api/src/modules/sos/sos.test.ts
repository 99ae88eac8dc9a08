import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SosAlert } from '@bmet/shared/schemas/sos';
import { auditLog, sosAlerts } from '../../db/schema';
import { createDriver, createTrip } from '../../seed/factories';
import { authHeader } from '../../../test/test-app';
import { startMailReceiver } from '../../../test/mail-receiver';
import {
  createScope,
  issueDeviceToken,
  reportLocation,
  SseReader,
  useLocationTestApp,
} from '../../../test/location-support';
import { createMailer } from '../../infra/mailer';
import { indianToday } from '../../lib/ist-days';
import { reraiseAlerts } from './reraise';
import { reraiseUnacknowledged } from './repository';

const t = useLocationTestApp({ listen: true });
let s: Awaited<ReturnType<typeof createScope>>;

beforeAll(async () => {
  s = await createScope(t.db);
});

const as = (token: string, method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: authHeader(token),
    payload: payload as Record<string, unknown> | undefined,
  });

const raiseFromPhone = (deviceToken: string, body: Record<string, unknown> = { lat: 19.07, long: 72.88 }) =>
  t.app.inject({
    method: 'POST',
    url: '/api/driver-app/sos',
    headers: authHeader(deviceToken),
    payload: body,
  });

async function openSosStream(token: string, query = '') {
  const controller = new AbortController();
  const response = await fetch(`${t.baseUrl}/api/sos/stream${query}`, {
    headers: authHeader(token),
    signal: controller.signal,
  });
  return new SseReader(response, controller);
}

/** The data of the next message of an event, skipping comments and other events. */
async function nextOf(stream: SseReader, event: string, timeoutMs = 10_000): Promise<unknown> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const message = await stream.next(Math.max(1, deadline - Date.now()));
    if (message === null) throw new Error('The stream ended');
    if ('event' in message && message.event === event) return JSON.parse(message.data);
  }
}

describe("the driver's panic button", () => {
  it('raises an alert that every staff member in scope is pushed, and no one else', async () => {
    const device = await issueDeviceToken(t.app, s.admin.token, s.driver.id);
    const franchise = await openSosStream(s.franchise.token);
    const dealer = await openSosStream(s.dealer.token);
    const other = await openSosStream(s.otherDealer.token);
    for (const stream of [franchise, dealer, other]) {
      expect(stream.response.status).toBe(200);
      await nextOf(stream, 'open');
    }

    const raised = await raiseFromPhone(device.token, { lat: 19.07, long: 72.88 });
    expect(raised.statusCode, raised.body).toBe(201);
    const { id, number } = raised.json().data;
    expect(number).toMatch(/^SOS-\d{6}$/);

    for (const stream of [franchise, dealer]) {
      const pushed = (await nextOf(stream, 'sos')) as { kind: string; alert: SosAlert };
      expect(pushed).toMatchObject({
        kind: 'raised',
        alert: {
          id,
          status: 'open',
          source: 'driver_app',
          person: 'driver',
          driverId: s.driver.id,
          lat: 19.07,
        },
      });
    }
    await expect(nextOf(other, 'sos', 500)).rejects.toThrow();
    for (const stream of [franchise, dealer, other]) stream.abort();

    const [audit] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.resource, 'sos'), eq(auditLog.resourceId, id)));
    expect(audit).toMatchObject({ action: 'create', actorId: null, source: 'driver-app' });
  });

  it('refuses a phone without a valid device token, and a position out of range', async () => {
    expect((await raiseFromPhone('bmetd_not-a-token')).statusCode).toBe(401);
    expect((await raiseFromPhone(s.admin.token)).statusCode).toBe(401);
    const device = await issueDeviceToken(t.app, s.admin.token, s.driver.id);
    expect((await raiseFromPhone(device.token, { lat: 200, long: 72 })).statusCode).toBe(400);
  });

  it('starts a new stream with every open alert in scope', async () => {
    const device = await issueDeviceToken(t.app, s.admin.token, s.sisterDriver.id);
    const { id } = (await raiseFromPhone(device.token)).json().data;
    const stream = await openSosStream(s.dealer.token);
    const open = (await nextOf(stream, 'open')) as SosAlert[];
    expect(open.map((alert) => alert.id)).toContain(id);
    stream.abort();
    const sister = (await as(s.sisterFranchise.token, 'GET', '/api/sos?status=open&limit=200')).json();
    expect(Object.keys(sister.data)).toContain(id);
    const stranger = await as(s.otherFranchise.token, 'GET', `/api/sos/${id}`);
    expect(stranger.statusCode).toBe(404);
  });
});

describe("a tab's one stream", () => {
  it("carries the positions of the drivers it shows, in the caller's scope only", async () => {
    const device = await issueDeviceToken(t.app, s.admin.token, s.driver.id);
    const stream = await openSosStream(s.franchise.token, `?drivers=${s.driver.id}`);
    expect(stream.response.status).toBe(200);
    await nextOf(stream, 'open');
    // The current position first, then each one reported.
    expect(await nextOf(stream, 'location')).toMatchObject({ driverId: s.driver.id, lat: 19.076 });
    const reported = await reportLocation(t.app, device.token, { lat: 19.1, long: 72.9 });
    expect(reported.statusCode, reported.body).toBe(204);
    expect(await nextOf(stream, 'location')).toMatchObject({ driverId: s.driver.id, lat: 19.1, long: 72.9 });
    // And its alerts all along.
    await raiseFromPhone(device.token);
    expect(await nextOf(stream, 'sos')).toMatchObject({ kind: 'raised', alert: { driverId: s.driver.id } });
    stream.abort();

    // A driver outside the caller's scope is named refused at the start, and the others followed.
    const mixed = await openSosStream(s.otherFranchise.token, `?drivers=${s.driver.id},${s.otherDriver.id}`);
    expect(mixed.response.status).toBe(200);
    expect(await nextOf(mixed, 'refused')).toEqual([s.driver.id]);
    expect(await nextOf(mixed, 'location')).toMatchObject({ driverId: s.otherDriver.id });
    await reportLocation(t.app, device.token, { lat: 19.3, long: 72.9 });
    await expect(nextOf(mixed, 'location', 1000)).rejects.toThrow();
    mixed.abort();
    const tooMany = await openSosStream(
      s.admin.token,
      `?drivers=${Array.from({ length: 11 }, () => randomUUID()).join(',')}`,
    );
    expect(tooMany.response.status).toBe(400);
    expect(JSON.stringify(await tooMany.response.json())).toContain('at most 10 drivers');
  });

  it("carries the fleet of the caller's scope with fleet=true, and no other's", async () => {
    const device = await issueDeviceToken(t.app, s.admin.token, s.sisterDriver.id);
    const dealer = await openSosStream(s.dealer.token, '?fleet=true');
    const other = await openSosStream(s.otherDealer.token, '?fleet=true');
    for (const stream of [dealer, other]) await nextOf(stream, 'open');
    await reportLocation(t.app, device.token, { lat: 19.2, long: 72.95 });
    const positions = (await nextOf(dealer, 'positions')) as { id: string; lat: number }[];
    expect(positions).toContainEqual(expect.objectContaining({ id: s.sisterDriver.id, lat: 19.2 }));
    await expect(nextOf(other, 'positions', 1000)).rejects.toThrow();
    for (const stream of [dealer, other]) stream.abort();
    expect((await openSosStream(s.dealer.token, '?fleet=yes')).response.status).toBe(400);
  });
});

describe('answering an alert', () => {
  it('is acknowledged (timed), escalated and resolved with its outcome, in order', async () => {
    const created = await as(s.franchise.token, 'POST', '/api/sos', {
      person: 'passenger',
      driverId: s.driver.id,
      note: 'Passenger called: the car stopped on the highway',
    });
    expect(created.statusCode, created.body).toBe(201);
    const alert = created.json().data as SosAlert;
    expect(alert).toMatchObject({
      source: 'staff',
      person: 'passenger',
      status: 'open',
      driverName: s.driver.name,
    });
    const step = (payload: Record<string, unknown>) =>
      as(s.dealer.token, 'PATCH', `/api/sos/${alert.id}`, payload);

    const early = await step({ action: 'escalate', to: 'police' });
    expect(early.statusCode).toBe(400);
    const acknowledged = await step({ action: 'acknowledge' });
    expect(acknowledged.json().data).toMatchObject({ status: 'acknowledged' });
    expect(acknowledged.json().data.secondsToAcknowledge).toBeGreaterThanOrEqual(0);
    expect((await step({ action: 'acknowledge' })).statusCode).toBe(400);
    const nowhere = await step({ action: 'escalate' });
    expect(nowhere.json().fieldErrors.to).toEqual(['Choose whom the alert is escalated to.']);
    await step({ action: 'escalate', to: 'police', note: 'Called 112, PCR van on its way' });
    const twice = await step({ action: 'escalate', to: 'franchise' });
    expect(twice.json().data.escalations.map((escalation: { to: string }) => escalation.to)).toEqual([
      'police',
      'franchise',
    ]);
    expect((await step({ action: 'resolve' })).json().fieldErrors.outcome).toBeDefined();
    const resolved = await step({ action: 'resolve', outcome: 'help_given', note: 'Passenger home safe' });
    expect(resolved.json().data).toMatchObject({
      status: 'resolved',
      outcome: 'help_given',
      outcomeNote: 'Passenger home safe',
    });
    expect((await step({ action: 'resolve', outcome: 'test' })).statusCode).toBe(400);

    const history = await as(
      s.franchise.token,
      'GET',
      '/api/sos?status=resolved&outcome=help_given&limit=200',
    );
    expect(Object.keys(history.json().data)).toContain(alert.id);
    const csv = await as(s.franchise.token, 'GET', '/api/sos/export.csv?status=resolved');
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain(alert.number);
    expect(csv.body).toContain('Police (112); The franchise');
  });

  it('keeps staff to their own drivers and trips', async () => {
    const none = await as(s.franchise.token, 'POST', '/api/sos', { person: 'driver' });
    expect(none.json().fieldErrors.driverId).toEqual(['Name the driver or the trip the alert is about.']);
    const other = await as(s.franchise.token, 'POST', '/api/sos', {
      person: 'driver',
      driverId: s.otherDriver.id,
    });
    expect(other.json().fieldErrors.driverId).toEqual(['No driver of yours has this id.']);
    const loose = await createTrip(t.db, {});
    const adminOnly = await as(s.admin.token, 'POST', '/api/sos', { person: 'passenger', tripId: loose.id });
    expect(adminOnly.statusCode, adminOnly.body).toBe(201);
    expect(adminOnly.json().data).toMatchObject({
      tripId: loose.id,
      driverId: null,
      customerPhone: loose.phoneNumber,
    });
    const hidden = await as(s.dealer.token, 'GET', `/api/sos/${adminOnly.json().data.id}`);
    expect(hidden.statusCode).toBe(404);
  });
});

describe('an alert nobody acknowledges in time', () => {
  let receiver: Awaited<ReturnType<typeof startMailReceiver>>;
  beforeAll(async () => {
    receiver = await startMailReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
  });

  it('is raised again to every admin once, and mailed to the grievance officer', async () => {
    const officer = await as(s.admin.token, 'PUT', '/api/grievances/officer', {
      email: s.admin.account.email,
    });
    expect(officer.statusCode, officer.body).toBe(200);
    const created = (
      await as(s.franchise.token, 'POST', '/api/sos', { person: 'driver', driverId: s.driver.id })
    ).json().data as SosAlert;
    const admin = await openSosStream(s.admin.token);
    await nextOf(admin, 'open');
    // A fake clock: the alert was raised 61 s ago.
    await t.db
      .update(sosAlerts)
      .set({ raisedAt: new Date(Date.now() - 61_000) })
      .where(eq(sosAlerts.id, created.id));
    const mailer = createMailer({
      smtpUrl: receiver.url,
      from: 'x@test.in',
      logger: { info: () => {}, warn: () => {} },
    });
    const log = { info: () => {}, warn: () => {} };
    const ids = await reraiseAlerts(t.db, t.bus, mailer, { appUrl: 'http://x.test', log });
    expect(ids).toContain(created.id);
    expect(await nextOf(admin, 'sos')).toMatchObject({ kind: 'reraised', alert: { id: created.id } });
    const mail = await receiver.waitForMail(s.admin.account.email);
    expect(mail.subject).toBe(`SOS ${created.number} not acknowledged in time`);
    expect(mail.text).toContain('http://x.test/sos');
    expect(await reraiseAlerts(t.db, t.bus, mailer, { appUrl: 'http://x.test', log })).not.toContain(
      created.id,
    );
    const read = (await as(s.admin.token, 'GET', `/api/sos/${created.id}`)).json().data;
    expect(read.reraisedAt).not.toBeNull();
    admin.abort();
    mailer.close();
  });

  it("waits as long as the driver's state sets before raising an alert again", async () => {
    const saved = await as(s.admin.token, 'PUT', '/api/desk-rules/sikkim', {
      effectiveFrom: indianToday(),
      rules: { workingDays: 3, complaintPercent: null, lowRatingPercent: null, sosReraiseSeconds: 120 },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const driver = await createDriver(t.db, { name: 'Pema Sikkim', franchiseId: null, state: 'sikkim' });
    const raised = (
      await as(s.admin.token, 'POST', '/api/sos', { person: 'driver', driverId: driver.id })
    ).json().data as SosAlert;
    const ago = (seconds: number) =>
      t.db
        .update(sosAlerts)
        .set({ raisedAt: new Date(Date.now() - seconds * 1000) })
        .where(eq(sosAlerts.id, raised.id));
    await ago(90);
    expect(await reraiseUnacknowledged(t.db)).not.toContain(raised.id);
    expect((await as(s.admin.token, 'GET', `/api/sos/${raised.id}`)).json().data.reraisedAt).toBeNull();
    await ago(121);
    expect(await reraiseUnacknowledged(t.db)).toContain(raised.id);
    expect((await as(s.admin.token, 'GET', `/api/sos/${raised.id}`)).json().data.reraisedAt).not.toBeNull();
    await as(s.admin.token, 'PATCH', `/api/sos/${raised.id}`, { action: 'acknowledge' });
  });
});
