import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../app';
import { createAccount } from '../seed/factories';
import { getTestDatabase } from '../../test/test-database';
import { postSignIn, TEST_CONFIG, testAppOptions, uniqueAddress, useTestApp } from '../../test/test-app';

const t = useTestApp();
const TOKEN = 'a-metrics-token-for-the-tests';

describe('GET /metrics', () => {
  it('answers loopback in Prometheus text: durations per route, memory, event loop lag, sign-in failures', async () => {
    await t.app.inject({ method: 'GET', url: '/api/health' });
    const account = await createAccount(t.db, { role: 'admin' });
    await postSignIn(t.app, { email: account.email, password: 'not-the-password', role: 'admin' });
    await postSignIn(t.app, { email: account.email, password: account.password, role: 'franchise' });

    const response = await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = response.body;
    expect(text).toMatch(
      /^bmet_http_request_duration_seconds_count\{method="GET",route="\/api\/health",status="200"\} [1-9]/m,
    );
    expect(text).toMatch(/^bmet_sign_in_failures_total\{reason="wrong_password"\} [1-9]/m);
    expect(text).toMatch(/^bmet_sign_in_refusals_total\{reason="wrong_tab"\} [1-9]/m);
    expect(text).toMatch(/^bmet_process_resident_memory_bytes \d+/m);
    expect(text).toMatch(/^bmet_nodejs_eventloop_lag_seconds [\d.e-]+/m);
    expect(text).toMatch(/^bmet_live_streams_open 0$/m);
    expect(text).toMatch(/^bmet_positions_accepted_total 0$/m);
  });

  it("counts the database's connections by state and the pool's size", async () => {
    const scrape = async () =>
      (await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' })).body;
    const text = await scrape();
    expect(text).toMatch(/^bmet_db_pool_size 1$/m);
    expect(text).toMatch(/^bmet_db_connections\{state="active"\} \d+$/m);
    expect(text).toMatch(/^bmet_db_connections\{state="idle"\} \d+$/m);
    if (!process.env.TEST_DATABASE_URL) return;
    // On PostgreSQL, a query in flight on another connection shows as active.
    // (Drizzle's queries run when awaited: Promise.resolve starts this one.)
    const slow = Promise.resolve(t.db.execute(sql`select pg_sleep(1)`));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await scrape()).toMatch(/^bmet_db_connections\{state="active"\} [1-9]\d*$/m);
    await slow;
  });

  it('answers at exactly /metrics, not at another spelling of it that a proxy rule would miss', async () => {
    for (const url of ['/%6detrics', '/%6D%65trics', '/metric%73', '/metrics?x=1']) {
      const response = await t.app.inject({ method: 'GET', url, remoteAddress: '127.0.0.1' });
      if (url === '/metrics?x=1') {
        expect(response.statusCode, url).toBe(200);
      } else {
        expect(response.statusCode, url).toBe(404);
        expect(response.json(), url).toMatchObject({ code: 'NOT_FOUND' });
        expect(response.body, url).not.toContain('bmet_');
      }
    }
    for (const url of ['//metrics', '/metrics/', '/Metrics']) {
      const response = await t.app.inject({ method: 'GET', url, remoteAddress: '127.0.0.1' });
      expect(response.body, url).not.toContain('bmet_');
    }
  });

  it('does not exist for another host when no token is configured', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: uniqueAddress() });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 'NOT_FOUND' });
  });

  describe('with METRICS_TOKEN', () => {
    let app: App;
    beforeAll(async () => {
      const { db } = await getTestDatabase();
      app = await buildApp({ ...testAppOptions(db), config: { ...TEST_CONFIG, metricsToken: TOKEN } });
    });
    afterAll(() => app.close());

    it('answers another host only with the token', async () => {
      const ask = (authorization?: string) =>
        app.inject({
          method: 'GET',
          url: '/metrics',
          remoteAddress: uniqueAddress(),
          headers: authorization ? { authorization } : {},
        });
      const without = await ask();
      expect(without.statusCode).toBe(401);
      expect(without.json()).toMatchObject({ code: 'UNAUTHORIZED' });
      expect((await ask(`Bearer ${TOKEN}x`)).statusCode).toBe(401);
      const granted = await ask(`Bearer ${TOKEN}`);
      expect(granted.statusCode).toBe(200);
      expect(granted.body).toContain('# TYPE bmet_http_request_duration_seconds histogram');
    });
  });
});
