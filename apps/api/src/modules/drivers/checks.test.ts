import { inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DriverCheckKind } from '@bmet/shared/driver-check-rules';
import type { DriverCheck } from '@bmet/shared/schemas/driver-check';
import { drivers } from '../../db/schema';
import { createDriver } from '../../seed/factories';
import { fetchCsv } from '../../../test/csv-export';
import { useTestApp } from '../../../test/test-app';
import {
  auditRowsOf,
  createDriverWorld,
  getAs,
  notFoundBody,
  type DriverWorld,
  type Staff,
} from '../../../test/driver-fixtures';

const t = useTestApp();
let w: DriverWorld;

beforeAll(async () => {
  w = await createDriverWorld(t.db);
});

/** India's date `days` from today. */
const indiaDay = (days = 0) =>
  new Date(Date.now() + 330 * 60_000 + days * 86_400_000).toISOString().slice(0, 10);

const checksOf = async (who: Staff, driverId: string) => {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/drivers/driver/${driverId}/checks`,
    headers: who.headers,
  });
  expect(response.statusCode, response.body).toBe(200);
  return Object.fromEntries(
    (response.json() as { data: DriverCheck[] }).data.map((check) => [check.kind, check]),
  ) as Record<DriverCheckKind, DriverCheck>;
};

const put = (who: Staff, driverId: string, kind: string, body: unknown) =>
  t.app.inject({
    method: 'PUT',
    url: `/api/drivers/driver/${driverId}/checks/${kind}`,
    headers: who.headers,
    payload: body as Record<string, unknown>,
  });

describe("a driver's checks", () => {
  it('start missing or due, and are kept by whoever keeps the driver, in their scope', async () => {
    const checks = await checksOf(w.franchiseA1, w.drivers.a1.id);
    expect(Object.keys(checks)).toEqual([
      'police_verification',
      'medical_fitness',
      'induction_training',
      'refresher_training',
      'remedial_training',
      'health_insurance',
      'term_insurance',
    ]);
    expect(checks.police_verification).toMatchObject({ status: 'missing', doneOn: null });
    expect(checks.refresher_training).toMatchObject({ status: 'due' });

    const saved = await put(w.franchiseA1, w.drivers.a1.id, 'police_verification', {
      doneOn: indiaDay(-30),
      reference: 'PV/PUNE/2026/4411',
      result: 'passed',
      expiresOn: indiaDay(335),
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({
      data: { kind: 'police_verification', status: 'valid', reference: 'PV/PUNE/2026/4411' },
    });
    const [audit] = (await auditRowsOf(t.db, 'drivers', w.drivers.a1.id)).slice(-1);
    expect(audit).toMatchObject({ action: 'create', actorId: w.franchiseA1.id, before: null });
    expect(audit!.after).toMatchObject({ check: { kind: 'police_verification', result: 'passed' } });

    // Another dealer's driver: not found, and nothing recorded.
    const outside = await put(w.dealerB, w.drivers.a1.id, 'medical_fitness', {
      doneOn: indiaDay(),
      reference: 'M1',
      result: 'passed',
    });
    expect(outside.statusCode).toBe(404);
    expect(outside.json()).toEqual(notFoundBody);
    expect((await checksOf(w.admin, w.drivers.a1.id)).medical_fitness.status).toBe('missing');
  });

  it('judge hours, cover, results and dates by the guidelines', async () => {
    const id = w.drivers.a2.id;
    await put(w.dealerA, id, 'induction_training', { doneOn: indiaDay(-400), reference: 'IND-7', hours: 32 });
    await put(w.dealerA, id, 'health_insurance', {
      doneOn: indiaDay(-10),
      reference: 'HI-1',
      amount: 300_000,
      expiresOn: indiaDay(355),
    });
    await put(w.dealerA, id, 'term_insurance', {
      doneOn: indiaDay(-400),
      reference: 'TI-1',
      amount: 1_000_000,
      expiresOn: indiaDay(-35),
    });
    await put(w.dealerA, id, 'medical_fitness', {
      doneOn: indiaDay(-5),
      reference: 'MED-2',
      result: 'failed',
    });
    const checks = await checksOf(w.dealerA, id);
    expect(checks.induction_training).toMatchObject({ status: 'insufficient', hours: 32 });
    expect(checks.health_insurance).toMatchObject({ status: 'insufficient', amount: 300_000 });
    expect(checks.term_insurance).toMatchObject({ status: 'expired' });
    expect(checks.medical_fitness).toMatchObject({ status: 'failed' });
    // The induction was more than a year ago and no refresher followed.
    expect(checks.refresher_training.status).toBe('due');
    await put(w.dealerA, id, 'refresher_training', { doneOn: indiaDay(-3), reference: 'REF-1', hours: 8 });
    expect((await checksOf(w.dealerA, id)).refresher_training).toMatchObject({
      status: 'valid',
      expiresOn: expect.any(String),
    });
  });

  it('ask remedial training of the lowest-rated drivers of a state each quarter', async () => {
    // Twenty rated drivers of Goa, one rated below any real rating (an average of 0.1) and the rest
    // 5 stars: the lowest is among the lowest 5% however many other drivers Goa has.
    const rated = [];
    for (let i = 0; i < 20; i++) {
      rated.push(
        await createDriver(t.db, {
          state: 'goa',
          name: `Rated ${i}`,
          ratingTotal: i === 0 ? 1 : 50,
          ratingCount: 10,
        }),
      );
    }
    const lowest = rated[0]!;
    expect((await checksOf(w.admin, lowest.id)).remedial_training.status).toBe('due');
    expect((await checksOf(w.admin, rated[5]!.id)).remedial_training.status).toBe('not_due');
    // The quarter's list of those due: a filter of the driver list (and of its export).
    const due = async () =>
      Object.keys(
        (await getAs(t, w.admin, '/api/drivers?q=Rated&remedial=due&limit=200')).json().data as Record<
          string,
          unknown
        >,
      );
    expect(await due()).toContain(lowest.id);
    expect(await due()).not.toContain(rated[5]!.id);
    await put(w.admin, lowest.id, 'remedial_training', { doneOn: indiaDay(), reference: 'REM-Q', hours: 4 });
    expect((await checksOf(w.admin, lowest.id)).remedial_training.status).toBe('valid');
    expect(await due()).not.toContain(lowest.id);
    await t.db.delete(drivers).where(
      inArray(
        drivers.id,
        rated.map((driver) => driver.id),
      ),
    );
  });

  it('refuse what a kind needs but lacks, and change nothing', async () => {
    const id = w.drivers.b1.id;
    const cases: [string, unknown, string][] = [
      ['police_verification', { doneOn: indiaDay(), reference: 'X' }, 'result'],
      ['induction_training', { doneOn: indiaDay(), reference: 'X' }, 'hours'],
      ['health_insurance', { doneOn: indiaDay(), reference: 'X', amount: 600_000 }, 'expiresOn'],
      ['term_insurance', { doneOn: indiaDay(), reference: 'X', expiresOn: indiaDay(5) }, 'amount'],
      [
        'health_insurance',
        { doneOn: indiaDay(), reference: 'X', amount: 600_000, expiresOn: indiaDay(-1) },
        'expiresOn',
      ],
      ['medical_fitness', { doneOn: indiaDay(3), reference: 'X', result: 'passed' }, 'doneOn'],
      ['medical_fitness', { doneOn: '2026-13-01', reference: 'X', result: 'passed' }, 'doneOn'],
      ['medical_fitness', { doneOn: indiaDay(), reference: ' ', result: 'passed' }, 'reference'],
    ];
    for (const [kind, body, field] of cases) {
      const response = await put(w.dealerB, id, kind, body);
      expect(response.statusCode, `${kind} ${JSON.stringify(body)}`).toBe(400);
      expect(response.json()).toMatchObject({
        code: 'VALIDATION',
        fieldErrors: { [field]: [expect.any(String)] },
      });
    }
    expect((await put(w.dealerB, id, 'spaceflight', { doneOn: indiaDay(), reference: 'X' })).statusCode).toBe(
      400,
    );
    const checks = await checksOf(w.dealerB, id);
    expect(Object.values(checks).filter((check) => check.doneOn !== null)).toEqual([]);
  });
});

describe('GET /api/drivers/checks.csv', () => {
  it("writes each of the caller's drivers with every check's status, for the regulator", async () => {
    const saved = await put(w.franchiseA1, w.drivers.a1.id, 'term_insurance', {
      doneOn: indiaDay(-10),
      reference: 'TERM/CSV/77',
      amount: 1_000_000,
      expiresOn: indiaDay(355),
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const csv = await fetchCsv(t, `/api/drivers/checks.csv?q=${w.tag}`, w.dealerA.headers);
    expect(csv.rows.map((row) => row.Name).sort()).toEqual([w.drivers.a1.name, w.drivers.a2.name].sort());
    const row = csv.rows.find((r) => r.Name === w.drivers.a1.name)!;
    expect(row).toMatchObject({
      'Term insurance: Status': 'Valid',
      'Term insurance: Reference': 'TERM/CSV/77',
      'Term insurance: Valid until': indiaDay(355),
      'Police verification: Status': expect.any(String),
    });
    expect(csv.headers).toContain('Induction training: Status');
    // Read in batches, the remedial training is judged as on the driver's own page.
    const own = await checksOf(w.dealerA, w.drivers.a1.id);
    const words = { due: 'Due', not_due: 'Not due', valid: 'Valid' } as Record<string, string>;
    expect(row['Remedial training (this quarter): Status']).toBe(words[own.remedial_training.status]);
    // Another dealer's export holds none of them.
    const other = await fetchCsv(t, `/api/drivers/checks.csv?q=${w.tag}`, w.dealerB.headers);
    expect(other.rows.map((r) => r.Name)).toEqual([w.drivers.b1.name]);
  });
});
