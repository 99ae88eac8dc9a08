import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { authHeader, signInAs, useTestApp } from '../../../test/test-app';

/**
 * Servers remember the sessions they found active for a moment (lib/sessions.ts). Whatever ends or
 * changes a session must still show on the next request through this server, and within 0.1 s
 * when made elsewhere (another instance, a command-line tool: here, the database changed directly).
 */

const t = useTestApp();
const ELSEWHERE_MS = 100;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const me = (token: string) =>
  t.app.inject({ method: 'GET', url: '/api/auth/me', headers: authHeader(token) });

/** Uses the session a few times, so that the server remembers it, and checks it works. */
async function inUse(token: string) {
  for (let i = 0; i < 3; i++) expect((await me(token)).statusCode).toBe(200);
}

describe('remembered sessions', () => {
  it('end on the next request when signed out through this server', async () => {
    const { token } = await signInAs(t, 'admin');
    await inUse(token);
    const signOut = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-out',
      headers: authHeader(token),
    });
    expect(signOut.statusCode).toBe(204);
    expect((await me(token)).statusCode).toBe(401);
  });

  it('end within 0.1 s of a revocation made elsewhere', async () => {
    const { token, account } = await signInAs(t, 'city_dealer');
    await inUse(token);
    await t.db.execute(sql`update sessions set revoked_at = now() where account_id = ${account.id}`);
    await pause(ELSEWHERE_MS);
    const refused = await me(token);
    expect(refused.statusCode).toBe(401);
  });

  it('end within 0.1 s of their account being disabled elsewhere', async () => {
    const { token, account } = await signInAs(t, 'franchise');
    await inUse(token);
    await t.db.execute(sql`update accounts set disabled = true where id = ${account.id}`);
    await pause(ELSEWHERE_MS);
    expect((await me(token)).statusCode).toBe(401);
  });

  it('show a new name and language within 0.1 s of the change made elsewhere', async () => {
    const { token, account } = await signInAs(t, 'admin', { displayName: 'Asha Before' });
    await inUse(token);
    expect((await me(token)).json().data.displayName).toBe('Asha Before');
    await t.db.execute(
      sql`update accounts set display_name = 'Asha After', language = 'hi' where id = ${account.id}`,
    );
    await pause(ELSEWHERE_MS);
    const after = (await me(token)).json().data;
    expect(after.displayName).toBe('Asha After');
    expect(after.language).toBe('hi');
  });

  it('show a change made through this server on the next request', async () => {
    const { token } = await signInAs(t, 'admin', { displayName: 'Ravi Before' });
    await inUse(token);
    const renamed = await t.app.inject({
      method: 'PATCH',
      url: '/api/auth/me/name',
      headers: authHeader(token),
      payload: { displayName: 'Ravi After' },
    });
    expect(renamed.statusCode).toBe(200);
    expect((await me(token)).json().data.displayName).toBe('Ravi After');
  });
});
