import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DocumentKey } from '@bmet/shared/constants';
import { m } from '@bmet/shared/paraglide/messages';
import { DOCUMENT_APPROVALS_MAX } from '@bmet/shared/document-rules';
import { driverDocuments } from '../../db/schema';
import { buildDocumentRow, createDriver, insertDocuments, type DocumentPlan } from '../../seed/factories';
import { useTestApp } from '../../../test/test-app';
import { auditRowsOf, createDriverWorld, type DriverWorld, type Staff } from '../../../test/driver-fixtures';

const t = useTestApp();
let w: DriverWorld;

beforeAll(async () => {
  w = await createDriverWorld(t.db);
});

const approve = (who: Staff, documents: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/api/drivers/documents/approvals',
    headers: { ...who.headers, ...headers },
    payload: { documents },
  });

/** A new driver of a franchise with documents in the given states (each with an image but 'not_submitted'). */
async function driverWith(franchiseId: string | null, plans: DocumentPlan[]) {
  const driver = await createDriver(t.db, { franchiseId });
  await insertDocuments(
    t.db,
    plans.map((plan) =>
      buildDocumentRow(driver.id, plan, w.admin.id, `images/${driver.id}/${plan.key}.jpg`, 1000),
    ),
  );
  return driver;
}

const documentRow = async (driverId: string, key: DocumentKey) =>
  (
    await t.db
      .select()
      .from(driverDocuments)
      .where(and(eq(driverDocuments.driverId, driverId), eq(driverDocuments.key, key)))
  )[0];

describe('POST /api/drivers/documents/approvals', () => {
  it('approves each document, audited as a single approval is, and names the ones it could not', async () => {
    const mine = await driverWith(w.franchiseA1.id, [
      { key: 'aadharCard', status: 'submitted' },
      { key: 'panCard', status: 'submitted' },
      { key: 'addressProof', status: 'rejected' },
      { key: 'driverLicence', status: 'submitted' },
      { key: 'identityDetail', status: 'not_submitted' },
    ]);
    const otherDealers = await driverWith(w.franchiseB1.id, [{ key: 'aadharCard', status: 'submitted' }]);
    const response = await approve(w.dealerA, [
      { driverId: mine.id, key: 'aadharCard' },
      { driverId: otherDealers.id, key: 'aadharCard' },
      { driverId: mine.id, key: 'addressProof' },
      { driverId: mine.id, key: 'driverLicence' },
      { driverId: mine.id, key: 'identityDetail' },
      { driverId: randomUUID(), key: 'panCard' },
      { driverId: mine.id, key: 'panCard' },
    ]);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      data: {
        approved: [
          { driverId: mine.id, key: 'aadharCard' },
          { driverId: mine.id, key: 'panCard' },
        ],
        failed: [
          { driverId: otherDealers.id, key: 'aadharCard', error: m.notFound(), code: 'NOT_FOUND' },
          { driverId: mine.id, key: 'addressProof', error: m.documentNotAwaitingReview(), code: 'CONFLICT' },
          {
            driverId: mine.id,
            key: 'driverLicence',
            error: m.documentApprovalNeedsDate(),
            code: 'VALIDATION',
          },
          { driverId: mine.id, key: 'identityDetail', error: m.documentHasNoImage(), code: 'CONFLICT' },
          { driverId: expect.any(String), key: 'panCard', error: m.notFound(), code: 'NOT_FOUND' },
        ],
      },
    });

    // The approved ones, with who and when, each with the audit row a single approval writes.
    for (const key of ['aadharCard', 'panCard'] as const) {
      expect(await documentRow(mine.id, key)).toMatchObject({
        status: 'approved',
        reviewedBy: w.dealerA.id,
        rejectionReason: null,
        expiresOn: null,
      });
      const audit = await auditRowsOf(t.db, 'driver-documents', `${mine.id}/${key}`);
      expect(audit).toHaveLength(1);
      expect(audit[0]).toMatchObject({
        action: 'review',
        actorId: w.dealerA.id,
        requestId: response.headers['x-request-id'],
        before: { status: 'submitted', reviewedBy: null },
        after: { status: 'approved', reviewedBy: w.dealerA.id, rejectionReason: null, expiresOn: null },
      });
    }
    // The others unchanged, and unaudited.
    expect(await documentRow(otherDealers.id, 'aadharCard')).toMatchObject({ status: 'submitted' });
    expect(await documentRow(mine.id, 'addressProof')).toMatchObject({ status: 'rejected' });
    expect(await documentRow(mine.id, 'driverLicence')).toMatchObject({ status: 'submitted' });
    for (const [driverId, key] of [
      [otherDealers.id, 'aadharCard'],
      [mine.id, 'addressProof'],
      [mine.id, 'driverLicence'],
    ] as const) {
      expect(await auditRowsOf(t.db, 'driver-documents', `${driverId}/${key}`)).toEqual([]);
    }
  });

  it("lets an admin approve any driver's documents, those without a franchise included", async () => {
    const loose = await driverWith(null, [{ key: 'vehcileAudit', status: 'submitted' }]);
    const placed = await driverWith(w.franchiseB1.id, [{ key: 'panCard', status: 'submitted' }]);
    const response = await approve(w.admin, [
      { driverId: loose.id, key: 'vehcileAudit' },
      { driverId: placed.id, key: 'panCard' },
    ]);
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toEqual({
      approved: [
        { driverId: loose.id, key: 'vehcileAudit' },
        { driverId: placed.id, key: 'panCard' },
      ],
      failed: [],
    });
  });

  it('says why in the caller’s language', async () => {
    const driver = await driverWith(w.franchiseA1.id, [{ key: 'panCard', status: 'approved' }]);
    const response = await approve(w.admin, [{ driverId: driver.id, key: 'panCard' }], {
      'accept-language': 'hi',
    });
    expect(response.statusCode).toBe(200);
    const [failure] = response.json().data.failed;
    expect(failure.code).toBe('CONFLICT');
    expect(failure.error).toMatch(/[\u0900-\u097F]/);
  });

  it('is refused to a franchise, which does not review documents', async () => {
    const driver = await driverWith(w.franchiseA1.id, [{ key: 'aadharCard', status: 'submitted' }]);
    const response = await approve(w.franchiseA1, [{ driverId: driver.id, key: 'aadharCard' }]);
    expect(response.statusCode).toBe(403);
    expect(await documentRow(driver.id, 'aadharCard')).toMatchObject({ status: 'submitted' });
  });

  it('refuses an empty, oversized, repeated or malformed batch, and changes nothing', async () => {
    const driver = await driverWith(w.franchiseA1.id, [{ key: 'aadharCard', status: 'submitted' }]);
    const one = { driverId: driver.id, key: 'aadharCard' };
    const tooMany = Array.from({ length: DOCUMENT_APPROVALS_MAX }, () => ({
      driverId: randomUUID(),
      key: 'panCard',
    }));
    const cases: [unknown, string | null][] = [
      [[], m.documentApprovalsNone()],
      [[one, ...tooMany], m.documentApprovalsTooMany({ max: DOCUMENT_APPROVALS_MAX })],
      [[one, one], m.documentApprovalsRepeated()],
      [[{ driverId: 'not-an-id', key: 'aadharCard' }], null],
      [[{ driverId: driver.id, key: 'passport' }], null],
      ['aadharCard', null],
    ];
    for (const [documents, message] of cases) {
      const response = await approve(w.admin, documents);
      expect(response.statusCode, JSON.stringify(documents).slice(0, 80)).toBe(400);
      expect(response.json().code).toBe('VALIDATION');
      if (message) expect(response.json().error).toContain(message);
    }
    expect(await documentRow(driver.id, 'aadharCard')).toMatchObject({ status: 'submitted' });
    expect(await auditRowsOf(t.db, 'driver-documents', `${driver.id}/aadharCard`)).toEqual([]);
  });

  it(`approves a batch of ${DOCUMENT_APPROVALS_MAX}`, async () => {
    const keys = ['aadharCard', 'addressProof', 'identityDetail', 'panCard', 'vehcileAudit'] as const;
    const drivers = await Promise.all(
      Array.from({ length: DOCUMENT_APPROVALS_MAX / keys.length }, () =>
        driverWith(
          w.franchiseA2.id,
          keys.map((key) => ({ key, status: 'submitted' as const })),
        ),
      ),
    );
    const documents = drivers.flatMap((driver) => keys.map((key) => ({ driverId: driver.id, key })));
    const response = await approve(w.dealerA, documents);
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toEqual({ approved: documents, failed: [] });
  });
});
