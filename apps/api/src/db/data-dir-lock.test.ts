import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirBusyError, LOCK_FILE, lockDataDir } from './data-dir-lock';
import { againstPostgres } from '../../test/test-database';

const API_ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
const children: ChildProcess[] = [];
const folders: string[] = [];

function tempDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'bmet-lock-'));
  folders.push(dir);
  return dir;
}

afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

type Run = { child: ChildProcess; output: () => string; exited: Promise<number | null> };

/** Runs one of the API's entry points as its own process, as `npm start` and the tools do. */
function runScript(script: string, env: Record<string, string>, args: string[] = []): Run {
  const child = spawn(process.execPath, ['--import', 'tsx', join(API_ROOT, script), ...args], {
    cwd: API_ROOT,
    env: { ...process.env, LOG_PRETTY: 'false', LOG_LEVEL: 'info', DEMO_DATA: 'false', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function waitFor(condition: () => boolean, what: string, ms = 60_000): Promise<void> {
  const until = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function startServer(dataDir: string): Run {
  return runScript('src/server.ts', { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1' });
}

describe('one owner per data folder', () => {
  it('refuses a second lock in the same process, and lets it go on release', () => {
    const dir = tempDataDir();
    const release = lockDataDir(dir);
    expect(() => lockDataDir(dir)).toThrow(DataDirBusyError);
    release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    lockDataDir(dir)();
  });

  it('takes over a lock whose process is gone, and one a killed process left half written', () => {
    const dir = tempDataDir();
    const lockPath = join(dir, LOCK_FILE);
    // A process id above the kernel's maximum cannot be running.
    const stale = { pid: 2 ** 22 + 7, hostname: hostname(), command: 'gone', startedAt: '', nonce: 'n' };
    writeFileSync(lockPath, JSON.stringify(stale));
    lockDataDir(dir)();

    writeFileSync(lockPath, '');
    const longAgo = new Date(Date.now() - 60_000);
    utimesSync(lockPath, longAgo, longAgo);
    lockDataDir(dir)();
  });

  it.runIf(process.platform === 'linux')(
    'takes over the lock of a process killed a moment ago that its parent has not reaped yet (a zombie)',
    async () => {
      const dir = tempDataDir();
      const lockModule = pathToFileURL(join(API_ROOT, 'src/db/data-dir-lock.ts')).href;
      const holder = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          '--input-type=module',
          '-e',
          `const { lockDataDir } = await import(${JSON.stringify(lockModule)});
           lockDataDir(process.env.LOCKED_DIR); console.log('locked'); setInterval(() => {}, 60_000);`,
        ],
        { cwd: API_ROOT, env: { ...process.env, LOCKED_DIR: dir }, stdio: ['ignore', 'pipe', 'inherit'] },
      );
      children.push(holder);
      let output = '';
      holder.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      await waitFor(() => output.includes('locked'), 'the holder to take the lock');
      expect(() => lockDataDir(dir)).toThrow(DataDirBusyError);

      holder.kill('SIGKILL');
      // No await from here on: Node reaps a child in its event loop, so until this test yields,
      // the killed holder stays a zombie, as when a supervisor is slow to reap its child.
      const stateOf = () => {
        const stat = readFileSync(`/proc/${holder.pid}/stat`, 'utf8');
        return stat[stat.lastIndexOf(')') + 2];
      };
      const until = Date.now() + 10_000;
      while (stateOf() !== 'Z') {
        if (Date.now() > until) throw new Error(`the killed holder is ${stateOf()}, not a zombie`);
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
      }
      const release = lockDataDir(dir);
      expect(stateOf()).toBe('Z');
      release();
    },
  );

  // Servers on the embedded database's folder, whichever pass: see `againstPostgres`.
  it.skipIf(againstPostgres)(
    'a second server on the same folder refuses to start and names the first; a killed server leaves no lock behind',
    async () => {
      const dir = tempDataDir();
      const first = startServer(dir);
      await waitFor(() => first.output().includes('Book-My-ETaxi staff console:'), 'the first server');

      const second = startServer(dir);
      expect(await second.exited).toBe(1);
      expect(second.output()).toContain(`in use by another process: pid ${first.child.pid}`);
      expect(second.output()).toContain('Stop that process first');

      // The command-line tools refuse in the same words instead of writing where nobody reads.
      const admin = runScript(
        'src/cli/create-admin.ts',
        { DATA_DIR: dir, ADMIN_PASSWORD: 'a-long-passphrase-1' },
        ['--email', 'late.admin@bookmyetaxi.test'],
      );
      expect(await admin.exited).toBe(1);
      expect(admin.output()).toContain(`in use by another process: pid ${first.child.pid}`);
      expect(admin.output()).not.toContain('created');

      first.child.kill('SIGKILL');
      await first.exited;
      expect(existsSync(join(dir, LOCK_FILE))).toBe(true);

      const third = startServer(dir);
      await waitFor(() => third.output().includes('Book-My-ETaxi staff console:'), 'a server after kill -9');
      third.child.kill('SIGTERM');
      expect(await third.exited).toBe(0);
      expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    },
    120_000,
  );
});
