import { randomInt, randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { Role } from '@bmet/shared/constants';
import type { SignInResponse } from '@bmet/shared/schemas/auth';
import { buildApp, type App, type AppOptions } from '../src/app';
import type { Db } from '../src/db/client';
import { createInProcessLocationBus } from '../src/infra/location-bus';
import { createLocalObjectStore } from '../src/infra/object-store';
import { createAccount, type AccountRow } from '../src/seed/factories';
import { openSession } from '../src/modules/auth/start-session';
import { getTestDatabase } from './test-database';

export const TEST_JWT_SECRET = 'test-only-jwt-secret-0123456789abcdefghi';

export const TEST_CONFIG: AppOptions['config'] = {
  jwtSecret: TEST_JWT_SECRET,
  tokenTtlHours: 3,
  // A folder that does not exist: the API tests run without a built web app.
  webDist: join(tmpdir(), `bmet-no-web-dist-${randomUUID()}`),
  trustProxy: false,
  mapTileUrl: 'http://127.0.0.1:9/tiles/{z}/{x}/{y}.png',
  mapAttribution: 'test tiles',
};

export type TestApp = { app: App; db: Db; close: () => Promise<void> };

/** Options of a test app on a database: a temporary object store and an in-process location bus. */
export function testAppOptions(db: Db): AppOptions {
  return {
    config: TEST_CONFIG,
    db,
    objectStore: createLocalObjectStore(join(tmpdir(), `bmet-test-objects-${randomUUID()}`)),
    locationBus: createInProcessLocationBus(),
  };
}

/** A built app (call it with app.inject) on this worker's database. */
export async function createTestApp(): Promise<TestApp> {
  const { db } = await getTestDatabase();
  const app = await buildApp(testAppOptions(db));
  await app.ready();
  return { app, db, close: () => app.close() };
}

/**
 * Builds an app before the file's tests and closes it after them; the fields are filled once
 * beforeAll has run. Each file gets its own app (its own in-memory rate limits) on the shared
 * worker database.
 */
export function useTestApp(): TestApp {
  const context = {} as TestApp;
  beforeAll(async () => {
    Object.assign(context, await createTestApp());
  });
  afterAll(async () => {
    await context.close?.();
  });
  return context;
}

export function authHeader(token: string): { authorization: string } {
  return { authorization: `Bearer ${token}` };
}

/**
 * A client address no other test uses. Sign-in failures are counted per address in the shared
 * database, so tests that fail sign-ins from the default address would lock each other out.
 */
export function uniqueAddress(): string {
  return `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
}

/** Posts a sign-in from a fresh client address unless one is given. */
export function postSignIn(
  app: App,
  body: unknown,
  options: { remoteAddress?: string; headers?: Record<string, string> } = {},
) {
  return app.inject({
    method: 'POST',
    url: '/api/auth/sign-in',
    payload: body as Record<string, unknown>,
    remoteAddress: options.remoteAddress ?? uniqueAddress(),
    headers: options.headers,
  });
}

export type SignedIn = {
  account: AccountRow & { password: string };
  token: string;
  expirationTime: number;
};

/** Creates an account of a role and signs it in through the API, on its own tab. */
export async function signInAs(
  t: TestApp,
  role: Role,
  overrides: Omit<Parameters<typeof createAccount>[1], 'role'> = {},
): Promise<SignedIn> {
  const account = await createAccount(t.db, { ...overrides, role });
  const response = await postSignIn(t.app, { email: account.email, password: account.password, role });
  if (response.statusCode !== 200) {
    throw new Error(`Sign-in as ${role} answered ${response.statusCode}: ${response.body}`);
  }
  const { data } = response.json<SignInResponse>();
  return { account, token: data.idToken, expirationTime: data.expirationTime };
}

/**
 * Issues a token the way sign-in does, without the password check: a session row and a signed
 * JWT. Lets a test choose the expiry or the secret, and mint many tokens quickly (no argon2).
 */
export async function issueToken(
  db: Db,
  account: Pick<AccountRow, 'id' | 'role' | 'email' | 'displayName'>,
  options: { expiresAt?: Date; sessionExpiresAt?: Date; secret?: string } = {},
): Promise<{ token: string; sessionId: string }> {
  const expiresAt = options.expiresAt ?? new Date(Date.now() + TEST_CONFIG.tokenTtlHours * 3_600_000);
  const { idToken, sessionId } = await openSession(db, account, {
    jwtSecret: options.secret ?? TEST_JWT_SECRET,
    expiresAt,
    sessionExpiresAt: options.sessionExpiresAt,
  });
  return { token: idToken, sessionId };
}

/** The claims of a JWT, read without verifying it. */
export function decodeClaims(token: string): Record<string, unknown> {
  const payload = token.split('.')[1] ?? '';
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
}
