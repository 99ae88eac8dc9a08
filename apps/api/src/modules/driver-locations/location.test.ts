import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { m } from '@bmet/shared/paraglide/messages';
import { authHeader, useTestApp } from '../../../test/test-app';
import { createScope } from '../../../test/location-support';

const t = useTestApp();
let s: Awaited<ReturnType<typeof createScope>>;
beforeAll(async () => {
  s = await createScope(t.db);
});

const getLocation = (token: string, driverKey: string) =>
  t.app.inject({ method: 'GET', url: `/api/drivers/location/${driverKey}`, headers: authHeader(token) });

const notFound = { error: m.notFound(), code: 'NOT_FOUND' };

describe('GET /api/drivers/location/:driverKey', () => {
  it("answers the driver's name, contact and position, with the time of the position", async () => {
    const response = await getLocation(s.admin.token, s.driver.id);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      data: {
        name: s.driver.name,
        email: s.driver.email,
        phoneNumber: s.driver.phoneNumber,
        position: { lat: 19.076, long: 72.8777 },
        positionAt: s.driver.positionAt!.toISOString(),
      },
    });
  });

  it('answers a null position for a driver that never reported one', async () => {
    const response = await getLocation(s.admin.token, s.unlocatedDriver.id);
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({ position: null, positionAt: null });
  });

  it('lets an admin see every driver, assigned or not', async () => {
    for (const driver of [s.driver, s.sisterDriver, s.otherDriver, s.unassignedDriver]) {
      const response = await getLocation(s.admin.token, driver.id);
      expect(response.statusCode, driver.name).toBe(200);
      expect(response.json().data.name).toBe(driver.name);
    }
  });

  it("lets a city dealer see the drivers of its franchises, and not another dealer's (404)", async () => {
    for (const driver of [s.driver, s.sisterDriver]) {
      expect((await getLocation(s.dealer.token, driver.id)).statusCode).toBe(200);
    }
    for (const driver of [s.otherDriver, s.unassignedDriver]) {
      const response = await getLocation(s.dealer.token, driver.id);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(notFound);
    }
    expect((await getLocation(s.otherDealer.token, s.otherDriver.id)).statusCode).toBe(200);
    expect((await getLocation(s.otherDealer.token, s.driver.id)).statusCode).toBe(404);
  });

  it('lets a franchise see its own drivers only (404 for a sister franchise or another dealer)', async () => {
    expect((await getLocation(s.franchise.token, s.driver.id)).statusCode).toBe(200);
    for (const driver of [s.sisterDriver, s.otherDriver, s.unassignedDriver]) {
      const response = await getLocation(s.franchise.token, driver.id);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(notFound);
    }
  });

  it('hides a soft-deleted driver from every role, admin included', async () => {
    for (const who of [s.admin, s.dealer, s.franchise]) {
      const response = await getLocation(who.token, s.deletedDriver.id);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(notFound);
    }
  });

  it('answers 404 for an unknown driver and 400 for a key that is not an id', async () => {
    expect((await getLocation(s.admin.token, randomUUID())).json()).toEqual(notFound);
    const bad = await getLocation(s.admin.token, 'not-a-driver');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'VALIDATION' });
  });

  it('answers 401 without a token', async () => {
    const response = await t.app.inject({ method: 'GET', url: `/api/drivers/location/${s.driver.id}` });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ error: m.unauthorized(), code: 'UNAUTHORIZED' });
  });
});
