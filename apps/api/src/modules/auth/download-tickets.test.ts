import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { m } from '@bmet/shared/paraglide/messages';
import { buildApp } from '../../app';
import { downloadTickets } from '../../db/schema';
import { createCustomer, createTrip } from '../../seed/factories';
import { parseCsv } from '../../../test/csv-export';
import { testAppOptions, useTestApp } from '../../../test/test-app';
import { createStaff, createTripWorld, type Staff, type TripWorld } from '../../../test/trip-fixtures';
import { canonicalQuery, issueDownloadTicket, withoutTicket } from '../../lib/download-tickets';

const t = useTestApp();
let w: TripWorld;

beforeAll(async () => {
  w = await createTripWorld(t.db);
});

/** Asks for a ticket as a staff member; answers the response. */
const askTicket = (who: Staff, url: string, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/download-tickets',
    headers: { ...who.headers, ...headers },
    payload: { url },
  });

/** A ticket's download address for an export, asked for as `who`. */
async function ticketUrl(who: Staff, url: string): Promise<string> {
  const response = await askTicket(who, url);
  expect(response.statusCode, response.body).toBe(201);
  const { data } = response.json<{ data: { url: string; expiresAt: string } }>();
  const left = Date.parse(data.expiresAt) - Date.now();
  expect(left).toBeGreaterThan(50_000);
  expect(left).toBeLessThanOrEqual(60_000);
  return data.url;
}

/** A download as the browser's download manager makes it: no Authorization header. */
const download = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers });

const invalidTicket = { code: 'UNAUTHORIZED', error: m.downloadTicketInvalid() };

describe('download tickets', () => {
  it('open one export once, without the bearer token, with the rows the bearer token gets', async () => {
    const url = await ticketUrl(w.dealerA, `/api/trips/export.csv?q=${w.tag}`);
    expect(url).toMatch(new RegExp(`^/api/trips/export\\.csv\\?q=${w.tag}&ticket=[A-Za-z0-9_-]{43}$`));
    const first = await download(url);
    expect(first.statusCode, first.body).toBe(200);
    const withBearer = await t.app.inject({
      method: 'GET',
      url: `/api/trips/export.csv?q=${w.tag}`,
      headers: w.dealerA.headers,
    });
    expect(first.body).toBe(withBearer.body);
    const ids = parseCsv(first.body.slice(1))
      .slice(1)
      .map((record) => record.at(-1));
    expect(ids).toEqual([w.trips.a1.id, w.trips.a2.id]);

    const again = await download(url);
    expect(again.statusCode).toBe(401);
    expect(again.json()).toEqual(invalidTicket);
  });

  it('are bound to the path and the query, in any order of its parameters', async () => {
    const url = await ticketUrl(w.admin, `/api/trips/export.csv?status=completed&q=${w.tag}`);
    const ticket = new URL(url, 'http://x').searchParams.get('ticket')!;
    for (const other of [
      `/api/trips/export.csv?q=${w.tag}&ticket=${ticket}`,
      `/api/trips/export.csv?status=cancelled&q=${w.tag}&ticket=${ticket}`,
      `/api/drivers/export.csv?status=completed&q=${w.tag}&ticket=${ticket}`,
    ]) {
      const refused = await download(other);
      expect(refused.statusCode, other).toBe(401);
      expect(refused.json()).toEqual(invalidTicket);
    }
    const reordered = await download(`/api/trips/export.csv?ticket=${ticket}&q=${w.tag}&status=completed`);
    expect(reordered.statusCode, reordered.body).toBe(200);
  });

  it('expire after a minute', async () => {
    const query = canonicalQuery(`q=${w.tag}`);
    const { ticket } = await issueDownloadTicket(
      t.db,
      { sessionId: await sessionOf(w.admin), accountId: w.admin.id, path: '/api/trips/export.csv', query },
      new Date(Date.now() - 61_000),
    );
    const late = await download(`/api/trips/export.csv?${query}&ticket=${ticket}`);
    expect(late.statusCode).toBe(401);
    expect(late.json()).toEqual(invalidTicket);
  });

  it('die with the session that asked for them', async () => {
    const staff = await createStaff(t.db, { role: 'admin' });
    const url = await ticketUrl(staff, `/api/trips/export.csv?q=${w.tag}`);
    const signOut = await t.app.inject({ method: 'POST', url: '/api/auth/sign-out', headers: staff.headers });
    expect(signOut.statusCode).toBeLessThan(300);
    const refused = await download(url);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual(invalidTicket);
  });

  it('let only one of two simultaneous downloads through', async () => {
    const url = await ticketUrl(w.admin, `/api/trips/export.csv?q=${w.tag}`);
    const answers = await Promise.all([download(url), download(url), download(url)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 401, 401]);
  });

  it('are kept as a hash only, and refuse anything that is not one', async () => {
    const url = await ticketUrl(w.admin, `/api/customers/export.csv`);
    const ticket = new URL(url, 'http://x').searchParams.get('ticket')!;
    const rows = await t.db.select().from(downloadTickets).where(eq(downloadTickets.accountId, w.admin.id));
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.tokenHash).not.toContain(ticket);
    for (const forged of ['x', ticket.slice(1), `${ticket}a`, '%00'.repeat(20)]) {
      const refused = await download(`/api/customers/export.csv?ticket=${forged}`);
      expect(refused.statusCode).toBe(401);
    }
  });

  it('answer in the language of the download', async () => {
    const url = await ticketUrl(w.admin, `/api/customers/export.csv`);
    await download(url);
    const again = await download(url, { 'accept-language': 'hi' });
    expect(again.json()).toEqual({
      code: 'UNAUTHORIZED',
      error: m.downloadTicketInvalid({}, { locale: 'hi' }),
    });
  });

  it('open only the exports: a ticket is no token for the other routes', async () => {
    const url = await ticketUrl(w.admin, `/api/customers/export.csv`);
    const ticket = new URL(url, 'http://x').searchParams.get('ticket')!;
    const list = await download(`/api/customers?ticket=${ticket}`);
    expect(list.statusCode).toBe(401);
    expect(list.json()).toMatchObject({ code: 'UNAUTHORIZED', error: m.unauthorized() });
    // Still unused: the list did not take it.
    expect((await download(url)).statusCode).toBe(200);
  });
});

describe('POST /api/auth/download-tickets', () => {
  it('refuses an address that is not an export', async () => {
    for (const url of ['/api/trips', '/api/auth/me', 'https://example.com/api/trips/export.csv', '/x']) {
      const response = await askTicket(w.admin, url);
      expect(response.statusCode, url).toBe(400);
      expect(response.json()).toEqual({
        code: 'VALIDATION',
        error: m.downloadTicketNotAnExport(),
        fieldErrors: { url: [m.downloadTicketNotAnExport()] },
      });
    }
  });

  it('refuses what the export itself would refuse: the role, the deleted view, a bad query', async () => {
    const customers = await askTicket(w.franchiseA1, '/api/customers/export.csv');
    expect(customers.statusCode).toBe(403);
    expect(customers.json()).toMatchObject({ code: 'FORBIDDEN' });
    const dealers = await askTicket(w.dealerA, '/api/city_dealer/export.csv');
    expect(dealers.statusCode).toBe(403);
    const deleted = await askTicket(w.dealerA, '/api/drivers/export.csv?deleted=true');
    expect(deleted.statusCode).toBe(403);
    expect(deleted.json()).toEqual({ code: 'FORBIDDEN', error: m.deletedDriversAdminOnly() });
    const bad = await askTicket(w.admin, '/api/trips/export.csv?status=flying');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'VALIDATION', fieldErrors: { status: expect.any(Array) } });
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/auth/download-tickets',
      payload: { url: '/api/trips/export.csv' },
    });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('the request log', () => {
  const lines: string[] = [];
  const logged = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  let app: Awaited<ReturnType<typeof buildApp>>;
  beforeAll(async () => {
    app = await buildApp({ ...testAppOptions(t.db), logger: { level: 'info', stream: logged } });
    await app.ready();
  });
  afterAll(() => app.close());

  it('never holds a ticket', async () => {
    const customer = await createCustomer(t.db, { name: 'Logged Customer' });
    await createTrip(t.db, { customer, driver: null, status: 'requested' });
    const response = await app.inject({
      method: 'POST',
      url: '/api/auth/download-tickets',
      headers: w.admin.headers,
      payload: { url: '/api/customers/export.csv?q=logged' },
    });
    const { url } = response.json<{ data: { url: string } }>().data;
    const ticket = new URL(url, 'http://x').searchParams.get('ticket')!;
    expect((await app.inject({ method: 'GET', url })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url })).statusCode).toBe(401);
    const log = lines.join('');
    expect(log).toContain('/api/customers/export.csv?q=logged&ticket=[redacted]');
    expect(log).not.toContain(ticket);
    expect(withoutTicket(`/a?ticket=${ticket}&b=1`)).toBe('/a?ticket=[redacted]&b=1');
  });
});

/** The session of a staff member's token. */
async function sessionOf(who: Staff): Promise<string> {
  const token = who.headers.authorization.slice('Bearer '.length);
  const payload = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sid: string };
  return payload.sid;
}
