import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry } from '@bmet/shared/schemas/audit';
import { createAccount, createDriver } from '../../seed/factories';
import { recordAudit } from '../../infra/audit';
import { fetchCsv } from '../../../test/csv-export';
import { authHeader, signInAs, useTestApp, type SignedIn } from '../../../test/test-app';

const t = useTestApp();

type Page = { data: AuditEntry[]; nextCursor: string | null };

const audit = (token: string, query: Record<string, string> = {}) =>
  t.app.inject({
    method: 'GET',
    url: `/api/audit?${new URLSearchParams(query).toString()}`,
    headers: authHeader(token),
  });

async function entries(token: string, query: Record<string, string> = {}): Promise<AuditEntry[]> {
  const response = await audit(token, query);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<Page>().data;
}

/** Two dealers, each with a franchise and a driver, and changes to each record. */
async function world() {
  const admin = await signInAs(t, 'admin');
  const dealer = await signInAs(t, 'city_dealer');
  const otherDealer = await createAccount(t.db, { role: 'city_dealer' });
  const franchise = await signInAs(t, 'franchise', { dealerId: dealer.account.id });
  const otherFranchise = await createAccount(t.db, { role: 'franchise', dealerId: otherDealer.id });
  const driver = await createDriver(t.db, {
    franchiseId: franchise.account.id,
    name: `Driver ${randomUUID().slice(0, 6)}`,
  });
  const otherDriver = await createDriver(t.db, { franchiseId: otherFranchise.id });
  const by = (who: SignedIn) => ({ id: who.account.id, requestId: `req-${randomUUID()}` });
  const change = (who: SignedIn, resource: string, resourceId: string, action = 'update') =>
    recordAudit(t.db, by(who), {
      action,
      resource,
      resourceId,
      before: { status: 'submitted' },
      after: { status: 'approved' },
    });
  await change(admin, 'driver-documents', `${driver.id}/driverLicence`, 'review');
  await change(admin, 'driver-documents', `${otherDriver.id}/driverLicence`, 'review');
  await change(admin, 'franchises', franchise.account.id);
  await change(admin, 'franchises', otherFranchise.id);
  await change(admin, 'car-rates', 'maharashtra/Sedan');
  await change(dealer, 'passwords', dealer.account.id, 'reset');
  return { admin, dealer, otherDealer, franchise, otherFranchise, driver, otherDriver };
}

describe('GET /api/audit', () => {
  let w: Awaited<ReturnType<typeof world>>;
  beforeAll(async () => {
    w = await world();
    // A real change through the API: the franchise deletes its driver, the admin restores it.
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/drivers/driver/${w.driver.id}`,
      headers: authHeader(w.franchise.token),
    });
    expect(deleted.statusCode).toBe(204);
    const restored = await t.app.inject({
      method: 'POST',
      url: `/api/drivers/driver/${w.driver.id}/restore`,
      headers: authHeader(w.admin.token),
    });
    expect(restored.statusCode).toBe(200);
  });

  it("shows an admin a driver's whole history newest first: who, what, the record and the values", async () => {
    const history = await entries(w.admin.token, { recordType: 'drivers', recordId: w.driver.id });
    expect(history.map((entry) => [entry.recordType, entry.action])).toEqual([
      ['drivers', 'restore'],
      ['drivers', 'delete'],
      ['driver-documents', 'review'],
    ]);
    const [restore, remove, review] = history as [AuditEntry, AuditEntry, AuditEntry];
    expect(restore.actor).toMatchObject({
      id: w.admin.account.id,
      email: w.admin.account.email,
      role: 'admin',
    });
    expect(remove.actor).toMatchObject({ id: w.franchise.account.id, role: 'franchise' });
    for (const entry of history) {
      expect(entry.recordName).toBe(w.driver.name);
      expect(entry.driverId).toBe(w.driver.id);
    }
    expect(review).toMatchObject({
      recordId: `${w.driver.id}/driverLicence`,
      before: { status: 'submitted' },
      after: { status: 'approved' },
    });
    expect(Date.parse(restore.at)).toBeGreaterThanOrEqual(Date.parse(remove.at));
  });

  it('shows a city dealer only changes to records in its scope', async () => {
    const seen = await entries(w.dealer.token, { limit: '200' });
    const ids = seen.map((entry) => entry.recordId);
    expect(ids).toEqual(
      expect.arrayContaining([
        w.driver.id,
        `${w.driver.id}/driverLicence`,
        w.franchise.account.id,
        w.dealer.account.id,
      ]),
    );
    expect(ids).not.toContain(`${w.otherDriver.id}/driverLicence`);
    expect(ids).not.toContain(w.otherFranchise.id);
    expect(seen.some((entry) => entry.recordType === 'car-rates')).toBe(false);
    // Asking for another dealer's driver by id finds nothing, as if it had no history.
    expect(await entries(w.dealer.token, { recordType: 'drivers', recordId: w.otherDriver.id })).toEqual([]);
  });

  it('filters by person, kind of record, action and IST days', async () => {
    const byFranchise = await entries(w.admin.token, { actor: w.franchise.account.id });
    expect(byFranchise.map((entry) => entry.action)).toEqual(['delete']);
    const reviews = await entries(w.admin.token, {
      recordType: 'driver-documents',
      action: 'review',
      limit: '200',
    });
    expect(
      reviews.every((entry) => entry.recordType === 'driver-documents' && entry.action === 'review'),
    ).toBe(true);
    expect(reviews.map((entry) => entry.recordId)).toContain(`${w.otherDriver.id}/driverLicence`);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata' }).format(new Date());
    expect(
      await entries(w.admin.token, { actor: w.franchise.account.id, from: today, to: today }),
    ).toHaveLength(1);
    expect(await entries(w.admin.token, { actor: w.franchise.account.id, to: '2020-01-01' })).toEqual([]);
  });

  it('pages with a cursor, without repeats or gaps', async () => {
    const all = await entries(w.admin.token, { recordType: 'drivers', recordId: w.driver.id });
    const first = (
      await audit(w.admin.token, { recordType: 'drivers', recordId: w.driver.id, limit: '2' })
    ).json<Page>();
    expect(first.data).toHaveLength(2);
    const second = await entries(w.admin.token, {
      recordType: 'drivers',
      recordId: w.driver.id,
      limit: '2',
      cursor: first.nextCursor!,
    });
    expect([...first.data, ...second].map((entry) => entry.id)).toEqual(all.map((entry) => entry.id));
  });

  it('refuses bad filters with a clear message and changes nothing', async () => {
    const bad: Record<string, string>[] = [
      { from: '2026-02-30' },
      { from: '0000-01-01' },
      { from: '2026-11-24', to: '2026-11-01' },
      { recordType: 'spaceships' },
      { actor: 'not-an-id' },
      { cursor: 'forged' },
    ];
    for (const query of bad) {
      const response = await audit(w.admin.token, query);
      expect(response.statusCode, JSON.stringify(query)).toBe(400);
      expect(response.json<{ error: string }>().error).toBeTruthy();
    }
    expect((await audit(w.admin.token, { from: '2026-11-24', to: '2026-11-01' })).json().error).toMatch(
      /end date must not be before the start date/,
    );
  });

  it('is closed to franchises and to callers without a token', async () => {
    expect((await audit(w.franchise.token)).statusCode).toBe(403);
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/audit' });
    expect(anonymous.statusCode).toBe(401);
  });

  it("hides the system's own entries (device tokens, a language switch) unless asked for", async () => {
    const by = { id: w.admin.account.id, requestId: `req-${randomUUID()}` };
    await recordAudit(t.db, by, {
      action: 'issue',
      resource: 'driver-device-tokens',
      resourceId: randomUUID(),
      before: null,
      after: { driverId: w.driver.id, label: 'Phone' },
    });
    await recordAudit(t.db, by, {
      action: 'update',
      resource: 'profile',
      resourceId: w.admin.account.id,
      before: { language: 'en' },
      after: { language: 'hi' },
    });
    await recordAudit(t.db, by, {
      action: 'update',
      resource: 'profile',
      resourceId: w.admin.account.id,
      before: { displayName: 'Old' },
      after: { displayName: 'New' },
    });
    const mine = (list: AuditEntry[]) => list.filter((entry) => entry.actor?.id === w.admin.account.id);
    const kinds = (list: AuditEntry[]) =>
      mine(list).map((entry) => `${entry.recordType}:${Object.keys(entry.after ?? {}).join(',')}`);
    const shown = kinds(await entries(w.admin.token, { actor: w.admin.account.id }));
    expect(shown).toContain('profile:displayName');
    expect(shown).not.toContain('profile:language');
    expect(shown.some((kind) => kind.startsWith('driver-device-tokens'))).toBe(false);
    const all = kinds(await entries(w.admin.token, { actor: w.admin.account.id, system: 'true' }));
    expect(all).toContain('profile:language');
    expect(all.some((kind) => kind.startsWith('driver-device-tokens'))).toBe(true);
    const tokens = await entries(w.admin.token, { recordType: 'driver-device-tokens' });
    expect(tokens.length).toBeGreaterThan(0);
    expect((await audit(w.admin.token, { system: 'yes' })).statusCode).toBe(400);
  });

  it('exports what the list shows the caller, as CSV with the values before and after', async () => {
    const query = `recordType=drivers&recordId=${w.driver.id}`;
    const csv = await fetchCsv(t, `/api/audit/export.csv?${query}`, authHeader(w.admin.token));
    const listed = await entries(w.admin.token, { recordType: 'drivers', recordId: w.driver.id });
    expect(csv.rows.map((row) => row.Record)).toEqual(listed.map(() => w.driver.name));
    expect(csv.rows.map((row) => row.What)).toEqual(['Restored', 'Deleted', 'Reviewed']);
    expect(csv.rows[2]!.Changes).toBe('status: submitted → approved');
    expect(csv.rows[1]!.Who).toBe(w.franchise.account.displayName);
    // The other dealer's driver is not in a dealer's export, whatever the query asks.
    const dealers = await fetchCsv(t, '/api/audit/export.csv', authHeader(w.dealer.token));
    expect(dealers.rows.map((row) => row['Record ID'])).not.toContain(`${w.otherDriver.id}/driverLicence`);
    expect(dealers.rows.map((row) => row['Record ID'])).toContain(w.franchise.account.id);
    const refused = await t.app.inject({
      method: 'GET',
      url: '/api/audit/export.csv',
      headers: authHeader(w.franchise.token),
    });
    expect(refused.statusCode).toBe(403);
  });
});
