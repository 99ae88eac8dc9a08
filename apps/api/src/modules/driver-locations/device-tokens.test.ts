import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { m } from '@bmet/shared/paraglide/messages';
import { auditLog, driverDeviceTokens } from '../../db/schema';
import { authHeader, useTestApp } from '../../../test/test-app';
import { hashDeviceToken } from './device-tokens';
import { createScope, issueDeviceToken, reportLocation } from '../../../test/location-support';

const t = useTestApp();
let s: Awaited<ReturnType<typeof createScope>>;
beforeAll(async () => {
  s = await createScope(t.db);
});

const tokensUrl = (driverId: string) => `/api/drivers/driver/${driverId}/device-tokens`;
const listTokens = (token: string, driverId: string) =>
  t.app.inject({ method: 'GET', url: tokensUrl(driverId), headers: authHeader(token) });
const revoke = (token: string, driverId: string, tokenId: string) =>
  t.app.inject({ method: 'DELETE', url: `${tokensUrl(driverId)}/${tokenId}`, headers: authHeader(token) });

const notFound = { error: m.notFound(), code: 'NOT_FOUND' };
const unauthorized = { error: m.unauthorized(), code: 'UNAUTHORIZED' };
const isoTime = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

async function auditOf(tokenId: string) {
  return t.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.resource, 'driver-device-tokens'), eq(auditLog.resourceId, tokenId)))
    .orderBy(auditLog.id);
}

describe('POST /api/drivers/driver/:id/device-tokens', () => {
  it('issues a token whose secret is shown once, and stores only its SHA-256', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: tokensUrl(s.driver.id),
      headers: { ...authHeader(s.franchise.token), 'x-request-id': 'issue-device-token-1' },
      payload: { label: "  Ravi's phone " },
    });
    expect(response.statusCode).toBe(201);
    expect(response.headers['cache-control']).toBe('no-store');
    const { data } = response.json();
    expect(data).toEqual({
      id: expect.any(String),
      label: "Ravi's phone",
      createdAt: isoTime,
      lastUsedAt: null,
      revokedAt: null,
      token: expect.stringMatching(/^bmetd_[A-Za-z0-9_-]{43}$/),
    });

    const [row] = await t.db.select().from(driverDeviceTokens).where(eq(driverDeviceTokens.id, data.id));
    expect(row).toMatchObject({
      driverId: s.driver.id,
      createdBy: s.franchise.account.id,
      tokenHash: hashDeviceToken(data.token),
    });
    expect(JSON.stringify(row)).not.toContain(data.token);

    // Listed afterwards without the secret, for anyone who may see the driver.
    for (const who of [s.franchise, s.dealer, s.admin]) {
      const list = await listTokens(who.token, s.driver.id);
      expect(list.statusCode).toBe(200);
      const listed = list.json().data.find((token: { id: string }) => token.id === data.id);
      expect(listed).toEqual({
        id: data.id,
        label: "Ravi's phone",
        createdAt: data.createdAt,
        lastUsedAt: null,
        revokedAt: null,
      });
      expect(list.body).not.toContain(data.token);
      expect(list.body).not.toContain(row!.tokenHash);
    }
  });

  it('writes the issue to the audit log, without the secret or its hash', async () => {
    const issued = await issueDeviceToken(t.app, s.admin.token, s.driver.id, 'Audit phone');
    const entries = await auditOf(issued.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actorId: s.admin.account.id,
      action: 'issue',
      before: null,
      after: { driverId: s.driver.id, id: issued.id, label: 'Audit phone', revokedAt: null },
    });
    expect(entries[0]!.requestId).toEqual(expect.any(String));
    const text = JSON.stringify(entries[0]);
    expect(text).not.toContain(issued.token);
    expect(text).not.toContain(hashDeviceToken(issued.token));
  });

  it('gives each issue a different secret', async () => {
    const a = await issueDeviceToken(t.app, s.admin.token, s.driver.id);
    const b = await issueDeviceToken(t.app, s.admin.token, s.driver.id);
    expect(a.token).not.toBe(b.token);
  });

  it('refuses an empty label with the field message', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: tokensUrl(s.driver.id),
      headers: authHeader(s.admin.token),
      payload: { label: '   ' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'VALIDATION',
      fieldErrors: { label: ['Name the device.'] },
    });
  });

  it("answers 404 for a driver outside the caller's scope, and issues nothing", async () => {
    const cases = [
      [s.dealer, s.otherDriver],
      [s.franchise, s.sisterDriver],
      [s.franchise, s.unassignedDriver],
      [s.admin, s.deletedDriver],
    ] as const;
    for (const [who, driver] of cases) {
      const response = await t.app.inject({
        method: 'POST',
        url: tokensUrl(driver.id),
        headers: authHeader(who.token),
        payload: { label: 'Phone' },
      });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(notFound);
      const rows = await t.db
        .select()
        .from(driverDeviceTokens)
        .where(eq(driverDeviceTokens.driverId, driver.id));
      expect(rows).toEqual([]);
      expect((await listTokens(who.token, driver.id)).statusCode).toBe(404);
    }
  });
});

describe('DELETE /api/drivers/driver/:id/device-tokens/:tokenId', () => {
  it('revokes a token: the phone gets 401 afterwards, the list shows when', async () => {
    const issued = await issueDeviceToken(t.app, s.dealer.token, s.driver.id);
    expect((await reportLocation(t.app, issued.token, { lat: 19.1, long: 72.9 })).statusCode).toBe(204);

    const response = await revoke(s.dealer.token, s.driver.id, issued.id);
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');

    const report = await reportLocation(t.app, issued.token, { lat: 19.2, long: 72.9 });
    expect(report.statusCode).toBe(401);
    expect(report.json()).toEqual(unauthorized);

    const listed = (await listTokens(s.dealer.token, s.driver.id))
      .json()
      .data.find((token: { id: string }) => token.id === issued.id);
    expect(listed).toMatchObject({ revokedAt: isoTime, lastUsedAt: isoTime });

    const entries = await auditOf(issued.id);
    expect(entries.map((entry) => entry.action)).toEqual(['issue', 'revoke']);
    expect(entries[1]).toMatchObject({
      actorId: s.dealer.account.id,
      before: { id: issued.id, revokedAt: null },
      after: { id: issued.id, revokedAt: listed.revokedAt },
    });
  });

  it('answers 204 again for a token already revoked, without a second audit entry', async () => {
    const issued = await issueDeviceToken(t.app, s.admin.token, s.driver.id);
    expect((await revoke(s.admin.token, s.driver.id, issued.id)).statusCode).toBe(204);
    const first = (await listTokens(s.admin.token, s.driver.id))
      .json()
      .data.find((token: { id: string }) => token.id === issued.id).revokedAt;
    expect((await revoke(s.admin.token, s.driver.id, issued.id)).statusCode).toBe(204);
    const second = (await listTokens(s.admin.token, s.driver.id))
      .json()
      .data.find((token: { id: string }) => token.id === issued.id).revokedAt;
    expect(second).toBe(first);
    expect((await auditOf(issued.id)).map((entry) => entry.action)).toEqual(['issue', 'revoke']);
  });

  it('answers 404 for a token of another driver, an unknown token, or a driver out of scope', async () => {
    const issued = await issueDeviceToken(t.app, s.admin.token, s.driver.id);
    const wrongDriver = await revoke(s.admin.token, s.sisterDriver.id, issued.id);
    expect(wrongDriver.statusCode).toBe(404);
    expect(wrongDriver.json()).toEqual(notFound);
    expect((await revoke(s.admin.token, s.driver.id, randomUUID())).statusCode).toBe(404);
    expect((await revoke(s.otherDealer.token, s.driver.id, issued.id)).statusCode).toBe(404);
    expect((await revoke(s.sisterFranchise.token, s.driver.id, issued.id)).statusCode).toBe(404);

    // Still working.
    expect((await reportLocation(t.app, issued.token, { lat: 19.05, long: 72.85 })).statusCode).toBe(204);
  });
});
