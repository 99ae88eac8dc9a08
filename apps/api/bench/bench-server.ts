import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { DATA_DIR, JWT_SECRET } from './bench-data';
import { freePort } from '../src/lib/free-port';
import { API_ROOT } from '../src/paths';

let built: Promise<void> | null = null;

/**
 * Compiles the server as `npm start` does (scripts/build.mjs), once per benchmark run: what is
 * measured is the bundle staff run, not the TypeScript loader's on-the-fly output (which, among
 * other things, wraps every closure it creates in a naming call).
 */
function buildServer(): Promise<void> {
  built ??= new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(API_ROOT, 'scripts/build.mjs')], {
      cwd: API_ROOT,
      stdio: 'inherit',
    });
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`The server's build failed (${code})`)),
    );
  });
  return built;
}

/** The server as a process of its own, with limits lifted so that the load is not refused. */
export async function startServer(database: { url?: string; env?: Record<string, string> }) {
  await buildServer();
  const port = await freePort();
  const env: Record<string, string | undefined> = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    JWT_SECRET,
    RATE_LIMIT_PER_MINUTE: '1000000000',
    DEMO_DATA: 'false',
    LOG_LEVEL: 'warn',
    LOG_PRETTY: 'false',
    DATA_DIR,
    DATABASE_URL: database.url,
    ...database.env,
  };
  if (!database.url) delete env.DATABASE_URL;
  // Flags that NODE_OPTIONS does not take, for a closer look: BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/profiles".
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, join(API_ROOT, 'dist/server.js')], {
    cwd: API_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let errors = 0;
  let log = '';
  const read = (chunk: Buffer) => {
    const text = chunk.toString();
    log += text;
    for (const line of text.split('\n')) if (/"level":(50|60)/.test(line)) errors++;
  };
  child.stdout.on('data', read);
  child.stderr.on('data', read);
  const baseUrl = `http://127.0.0.1:${port}`;
  const until = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The server exited at start:\n${log}`);
    if (Date.now() > until) throw new Error(`The server did not start:\n${log}`);
    const ready = await fetch(`${baseUrl}/api/docs/json`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const stop = () =>
    new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  /**
   * The first errors the server logged (level 50 or 60), to say what the count counted: each
   * error's message first, since a long field (a list of accounts) would hide it at the end.
   */
  const errorLines = (most = 3) =>
    log
      .split('\n')
      .filter((line) => /"level":(50|60)/.test(line))
      .slice(0, most)
      .map(summarizeLogLine);
  return { baseUrl, pid: child.pid!, stop, errors: () => errors, errorLines, log: () => log };
}

/** A logged line as its message, then its error's, then the line itself. */
function summarizeLogLine(line: string): string {
  try {
    const entry = JSON.parse(line) as { msg?: unknown; err?: { type?: unknown; message?: unknown } };
    const error = entry.err ? ` (${String(entry.err.type)}: ${String(entry.err.message)})` : '';
    return `${String(entry.msg)}${error} ${line}`;
  } catch {
    return line;
  }
}
