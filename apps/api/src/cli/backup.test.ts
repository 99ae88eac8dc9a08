import { spawn, type ChildProcess } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../lib/free-port';
import { findEntriesOpenToOthers } from '../../test/open-entries';
import { againstPostgres } from '../../test/test-database';

const API_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PASSWORD = 'backup-test-demo-password';
const DEALER_PASSWORD = 'a-strong-dealer-passphrase';

type Server = { child: ChildProcess; baseUrl: string; output: () => string };
type Run = { code: number | null; output: string };

const folders: string[] = [];
const servers: Server[] = [];

afterAll(() => {
  for (const server of servers) server.child.kill('SIGKILL');
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function newFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'bmet-backup-'));
  folders.push(folder);
  return folder;
}

/** The environment of every process here: nothing of the caller's .env or database reaches it. */
function environment(dataDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, INIT_CWD: dataDir, ...extra };
  for (const name of ['DATABASE_URL', 'S3_BUCKET', 'JWT_SECRET', 'REDIS_URL']) delete env[name];
  return env;
}

/** The real server, on the embedded database in `dataDir`, loading the demo data when empty. */
async function startServer(dataDir: string): Promise<Server> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', join(API_ROOT, 'src/server.ts')], {
    cwd: API_ROOT,
    env: environment(dataDir, {
      PORT: String(port),
      HOST: '127.0.0.1',
      DEMO_DATA: 'true',
      DEMO_PASSWORD: PASSWORD,
      LOG_PRETTY: 'false',
      LOG_LEVEL: 'warn',
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const server = { child, baseUrl: `http://127.0.0.1:${port}`, output: () => output };
  servers.push(server);
  const until = Date.now() + 120_000;
  for (;;) {
    const status = await fetch(`${server.baseUrl}/api/ready`).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return server;
    if (child.exitCode !== null || Date.now() > until)
      throw new Error(`The server did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function stopServer(server: Server): Promise<void> {
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  await exited;
}

/** Runs `npm run backup` or `npm run restore` as the operator would, and collects what it prints. */
function runCli(script: 'backup' | 'restore', args: string[], dataDir: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(API_ROOT, `src/cli/${script}.ts`), ...args],
      {
        cwd: API_ROOT,
        env: environment(dataDir),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

async function signIn(server: Server, email: string, role: string): Promise<string> {
  const response = await fetch(`${server.baseUrl}/api/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD, role }),
  });
  expect(response.status, `sign-in of ${email}`).toBe(200);
  return ((await response.json()) as { data: { idToken: string } }).data.idToken;
}

async function createDealer(server: Server, token: string, email: string): Promise<void> {
  const response = await fetch(`${server.baseUrl}/api/city_dealer/create`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: `Dealer ${email}`, email, state: 'maharashtra', password: DEALER_PASSWORD }),
  });
  expect(response.status, await response.clone().text()).toBe(201);
}

/** The emails of the city dealers the server lists (the test's own, by their domain), page by page. */
async function dealerEmails(server: Server, token: string): Promise<string[]> {
  const emails: string[] = [];
  let cursor: string | null = null;
  do {
    const response = await fetch(`${server.baseUrl}/api/city_dealer/getcitydealers`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ q: 'backup.example.in', limit: 100, ...(cursor ? { cursor } : {}) }),
    });
    expect(response.status).toBe(200);
    const page = (await response.json()) as {
      data: Record<string, { email: string }>;
      nextCursor: string | null;
    };
    emails.push(...Object.values(page.data).map((dealer) => dealer.email));
    cursor = page.nextCursor;
  } while (cursor);
  return emails;
}

/** A demo driver's document that has an image, and its bytes as the server serves them. */
async function documentImage(server: Server, token: string, driverId?: string) {
  const headers = { authorization: `Bearer ${token}` };
  const id =
    driverId ??
    Object.keys(
      ((await (await fetch(`${server.baseUrl}/api/drivers?limit=1`, { headers })).json()) as { data: object })
        .data,
    )[0]!;
  const documents = (await (
    await fetch(`${server.baseUrl}/api/drivers/driver/${id}/documents`, { headers })
  ).json()) as {
    data: { key: string; hasImage: boolean }[];
  };
  const key = documents.data.find((document) => document.hasImage)!.key;
  const image = await fetch(`${server.baseUrl}/api/drivers/driver/${id}/documents/${key}/image`, { headers });
  expect(image.status).toBe(200);
  return {
    driverId: id,
    contentType: image.headers.get('content-type'),
    body: Buffer.from(await image.arrayBuffer()),
  };
}

// A backup copies the embedded database's folder: see `againstPostgres`.
describe.skipIf(againstPostgres)('npm run backup and npm run restore', () => {
  let backupFile = '';
  let sourceDir = '';

  it('back up a running server while it writes, and restore what a user sees', async () => {
    const work = newFolder();
    sourceDir = join(work, 'source');
    const source = await startServer(sourceDir);
    // The database, the images, the token secret: no other local user may read or change them.
    expect(findEntriesOpenToOthers(sourceDir)).toEqual([]);
    const admin = await signIn(source, 'admin@bookmyetaxi.test', 'admin');
    // The backup route exists only for the key of the data folder's control file, and is not documented.
    const control = JSON.parse(readFileSync(join(sourceDir, 'control.json'), 'utf8')) as { key: string };
    for (const authorization of [undefined, 'Bearer wrong-key', `Bearer ${admin}`]) {
      const response = await fetch(`${source.baseUrl}/api/backup`, {
        headers: authorization ? { authorization } : {},
      });
      expect(response.status).toBe(404);
    }
    expect(control.key.length).toBeGreaterThan(20);
    expect(await (await fetch(`${source.baseUrl}/api/docs/json`)).text()).not.toContain('/api/backup');
    // A reader that goes away in the middle leaves the server serving.
    const abandoned = new AbortController();
    const partial = await fetch(`${source.baseUrl}/api/backup`, {
      headers: { authorization: `Bearer ${control.key}` },
      signal: abandoned.signal,
    });
    expect(partial.status).toBe(200);
    await partial.body!.getReader().read();
    abandoned.abort();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await fetch(`${source.baseUrl}/api/ready`)).status).toBe(200);
    await createDealer(source, admin, 'before@backup.example.in');
    const image = await documentImage(source, admin);

    // Requests keep writing while the backup is taken.
    const created: string[] = [];
    let writing = true;
    const writer = (async () => {
      for (let n = 0; writing && n < 500; n++) {
        const email = `during-${n}@backup.example.in`;
        await createDealer(source, admin, email);
        created.push(email);
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 200));
    backupFile = join(work, 'console.tar.gz');
    const backup = await runCli('backup', ['--out', backupFile], sourceDir);
    const writtenByThen = created.length;
    writing = false;
    await writer;
    expect(backup.code, backup.output).toBe(0);
    expect(backup.output).toContain('through the running server');
    expect(backup.output).toMatch(/\d+ document images/);
    expect(writtenByThen).toBeGreaterThan(0);
    expect(statSync(backupFile).mode & 0o777).toBe(0o600);

    // Restored into a folder that does not exist yet, then served by a new server.
    const target = join(work, 'restored');
    const restore = await runCli('restore', [backupFile], target);
    expect(restore.code, restore.output).toBe(0);
    expect(restore.output).toMatch(/accounts.*drivers.*trips/);
    expect(restore.output).toContain('everyone signs in again');
    expect(findEntriesOpenToOthers(target)).toEqual([]);
    // Not over the folder of a running server, even with --force.
    const busy = await runCli('restore', [backupFile, '--force'], sourceDir);
    expect(busy.code).toBe(1);
    expect(busy.output).toContain('is in use by another process');
    await stopServer(source);
    expect(existsSync(join(sourceDir, 'control.json'))).toBe(false);

    const restored = await startServer(target);
    const restoredAdmin = await signIn(restored, 'admin@bookmyetaxi.test', 'admin');
    await signIn(restored, 'dealer@bookmyetaxi.test', 'city_dealer');
    await signIn(restored, 'franchise@bookmyetaxi.test', 'franchise');
    const emails = await dealerEmails(restored, restoredAdmin);
    expect(emails).toContain('before@backup.example.in');
    // Whatever was written during the backup is there whole or not at all, in the order written.
    const during = emails.filter((email) => email.startsWith('during-'));
    expect(during.length).toBeLessThanOrEqual(created.length);
    expect(new Set(during)).toEqual(new Set(created.slice(0, during.length)));
    const restoredImage = await documentImage(restored, restoredAdmin, image.driverId);
    expect(restoredImage.contentType).toBe(image.contentType);
    expect(restoredImage.body.equals(image.body)).toBe(true);
    await stopServer(restored);
  }, 240_000);

  it('refuses a folder that is not empty and a damaged file, and changes nothing', async () => {
    expect(backupFile, 'the first test wrote a backup').not.toBe('');
    const work = newFolder();

    const occupied = join(work, 'occupied');
    mkdirSync(occupied);
    writeFileSync(join(occupied, 'notes.txt'), 'keep me');
    const refused = await runCli('restore', [backupFile], occupied);
    expect(refused.code).toBe(1);
    expect(refused.output).toContain('is not empty');
    expect(refused.output).toContain('--force');
    expect(readdirSync(occupied)).toEqual(['notes.txt']);
    expect(readFileSync(join(occupied, 'notes.txt'), 'utf8')).toBe('keep me');

    // Cut short, bytes changed in the middle, not a backup at all: a message each, no stack trace.
    const whole = readFileSync(backupFile);
    const truncated = join(work, 'truncated.tar.gz');
    writeFileSync(truncated, whole.subarray(0, Math.floor(whole.length / 2)));
    const flipped = Buffer.from(whole);
    for (let i = 0; i < 64; i++) flipped[Math.floor(flipped.length / 3) + i * 101]! ^= 0xff;
    const damaged = join(work, 'damaged.tar.gz');
    writeFileSync(damaged, flipped);
    const foreign = join(work, 'notes.tar.gz');
    copyFileSync(join(API_ROOT, 'package.json'), foreign);
    const expected: [string, RegExp][] = [
      [truncated, /is incomplete/],
      [damaged, /is damaged|is incomplete/],
      [foreign, /is not a console backup/],
      [join(work, 'missing.tar.gz'), /does not exist/],
    ];
    for (const [file, message] of expected) {
      const target = join(work, 'target');
      const run = await runCli('restore', [file], target);
      expect(run.code, run.output).toBe(1);
      expect(run.output).toMatch(message);
      expect(run.output).not.toMatch(/\n\s+at /);
      expect(existsSync(target), `${file} left ${target} behind`).toBe(false);
    }
  }, 60_000);

  it('back up without a server, past the control file a killed one left, and restore over a folder with --force', async () => {
    expect(sourceDir, 'the first test made a data folder').not.toBe('');
    // A server killed outright leaves its control file: nothing answers at its address any more.
    writeFileSync(
      join(sourceDir, 'control.json'),
      JSON.stringify({ url: `http://127.0.0.1:${await freePort()}`, key: 'left-by-a-killed-server' }),
    );
    const file = join(newFolder(), 'offline.tar.gz');
    // What a backup killed midway left: its mode is not the new backup's.
    writeFileSync(`${file}.partial`, 'cut short');
    chmodSync(`${file}.partial`, 0o644);
    const backup = await runCli('backup', ['--out', file], sourceDir);
    expect(backup.code, backup.output).toBe(0);
    expect(backup.output).toContain('no server running');
    expect(statSync(file).mode & 0o777).toBe(0o600);

    // A data folder copied with a loose umask: the restore makes it private again, and says so.
    for (const path of [sourceDir, join(sourceDir, 'objects'), join(sourceDir, 'pglite')])
      chmodSync(path, 0o755);
    chmodSync(join(sourceDir, 'jwt-secret'), 0o644);
    const restore = await runCli('restore', [file, '--force'], sourceDir);
    expect(restore.code, restore.output).toBe(0);
    expect(restore.output).toContain(
      `Warning: the data folder ${sourceDir} was open to other local users: 4 entries`,
    );
    expect(findEntriesOpenToOthers(sourceDir)).toEqual([]);
    const aside = readdirSync(sourceDir).find((name) => name.startsWith('before-restore-'));
    expect(aside, restore.output).toBeDefined();
    expect(restore.output).toContain(join(sourceDir, aside!));
    expect(readdirSync(join(sourceDir, aside!)).sort()).toEqual([
      'control.json',
      'jwt-secret',
      'objects',
      'pglite',
    ]);
    expect(readdirSync(sourceDir).sort()).toEqual([aside, 'objects', 'pglite']);
  }, 60_000);
});
