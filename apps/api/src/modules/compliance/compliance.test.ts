import { beforeAll, describe, expect, it } from 'vitest';
import { type DocumentKey } from '@bmet/shared/constants';
import { MANDATORY_DOCUMENTS } from '@bmet/shared/document-rules';
import type { ComplianceEntry, ComplianceSummary } from '@bmet/shared/schemas/compliance';
import type { Driver } from '@bmet/shared/schemas/driver';
import { buildDocumentRow, insertDocuments } from '../../seed/factories';
import { indianToday } from '../../lib/ist-days';
import { fetchCsv } from '../../../test/csv-export';
import { useTestApp } from '../../../test/test-app';
import {
  createDriverWorld,
  getAs,
  recordChecksInOrder,
  type DriverWorld,
  type Staff,
} from '../../../test/driver-fixtures';

const t = useTestApp();

/** A date `days` after today in India. */
const day = (days: number) => {
  const [y, m, d] = indianToday().split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
};

type Page = { data: ComplianceEntry[]; nextCursor: string | null };

async function list(who: Staff, query: string): Promise<ComplianceEntry[]> {
  const response = await getAs(t, who, `/api/compliance?${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<Page>().data;
}

const review = (who: Staff, driverId: string, key: DocumentKey, body: Record<string, unknown>) =>
  t.app.inject({
    method: 'PATCH',
    url: `/api/drivers/driver/${driverId}/documents/${key}`,
    headers: who.headers,
    payload: body,
  });

describe('document expiry and compliance', () => {
  let w: DriverWorld;
  beforeAll(async () => {
    w = await createDriverWorld(t.db);
    const { a1, a2, b1 } = w.drivers;
    // a1: every mandatory document approved and valid, but its licence expires in 5 days.
    // a2: its permit expired 3 days ago and its Aadhaar awaits review; b1 (another dealer): expired RC.
    const row = (
      driverId: string,
      key: DocumentKey,
      status: 'approved' | 'submitted',
      expiresOn: string | null,
    ) =>
      buildDocumentRow(driverId, { key, status, expiresOn }, w.admin.id, `images/${driverId}/${key}.jpg`, 10);
    await insertDocuments(t.db, [
      ...MANDATORY_DOCUMENTS.map((key) =>
        row(
          a1.id,
          key,
          'approved',
          key === 'aadharCard' ? null : key === 'driverLicence' ? day(5) : day(400),
        ),
      ),
      ...MANDATORY_DOCUMENTS.map((key) =>
        row(
          a2.id,
          key,
          key === 'aadharCard' ? 'submitted' : 'approved',
          key === 'aadharCard' ? null : key === 'vehiclePermit' ? day(-3) : day(60),
        ),
      ),
      row(b1.id, 'rcCertificate', 'approved', day(-10)),
    ]);
    await recordChecksInOrder(t.db, a1.id);
    await recordChecksInOrder(t.db, a2.id);
  });

  it('lists expired and expiring documents soonest first, awaiting review oldest first, in scope', async () => {
    const { a1, a2, b1 } = w.drivers;
    const mine = (entries: ComplianceEntry[]) =>
      entries.filter((entry) => [a1.id, a2.id, b1.id].includes(entry.driverId));
    const expired = mine(await list(w.admin, 'within=0&limit=200'));
    expect(expired.map((entry) => [entry.driverId, entry.document])).toEqual([
      [b1.id, 'rcCertificate'],
      [a2.id, 'vehiclePermit'],
    ]);
    expect(expired[1]).toMatchObject({ expiresOn: day(-3), status: 'approved', label: 'Vehicle Permit' });
    const week = mine(await list(w.admin, 'within=7&limit=200'));
    expect(week.map((entry) => [entry.driverId, entry.document, entry.expiresOn])).toEqual([
      [a1.id, 'driverLicence', day(5)],
    ]);
    const awaiting = mine(await list(w.admin, 'status=submitted&limit=200'));
    expect(awaiting.map((entry) => [entry.driverId, entry.document])).toEqual([[a2.id, 'aadharCard']]);

    // Dealer A sees its drivers only; the franchise of a1 sees a1 only.
    const dealerExpired = await list(w.dealerA, 'within=0&limit=200');
    expect(dealerExpired.map((entry) => entry.driverId)).toContain(a2.id);
    expect(dealerExpired.map((entry) => entry.driverId)).not.toContain(b1.id);
    expect(await list(w.franchiseA1, 'within=0')).toEqual([]);
    const summary = (await getAs(t, w.franchiseA1, '/api/compliance/summary')).json<{
      data: ComplianceSummary;
    }>().data;
    expect(summary).toEqual({ expired: 0, within1: 0, within7: 1, within30: 1, awaitingReview: 0 });
  });

  it('counts the documents awaiting review as the review view lists them, in every scope', async () => {
    const counted = new Map<Staff, number>();
    for (const who of [w.admin, w.dealerA, w.dealerB, w.franchiseA1]) {
      const summary = (await getAs(t, who, '/api/compliance/summary')).json<{ data: ComplianceSummary }>()
        .data;
      const listed = await list(who, 'status=submitted&limit=200');
      expect(summary.awaitingReview, who.email).toBe(listed.length);
      counted.set(who, summary.awaitingReview);
    }
    // Dealer A's a2 has a document awaiting review: the count is not trivially zero.
    expect(counted.get(w.dealerA)).toBeGreaterThan(0);
  });

  it('pages with a cursor and refuses a bad window', async () => {
    const first = (await getAs(t, w.dealerA, '/api/compliance?within=366&limit=1')).json<Page>();
    expect(first.data).toHaveLength(1);
    const second = await list(w.dealerA, `within=366&limit=1&cursor=${first.nextCursor}`);
    expect(second[0]!.expiresOn! >= first.data[0]!.expiresOn!).toBe(true);
    expect(second[0]).not.toEqual(first.data[0]);
    for (const query of ['within=-1', 'within=400', 'within=soon', 'cursor=forged']) {
      const response = await getAs(t, w.admin, `/api/compliance?${query}`);
      expect(response.statusCode, query).toBe(400);
    }
  });

  it('marks drivers "not compliant" with the reasons, and filters them', async () => {
    const { a1, a2 } = w.drivers;
    const page = await getAs(t, w.dealerA, `/api/city_dealer?q=${w.tag}`);
    const drivers = Object.values(page.json<{ data: Record<string, Driver> }>().data);
    const byId = new Map(drivers.map((driver) => [driver.id, driver]));
    expect(byId.get(a1.id)!.compliance).toEqual({ compliant: true, problems: [], checks: [], vehicle: [] });
    expect(byId.get(a2.id)!.compliance).toEqual({
      compliant: false,
      problems: [
        { document: 'aadharCard', problem: 'awaiting_review' },
        { document: 'vehiclePermit', problem: 'expired' },
      ],
      checks: [],
      vehicle: [],
    });
    const notCompliant = await getAs(t, w.dealerA, `/api/city_dealer?q=${w.tag}&compliance=not_compliant`);
    expect(Object.keys(notCompliant.json<{ data: object }>().data)).toEqual([a2.id]);
    expect(notCompliant.json<{ total: number }>().total).toBe(1);
    const compliant = await getAs(t, w.dealerA, `/api/city_dealer?q=${w.tag}&compliance=compliant`);
    expect(Object.keys(compliant.json<{ data: object }>().data)).toEqual([a1.id]);
    const detail = await getAs(t, w.dealerA, `/api/drivers/driver/${a2.id}`);
    expect(detail.json<{ data: Driver }>().data.compliance?.compliant).toBe(false);
  });

  it('counts the checks the guidelines ask: a lapsed one makes a driver not compliant, in the list and its filter', async () => {
    const { a1 } = w.drivers;
    const put = (kind: string, body: Record<string, unknown>) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/drivers/driver/${a1.id}/checks/${kind}`,
        headers: w.admin.headers,
        payload: body,
      });
    const listed = async (query = '') =>
      Object.values(
        (await getAs(t, w.dealerA, `/api/city_dealer?q=${w.tag}${query}`)).json<{
          data: Record<string, Driver>;
        }>().data,
      );
    // Health cover below ₹5 lakh, and a police verification that lapsed yesterday.
    expect(
      (
        await put('health_insurance', {
          doneOn: day(-5),
          reference: 'HI-2',
          amount: 300_000,
          expiresOn: day(300),
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await put('police_verification', {
          doneOn: day(-400),
          reference: 'PV-2',
          result: 'passed',
          expiresOn: day(-1),
        })
      ).statusCode,
    ).toBe(200);
    const mine = (await listed()).find((driver) => driver.id === a1.id)!;
    expect(mine.compliance).toEqual({
      compliant: false,
      problems: [],
      checks: [
        { check: 'police_verification', problem: 'expired' },
        { check: 'health_insurance', problem: 'insufficient' },
      ],
      vehicle: [],
    });
    expect((await listed('&compliance=not_compliant')).map((driver) => driver.id)).toContain(a1.id);
    expect((await listed('&compliance=compliant')).map((driver) => driver.id)).not.toContain(a1.id);
    const detail = await getAs(t, w.dealerA, `/api/drivers/driver/${a1.id}`);
    expect(detail.json<{ data: Driver }>().data.compliance).toEqual(mine.compliance);

    // Put right again, the driver is compliant in both.
    await put('health_insurance', {
      doneOn: day(-5),
      reference: 'HI-3',
      amount: 500_000,
      expiresOn: day(300),
    });
    await put('police_verification', {
      doneOn: day(-1),
      reference: 'PV-3',
      result: 'passed',
      expiresOn: day(700),
    });
    expect((await listed('&compliance=compliant')).map((driver) => driver.id)).toContain(a1.id);
    expect((await listed()).find((driver) => driver.id === a1.id)!.compliance).toEqual({
      compliant: true,
      problems: [],
      checks: [],
      vehicle: [],
    });
  });

  it('counts a vehicle past its age limit against the driver who drives it', async () => {
    const { a1 } = w.drivers;
    const vehicles = await getAs(t, w.dealerA, `/api/vehicles?driverId=${a1.id}`);
    const [vehicle] = Object.values(vehicles.json<{ data: Record<string, { id: string }> }>().data);
    const patch = (firstRegisteredOn: string | null) =>
      t.app.inject({
        method: 'PATCH',
        url: `/api/vehicles/${vehicle!.id}`,
        headers: w.dealerA.headers,
        payload: { firstRegisteredOn },
      });
    const listed = async (query = '') =>
      Object.values(
        (await getAs(t, w.dealerA, `/api/city_dealer?q=${w.tag}${query}`)).json<{
          data: Record<string, Driver>;
        }>().data,
      );
    expect((await patch(day(-10 * 366))).statusCode).toBe(200);
    const mine = (await listed()).find((driver) => driver.id === a1.id)!;
    expect(mine.compliance).toEqual({
      compliant: false,
      problems: [],
      checks: [],
      vehicle: [{ problem: 'over_age', ageLimitYears: 8 }],
    });
    expect((await listed('&compliance=not_compliant')).map((driver) => driver.id)).toContain(a1.id);
    const detail = await getAs(t, w.dealerA, `/api/drivers/driver/${a1.id}`);
    expect(detail.json<{ data: Driver }>().data.compliance).toEqual(mine.compliance);
    expect((await patch(null)).statusCode).toBe(200);
    expect((await listed('&compliance=compliant')).map((driver) => driver.id)).toContain(a1.id);
  });

  it('lists the checks that lapse beside the documents, and counts them', async () => {
    const { b1 } = w.drivers;
    const summary = async () =>
      (await getAs(t, w.dealerB, '/api/compliance/summary')).json<{ data: ComplianceSummary }>().data;
    const before = await summary();
    const put = async (kind: string, body: Record<string, unknown>) => {
      const response = await t.app.inject({
        method: 'PUT',
        url: `/api/drivers/driver/${b1.id}/checks/${kind}`,
        headers: w.dealerB.headers,
        payload: body,
      });
      expect(response.statusCode, response.body).toBe(200);
    };
    await put('health_insurance', { doneOn: day(-300), reference: 'HI', amount: 500_000, expiresOn: day(3) });
    await put('police_verification', {
      doneOn: day(-400),
      reference: 'PV',
      result: 'passed',
      expiresOn: day(-2),
    });
    // A failed check is not in force: nothing of it lapses.
    await put('medical_fitness', { doneOn: day(-20), reference: 'MED', result: 'failed', expiresOn: day(2) });

    const ofB1 = (entries: ComplianceEntry[]) =>
      entries
        .filter((entry) => entry.driverId === b1.id)
        .map((entry) => [entry.document, entry.label, entry.status, entry.expiresOn]);
    expect(ofB1(await list(w.dealerB, 'within=7&limit=200'))).toEqual([
      ['health_insurance', 'Health insurance', null, day(3)],
    ]);
    expect(ofB1(await list(w.dealerB, 'within=0&limit=200'))).toEqual([
      ['rcCertificate', 'RC Certificate', 'approved', day(-10)],
      ['police_verification', 'Police verification', null, day(-2)],
    ]);
    // Paged one at a time, the documents and checks come in one order.
    const first = (await getAs(t, w.dealerB, '/api/compliance?within=0&limit=1')).json<Page>();
    const rest = await list(w.dealerB, `within=0&limit=200&cursor=${first.nextCursor}`);
    expect([...first.data, ...rest].filter((entry) => entry.driverId === b1.id)).toHaveLength(2);
    expect(await list(w.dealerA, 'within=7&limit=200')).not.toContainEqual(
      expect.objectContaining({ driverId: b1.id }),
    );
    expect(await summary()).toEqual({
      ...before,
      expired: before.expired + 1,
      within7: before.within7 + 1,
      within30: before.within30 + 1,
    });
    const csv = await fetchCsv(t, '/api/compliance/export.csv?within=0', w.dealerB.headers);
    expect(csv.rows.find((row) => row.Document === 'Police verification')).toMatchObject({
      Status: 'Check in force',
    });
  });

  it('takes an expiry at review: required and not past for an approval, only for documents that expire', async () => {
    const { a2 } = w.drivers;
    const permit = await review(w.admin, a2.id, 'vehiclePermit', { status: 'approved' });
    expect(permit.statusCode).toBe(400);
    expect(permit.json().error).toMatch(/expired: it cannot be approved/);
    const past = await review(w.admin, a2.id, 'vehiclePermit', { status: 'approved', expiresOn: day(-1) });
    expect(past.statusCode).toBe(400);
    const unreal = await review(w.admin, a2.id, 'vehiclePermit', {
      status: 'approved',
      expiresOn: '2027-02-30',
    });
    expect(unreal.statusCode).toBe(400);
    expect(unreal.json().error).toMatch(/real expiry date/);
    const aadhaar = await review(w.admin, a2.id, 'aadharCard', { status: 'approved', expiresOn: day(30) });
    expect(aadhaar.statusCode).toBe(400);
    expect(aadhaar.json().error).toMatch(/does not expire/);

    const renewed = await review(w.admin, a2.id, 'vehiclePermit', {
      status: 'approved',
      expiresOn: day(365),
    });
    expect(renewed.statusCode, renewed.body).toBe(200);
    expect(renewed.json().data).toMatchObject({ status: 'approved', expires: true, expiresOn: day(365) });
    const approved = await review(w.admin, a2.id, 'aadharCard', { status: 'approved' });
    expect(approved.statusCode, approved.body).toBe(200);
    const detail = await getAs(t, w.dealerA, `/api/drivers/driver/${a2.id}`);
    expect(detail.json<{ data: Driver }>().data.compliance).toEqual({
      compliant: true,
      problems: [],
      checks: [],
      vehicle: [],
    });
  });

  it('exports a view as the list shows it to the caller', async () => {
    const csv = await fetchCsv(t, '/api/compliance/export.csv?within=0', w.dealerB.headers);
    const listed = await list(w.dealerB, 'within=0&limit=200');
    expect(csv.rows.map((row) => [row.ID, row.Document])).toEqual(
      listed.map((entry) => [entry.driverId, entry.label]),
    );
    const rc = csv.rows.find((row) => row.ID === w.drivers.b1.id);
    expect(rc).toMatchObject({
      Document: 'RC Certificate',
      'Expires on': day(-10).split('-').reverse().join('/'),
    });
    const ids = csv.rows.map((row) => row.ID);
    expect(ids).not.toContain(w.drivers.a1.id);
    expect(ids).not.toContain(w.drivers.a2.id);
  });
});
