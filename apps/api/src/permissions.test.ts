import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES, type Role } from '@bmet/shared/constants';
import { rolesFor } from '@bmet/shared/permissions';
import { createAccount, type AccountRow } from './seed/factories';
import type { RouteEntry } from './plugins/authentication';
import { authHeader, createTestApp, issueToken } from '../test/test-app';

/**
 * Calls every /api route the app declares, as anonymous and as each role, and checks the answer
 * against the access the route declares and the shared matrix. New routes join the table by
 * being registered: nothing to add here.
 */

// Built before the tests are collected: the catalog decides which tests exist.
const t = await createTestApp();
afterAll(() => t.close());
const accounts = {} as Record<Role, AccountRow>;

beforeAll(async () => {
  for (const role of ROLES) accounts[role] = await createAccount(t.db, { role });
});

/**
 * Routes that declare 'public' because their callers are not staff: the driver app's phone
 * authenticates with a device token of its own, checked by the route. Anonymous callers and staff
 * ID tokens both get 401 there.
 */
const DEVICE_AUTHENTICATED = new Set(['POST /api/driver-app/location', 'POST /api/driver-app/sos']);
const isDeviceAuthenticated = (route: RouteEntry) => DEVICE_AUTHENTICATED.has(`${route.method} ${route.url}`);

const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** A concrete URL for a route pattern: every parameter (and a wildcard) gets a random UUID. */
function concreteUrl(pattern: string): string {
  return pattern.replace(/:\w+(\([^)]*\))?/g, () => randomUUID()).replace(/\*$/, randomUUID());
}

function allowedRoles(route: RouteEntry): readonly Role[] {
  if (route.access === 'public' || route.access === 'signed-in') return ROLES;
  return rolesFor(route.access);
}

/**
 * A live stream that lets its caller in stays open (the fleet stream has no id to miss): only its
 * answer's head is read, and the rest is dropped.
 */
const isStream = (route: RouteEntry) => route.url.endsWith('/stream');

async function call(route: RouteEntry, role: Role | null, headOnly = false) {
  // A session of its own for every call: a route such as sign-out revokes the token it is given.
  const headers = role ? authHeader((await issueToken(t.db, accounts[role])).token) : {};
  const response = await t.app.inject({
    method: route.method as 'GET',
    url: concreteUrl(route.url),
    headers,
    ...(METHODS_WITH_BODY.has(route.method) ? { payload: {} } : {}),
    payloadAsStream: headOnly,
  });
  if (headOnly) response.stream().destroy();
  return response;
}

describe('the route catalog', () => {
  it('lists the /api routes with their declared access', () => {
    expect(t.app.routeCatalog.length).toBeGreaterThan(0);
    expect(t.app.routeCatalog).toContainEqual({ method: 'POST', url: '/api/auth/sign-in', access: 'public' });
    for (const route of t.app.routeCatalog) {
      expect(route.url.startsWith('/api/'), route.url).toBe(true);
      expect(route.method).not.toBe('HEAD');
    }
  });

  it('has no route declared twice', () => {
    const keys = t.app.routeCatalog.map((route) => `${route.method} ${route.url}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('keeps every route behind a token except sign-in, password-reset requests, device routes and the probes', () => {
    const open = t.app.routeCatalog
      .filter((route) => route.access === 'public' && !isDeviceAuthenticated(route))
      .map((route) => route.url);
    for (const url of open) {
      expect(url).toMatch(
        /\/(sign-in|password-reset|reset-password)(\/|$)|^\/api\/(health|ready)$|^\/api\/auth\/passkey\/options$|^\/api\/auth\/second-factor\//,
      );
    }
  });
});

const ENROLMENT = /^\/api\/auth\/second-factor\//;

const routes = t.app.routeCatalog.map((route) => ({
  ...route,
  declared: typeof route.access === 'string' ? route.access : route.access.join(':'),
}));

describe.each(routes)('$method $url ($declared)', (route) => {
  const allowed = allowedRoles(route);

  if (isDeviceAuthenticated(route)) {
    it.each([null, ...ROLES])('answers 401 to %s (no device token)', async (role) => {
      const response = await call(route, role);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ code: 'UNAUTHORIZED' });
    });
    return;
  }

  if (route.access === 'public' && ENROLMENT.test(route.url)) {
    // Setting up a second factor takes a session, or the challenge of a sign-in that must enrol.
    it('answers 401 to anonymous callers without a challenge', async () => {
      const response = await call(route, null);
      // A body missing what it must hold is a 400 before anything else.
      expect(response.statusCode).toBe(/\/(passkeys|confirm)$/.test(route.url) ? 400 : 401);
    });
  } else if (route.access === 'public') {
    it('is open to anonymous callers', async () => {
      const response = await call(route, null);
      expect([401, 403]).not.toContain(response.statusCode);
      expect(response.statusCode).toBeLessThan(500);
    });
  } else {
    it('answers 401 to anonymous callers', async () => {
      const response = await call(route, null);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ code: 'UNAUTHORIZED' });
    });
  }

  it.each(ROLES.filter((role) => allowed.includes(role)))('lets a %s through', async (role) => {
    const response = await call(route, role, isStream(route));
    expect([401, 403]).not.toContain(response.statusCode);
    // An empty body or an unknown id is a 400 or a 404, never a crash.
    expect(response.statusCode).toBeLessThan(500);
  });

  it.each(ROLES.filter((role) => !allowed.includes(role)))('answers 403 to a %s', async (role) => {
    const response = await call(route, role);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'FORBIDDEN' });
  });
});
