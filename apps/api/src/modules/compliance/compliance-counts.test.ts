import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { DOCUMENT_KEYS } from '@bmet/shared/constants';
import type { ComplianceSummary } from '@bmet/shared/schemas/compliance';
import { rowsOf } from '../../db/rows';
import { driverChecks, driverDocuments, drivers } from '../../db/schema';
import { indianToday } from '../../lib/ist-days';
import type { ScopeCaller } from '../../lib/scope';
import { createAccount, createDriver } from '../../seed/factories';
import { insertMany, loadWithIndexesBuiltAfter } from '../../seed/bulk-insert';
import { getTestDatabase } from '../../../test/test-database';
import { complianceSummary } from './repository';

/** A day counted from today in India, as YYYY-MM-DD. */
function day(offset: number): string {
  const [y, m, d] = indianToday().split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + offset)).toISOString().slice(0, 10);
}

const none: ComplianceSummary = { expired: 0, within1: 0, within7: 0, within30: 0, awaitingReview: 0 };

/**
 * The kept counts as a whole, against the same counts read from the documents and checks
 * themselves: whatever other tests wrote to this database, nothing may have drifted.
 */
async function keptMatchesRows() {
  const { db } = await getTestDatabase();
  const rows = rowsOf(
    await db.execute(sql`
      with kept as (
        select franchise_id, deleted, kind, expires_on, items from compliance_counts where items <> 0),
      actual as (
        select d.franchise_id, d.deleted_at is not null as deleted, i.kind, i.expires_on, count(*)::int as items
        from compliance_items i join drivers d on d.id = i.driver_id group by 1, 2, 3, 4)
      (select 'kept only' as side, * from kept except select 'kept only', * from actual)
      union all
      (select 'actual only', * from actual except select 'actual only', * from kept)`),
  );
  expect(rows).toEqual([]);
}

describe('the compliance summary, kept by the database', () => {
  it('follows documents and checks written, reviewed, moved and deleted, in every scope', async () => {
    const { db } = await getTestDatabase();
    const dealer = await createAccount(db, { role: 'city_dealer', state: 'goa' });
    const one = await createAccount(db, { role: 'franchise', state: 'goa', dealerId: dealer.id });
    const two = await createAccount(db, { role: 'franchise', state: 'goa', dealerId: dealer.id });
    const summaryOf = (caller: ScopeCaller) => complianceSummary(db, caller);
    const asDealer = { id: dealer.id, role: 'city_dealer' } as const;
    const asOne = { id: one.id, role: 'franchise' } as const;
    const asTwo = { id: two.id, role: 'franchise' } as const;

    const first = await createDriver(db, { franchiseId: one.id, state: 'goa' });
    const second = await createDriver(db, { franchiseId: one.id, state: 'goa' });
    expect(await summaryOf(asOne)).toEqual(none);

    // One statement for two drivers: awaiting review, expired, expiring tomorrow, in 20 days, later,
    // and documents the views never list (rejected, approved without an expiry).
    await db.insert(driverDocuments).values([
      { driverId: first.id, key: 'aadharCard', status: 'submitted' },
      { driverId: first.id, key: 'driverLicence', status: 'approved', expiresOn: day(-3) },
      { driverId: first.id, key: 'rcCertificate', status: 'approved', expiresOn: day(1) },
      { driverId: first.id, key: 'panCard', status: 'approved' },
      { driverId: second.id, key: 'driverLicence', status: 'approved', expiresOn: day(20) },
      { driverId: second.id, key: 'rcCertificate', status: 'approved', expiresOn: day(90) },
      { driverId: second.id, key: 'aadharCard', status: 'rejected' },
    ]);
    // Checks: one in force lapsing in 5 days, one failed (not in force), one without an expiry.
    await db.insert(driverChecks).values([
      {
        driverId: second.id,
        kind: 'medical_fitness',
        doneOn: day(-360),
        reference: 'M-1',
        expiresOn: day(5),
      },
      {
        driverId: second.id,
        kind: 'police_verification',
        doneOn: day(-10),
        reference: 'P-1',
        result: 'failed',
        expiresOn: day(2),
      },
      { driverId: first.id, kind: 'induction_training', doneOn: day(-10), reference: 'T-1', hours: 8 },
    ]);
    const both = { expired: 1, within1: 1, within7: 2, within30: 3, awaitingReview: 1 };
    expect(await summaryOf(asOne)).toEqual(both);
    expect(await summaryOf(asDealer)).toEqual(both);
    expect(await summaryOf(asTwo)).toEqual(none);

    // Reviewed: the document awaiting review approved with an expiry in 7 days; the failed check
    // passed on a second attempt.
    await db
      .update(driverDocuments)
      .set({ status: 'approved', expiresOn: day(7) })
      .where(and(eq(driverDocuments.driverId, first.id), eq(driverDocuments.key, 'aadharCard')));
    await db
      .update(driverChecks)
      .set({ result: 'passed' })
      .where(and(eq(driverChecks.driverId, second.id), eq(driverChecks.kind, 'police_verification')));
    const reviewed = { expired: 1, within1: 1, within7: 4, within30: 5, awaitingReview: 0 };
    expect(await summaryOf(asOne)).toEqual(reviewed);

    // The second driver moves to the other franchise of the same dealer: its items go with it.
    await db.update(drivers).set({ franchiseId: two.id }).where(eq(drivers.id, second.id));
    expect(await summaryOf(asOne)).toEqual({
      expired: 1,
      within1: 1,
      within7: 2,
      within30: 2,
      awaitingReview: 0,
    });
    expect(await summaryOf(asTwo)).toEqual({
      expired: 0,
      within1: 0,
      within7: 2,
      within30: 3,
      awaitingReview: 0,
    });
    // The dealer sees both franchises: nothing changes for it.
    expect(await summaryOf(asDealer)).toEqual(reviewed);

    // Deleted, the first driver's items leave every view; restored, they come back.
    await db.update(drivers).set({ deletedAt: new Date() }).where(eq(drivers.id, first.id));
    expect(await summaryOf(asOne)).toEqual(none);
    await db.update(drivers).set({ deletedAt: null }).where(eq(drivers.id, first.id));
    expect((await summaryOf(asOne)).within30).toBe(2);

    // Removed for good, with its documents and checks by cascade.
    await db.delete(drivers).where(eq(drivers.id, first.id));
    expect(await summaryOf(asOne)).toEqual(none);
    // A document deleted alone.
    await db
      .delete(driverDocuments)
      .where(and(eq(driverDocuments.driverId, second.id), eq(driverDocuments.key, 'driverLicence')));
    expect(await summaryOf(asTwo)).toEqual({
      expired: 0,
      within1: 0,
      within7: 2,
      within30: 2,
      awaitingReview: 0,
    });
    await keptMatchesRows();
  });

  it('counts a bulk load once it is done', async () => {
    const { db } = await getTestDatabase();
    const franchise = await createAccount(db, { role: 'franchise', state: 'goa' });
    const team = await Promise.all(
      Array.from({ length: 30 }, () => createDriver(db, { franchiseId: franchise.id, state: 'goa' })),
    );
    // 300 documents, each a document the console knows (the other tests of this database list
    // them): written with the triggers off and counted again after, as the demo seed and the
    // import do.
    const rows = team.flatMap((driver, d) =>
      DOCUMENT_KEYS.map((key, k) => {
        const i = d * DOCUMENT_KEYS.length + k;
        return {
          driverId: driver.id,
          key,
          status: i % 3 === 0 ? ('submitted' as const) : ('approved' as const),
          expiresOn: i % 3 === 0 ? null : day((i % 60) - 20),
        };
      }),
    );
    await loadWithIndexesBuiltAfter(db, [driverDocuments], (tx) => insertMany(tx, driverDocuments, rows));
    const offsets = rows.flatMap((row) => (row.expiresOn === null ? [] : [(rows.indexOf(row) % 60) - 20]));
    expect(await complianceSummary(db, { id: franchise.id, role: 'franchise' })).toEqual({
      expired: offsets.filter((o) => o < 0).length,
      within1: offsets.filter((o) => o >= 0 && o <= 1).length,
      within7: offsets.filter((o) => o >= 0 && o <= 7).length,
      within30: offsets.filter((o) => o >= 0 && o <= 30).length,
      awaitingReview: 100,
    });
    await keptMatchesRows();
  });
});
