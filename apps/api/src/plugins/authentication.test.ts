import type { FastifyContextConfig } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES, type Role } from '@bmet/shared/constants';
import { m } from '@bmet/shared/paraglide/messages';
import { buildApp, type App } from '../app';
import type { Db } from '../db/client';
import { createAccount, type AccountRow } from '../seed/factories';
import { authHeader, issueToken, testAppOptions } from '../../test/test-app';
import { getTestDatabase } from '../../test/test-database';

/**
 * The guard itself, on probe routes: the foundation has no route limited by the matrix yet, so
 * the 403 path would otherwise only be exercised once later issues add one.
 */

let app: App;
let db: Db;
const accounts = {} as Record<Role, AccountRow>;

beforeAll(async () => {
  db = (await getTestDatabase()).db;
  app = await buildApp(testAppOptions(db));
  await app.register(
    async (api) => {
      api.get('/probe/customers', { config: { access: ['customers', 'list'] } }, async () => ({ ok: true }));
      api.post('/probe/franchises', { config: { access: ['franchises', 'create'] } }, async () => ({
        ok: true,
      }));
    },
    { prefix: '/api' },
  );
  await app.ready();
  for (const role of ROLES) accounts[role] = await createAccount(db, { role });
});
afterAll(() => app.close());

const tokenOf = async (role: Role) => (await issueToken(db, accounts[role])).token;

describe('a route guarded by the matrix', () => {
  it('is listed in the route catalog with its permission', () => {
    expect(app.routeCatalog).toContainEqual({
      method: 'GET',
      url: '/api/probe/customers',
      access: ['customers', 'list'],
    });
  });

  it('answers 401 to anonymous callers', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/probe/customers' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ error: m.unauthorized(), code: 'UNAUTHORIZED' });
  });

  it.each([
    ['GET', '/api/probe/customers', ['admin']],
    ['POST', '/api/probe/franchises', ['admin', 'city_dealer']],
  ] as const)('%s %s lets only %j through', async (method, url, allowed) => {
    for (const role of ROLES) {
      const response = await app.inject({ method, url, headers: authHeader(await tokenOf(role)) });
      if ((allowed as readonly string[]).includes(role)) {
        expect(response.statusCode, role).toBe(200);
        expect(response.json()).toEqual({ ok: true });
      } else {
        expect(response.statusCode, role).toBe(403);
        expect(response.json()).toEqual({ error: m.forbidden(), code: 'FORBIDDEN' });
      }
    }
  });

  it('refuses a forbidden caller before reading the body', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/probe/franchises',
      headers: { ...authHeader(await tokenOf('franchise')), 'content-type': 'application/json' },
      payload: '{not json',
    });
    expect(response.statusCode).toBe(403);
  });
});

/** Registers one probe route under /api on a fresh app, as a module would. */
async function registerProbe(path: string, config?: FastifyContextConfig) {
  const open = await buildApp(testAppOptions(db));
  try {
    await open.register(
      async (api) => {
        api.get(path, config ? { config } : {}, async () => ({ ok: true }));
      },
      { prefix: '/api' },
    );
  } finally {
    await open.close().catch(() => {});
  }
}

describe('a route that declares no access', () => {
  it('stops the app from starting', async () => {
    await expect(registerProbe('/probe/open')).rejects.toThrow(
      'Route GET /api/probe/open declares no access',
    );
  });
});

describe('a route that takes a device token', () => {
  it('stops the app from starting unless it is public', async () => {
    await expect(
      registerProbe('/probe/device', { access: ['drivers', 'list'], deviceToken: true }),
    ).rejects.toThrow('Route GET /api/probe/device takes a device token, so it must be public');
    await expect(
      registerProbe('/probe/device', { access: 'public', deviceToken: true }),
    ).resolves.toBeUndefined();
  });
});
