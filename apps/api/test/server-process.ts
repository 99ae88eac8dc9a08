import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from '../src/lib/free-port';
import { API_ROOT } from '../src/paths';

export type ServerProcess = {
  child: ChildProcess;
  baseUrl: string;
  /** Everything the process printed so far, both streams. */
  output: () => string;
  exited: Promise<unknown>;
};

const running: ChildProcess[] = [];

/** Kills every server this file started (for afterAll). */
export function killServerProcesses(): void {
  for (const child of running.splice(0)) child.kill('SIGKILL');
}

/**
 * Starts `src/server.ts` as `npm start` does, with this environment over the test's own (an empty
 * value unsets a variable), and waits until it answers and has said it is ready.
 */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const merged: Record<string, string | undefined> = {
    ...process.env,
    LOG_PRETTY: 'false',
    LOG_LEVEL: 'info',
    PORT: String(port),
    HOST: '127.0.0.1',
    ...env,
  };
  for (const [key, value] of Object.entries(merged)) if (value === '') delete merged[key];
  const child = spawn(process.execPath, ['--import', 'tsx', join(API_ROOT, 'src/server.ts')], {
    cwd: API_ROOT,
    env: merged,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const baseUrl = `http://127.0.0.1:${port}`;
  const until = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The server exited at start:\n${output}`);
    if (Date.now() > until) throw new Error(`The server did not start in time:\n${output}`);
    const ready = await fetch(`${baseUrl}/api/docs/json`).then(
      (response) => response.ok && output.includes('Book-My-ETaxi staff console:'),
      () => false,
    );
    if (ready) return { child, baseUrl, output: () => output, exited };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Stops a server as its supervisor would (SIGTERM) and waits for it to exit. */
export async function stopServerProcess(server: ServerProcess): Promise<void> {
  if (server.child.exitCode === null) server.child.kill('SIGTERM');
  await server.exited;
}
