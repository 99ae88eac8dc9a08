import { beforeAll, describe, expect, it } from 'vitest';
import type { Notification } from '@bmet/shared/schemas/notification';
import { authHeader } from '../../../test/test-app';
import { createScope, issueDeviceToken, SseReader, useLocationTestApp } from '../../../test/location-support';
import { recordGrievanceNotices } from './grievance-notices';

const t = useLocationTestApp({ listen: true });
let s: Awaited<ReturnType<typeof createScope>>;

beforeAll(async () => {
  s = await createScope(t.db);
});

const as = (token: string, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: authHeader(token),
    payload: payload as Record<string, unknown> | undefined,
  });

type Inbox = { data: Notification[]; nextCursor: string | null; unread: number };
const inboxOf = async (token: string, query = ''): Promise<Inbox> => {
  const response = await as(token, 'GET', `/api/notifications${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};

async function raiseSos() {
  const device = await issueDeviceToken(t.app, s.admin.token, s.driver.id);
  const raised = await t.app.inject({
    method: 'POST',
    url: '/api/driver-app/sos',
    headers: authHeader(device.token),
    payload: { lat: 19.07, long: 72.88 },
  });
  expect(raised.statusCode, raised.body).toBe(201);
  return raised.json().data as { id: string; number: string };
}

describe('the inbox', () => {
  it('holds an SOS alert for the admins, the driver’s franchise and its dealer, and no one else', async () => {
    const alert = await raiseSos();
    for (const who of [s.admin, s.franchise, s.dealer]) {
      const inbox = await inboxOf(who.token);
      expect(inbox.data.find((n) => n.recordId === alert.id)).toMatchObject({
        kind: 'sos',
        recordType: 'sos',
        detail: { number: alert.number, person: 'driver' },
        readAt: null,
      });
      expect(inbox.unread).toBeGreaterThanOrEqual(1);
    }
    for (const who of [s.sisterFranchise, s.otherDealer, s.otherFranchise]) {
      expect((await inboxOf(who.token)).data.some((n) => n.recordId === alert.id)).toBe(false);
    }
  });

  it('marks one read and unread again, all read at once, and never another account’s', async () => {
    await raiseSos();
    await raiseSos();
    const before = await inboxOf(s.franchise.token);
    const [first] = before.data;
    const read = await as(s.franchise.token, 'PATCH', `/api/notifications/${first!.id}`, { read: true });
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().data.readAt).not.toBeNull();
    expect((await inboxOf(s.franchise.token)).unread).toBe(before.unread - 1);
    expect((await inboxOf(s.franchise.token, '?unread=true')).data.some((n) => n.id === first!.id)).toBe(
      false,
    );

    // Another account's notification is not there for it: 404, and nothing changes.
    const theirs = await as(s.dealer.token, 'PATCH', `/api/notifications/${first!.id}`, { read: false });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json().error).toBe('No such notification in your inbox.');
    const refused = await as(s.franchise.token, 'PATCH', `/api/notifications/${first!.id}`, { read: 'yes' });
    expect(refused.statusCode).toBe(400);

    const unread = await as(s.franchise.token, 'PATCH', `/api/notifications/${first!.id}`, { read: false });
    expect(unread.json().data.readAt).toBeNull();
    const all = await as(s.franchise.token, 'POST', '/api/notifications/read-all');
    expect(all.statusCode).toBe(200);
    expect(all.json().data.read).toBe(before.unread);
    expect((await inboxOf(s.franchise.token)).unread).toBe(0);
    // The dealer's copies are its own: still unread.
    expect((await inboxOf(s.dealer.token)).unread).toBeGreaterThan(0);
  });

  it('pages newest first, and refuses a cursor it did not hand out', async () => {
    const first = await inboxOf(s.admin.token, '?limit=1');
    expect(first.data).toHaveLength(1);
    expect(first.nextCursor).not.toBeNull();
    const second = await inboxOf(s.admin.token, `?limit=1&cursor=${first.nextCursor}`);
    expect(Date.parse(second.data[0]!.createdAt)).toBeLessThanOrEqual(Date.parse(first.data[0]!.createdAt));
    expect(second.data[0]!.id).not.toBe(first.data[0]!.id);
    expect((await as(s.admin.token, 'GET', '/api/notifications?cursor=forged')).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/api/notifications' })).statusCode).toBe(401);
  });

  it('tells the scope of a grievance that is overdue, once, and pushes it to their open tabs', async () => {
    const logged = await as(s.admin.token, 'POST', '/api/grievances', {
      complainantKind: 'customer',
      complainantName: 'Meera Iyer',
      complainantPhone: '9876543210',
      category: 'fare',
      description: 'Charged twice.',
      driverId: s.driver.id,
      receivedAt: new Date(Date.now() - 10 * 86_400_000).toISOString(),
    });
    expect(logged.statusCode, logged.body).toBe(201);
    const grievance = logged.json().data as { id: string; number: string };

    const controller = new AbortController();
    const response = await fetch(`${t.baseUrl}/api/sos/stream`, {
      headers: authHeader(s.dealer.token),
      signal: controller.signal,
    });
    const stream = new SseReader(response, controller);
    const told = await recordGrievanceNotices(t.db);
    expect(told).toEqual(
      expect.arrayContaining([s.admin.account.id, s.dealer.account.id, s.franchise.account.id]),
    );
    expect(told).not.toContain(s.otherDealer.account.id);
    await t.bus.publishAlert({ kind: 'inbox', accountIds: told });
    for (;;) {
      const message = await stream.next(10_000);
      if (message === null) throw new Error('The stream ended');
      if ('event' in message && message.event === 'inbox') break;
    }
    stream.abort();

    const notice = (await inboxOf(s.franchise.token)).data.find((n) => n.recordId === grievance.id);
    expect(notice).toMatchObject({
      kind: 'grievance_overdue',
      recordType: 'grievances',
      detail: { number: grievance.number },
    });
    // Found again on the next run: not told twice.
    expect(await recordGrievanceNotices(t.db)).not.toContain(s.franchise.account.id);
    expect((await inboxOf(s.sisterFranchise.token)).data.some((n) => n.recordId === grievance.id)).toBe(
      false,
    );
  });
});
