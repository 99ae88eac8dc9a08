import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  killServerProcesses,
  startServerProcess,
  stopServerProcess,
  type ServerProcess,
} from '../test/server-process';
import { againstPostgres } from '../test/test-database';

/**
 * A production server never holds an account anyone can sign in to with the published demo
 * password: it loads no demo data, disables demo accounts a database brought from a demo run, and
 * says how to create the first admin.
 */

const DEMO_PASSWORD = 'etaxi-demo-2026';
const folders: string[] = [];
afterAll(() => {
  killServerProcesses();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function newDataDir(): string {
  const folder = mkdtempSync(join(tmpdir(), 'bmet-production-'));
  folders.push(folder);
  return folder;
}

// The embedded database whatever the shell points at, and the published default password.
const embedded = { DATABASE_URL: '', JWT_SECRET: '', DEMO_DATA: '', DEMO_PASSWORD: '' };

function signInAsDemoAdmin(server: ServerProcess): Promise<Response> {
  return fetch(`${server.baseUrl}/api/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@bookmyetaxi.test', password: DEMO_PASSWORD, role: 'admin' }),
  });
}

// On the embedded database whichever pass: see `againstPostgres`.
describe.skipIf(againstPostgres)('a production server', () => {
  it('on an empty data folder creates no demo account and says how to create the first admin', async () => {
    const server = await startServerProcess({ ...embedded, NODE_ENV: 'production', DATA_DIR: newDataDir() });
    const signIn = await signInAsDemoAdmin(server);
    expect(signIn.status).toBe(401);
    expect(server.output()).toContain('npm run create-admin');
    expect(server.output()).not.toContain('Demo accounts');
    await stopServerProcess(server);
  }, 120_000);

  it('disables the demo accounts of a folder seeded by a demo run', async () => {
    const dataDir = newDataDir();
    const demo = await startServerProcess({ ...embedded, NODE_ENV: 'development', DATA_DIR: dataDir });
    expect((await signInAsDemoAdmin(demo)).status).toBe(200);
    await stopServerProcess(demo);

    const server = await startServerProcess({ ...embedded, NODE_ENV: 'production', DATA_DIR: dataDir });
    const signIn = await signInAsDemoAdmin(server);
    expect(signIn.status).not.toBe(200);
    expect(await signIn.text()).not.toContain('idToken');
    expect(server.output()).toMatch(/\d+ demo accounts were disabled/);
    // No admin is left who can sign in: the log says how to create one.
    expect(server.output()).toContain('npm run create-admin');
    await stopServerProcess(server);
  }, 180_000);

  it('refuses to start when asked for demo data', async () => {
    const server = startServerProcess({
      ...embedded,
      NODE_ENV: 'production',
      DEMO_DATA: 'true',
      DATA_DIR: newDataDir(),
    });
    await expect(server).rejects.toThrow(/DEMO_DATA: the demo accounts have a published password/);
  }, 60_000);
});
