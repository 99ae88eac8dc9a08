/**
 * What bench:http compares each list with: the statements the console sent PostgreSQL for it, as
 * PostgreSQL's own statement log recorded them, replayed by a minimal server (floor-server.ts).
 * They are read from the log, not from the console's code, so the floor runs whatever the console
 * really sends, plans and parameters included.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { freePort } from '../src/lib/free-port';
import { API_ROOT } from '../src/paths';

/** One statement as PostgreSQL ran it: its text and the values bound to its parameters. */
export type LoggedStatement = { text: string; parameters: (string | null)[] };

/**
 * Where this PostgreSQL writes its log: BENCH_POSTGRES_LOG, else the file its logging collector
 * writes, else where Debian's and Ubuntu's clusters write stderr. Null where it cannot be read
 * (another machine, no rights): the floor is then left out.
 */
async function logFileOf(admin: postgres.Sql): Promise<string | null> {
  const given = process.env.BENCH_POSTGRES_LOG;
  if (given) return existsSync(given) ? given : null;
  const [row] = await admin<{ file: string | null; directory: string; version: string }[]>`
    select pg_current_logfile() as file, current_setting('data_directory') as directory,
      current_setting('server_version_num') as version`;
  const candidates = [
    row?.file ? (row.file.startsWith('/') ? row.file : join(row.directory, row.file)) : null,
    `/var/log/postgresql/postgresql-${Math.floor(Number(row?.version) / 10000)}-main.log`,
  ];
  for (const candidate of candidates) {
    if (!candidate) continue;
    try {
      accessSync(candidate, constants.R_OK);
      return candidate;
    } catch {
      // not this one
    }
  }
  return null;
}

const ENTRY = /^\d{4}-\d\d-\d\d [\d:.]+ \S+ \[\d+\] \S*\s*(LOG|DETAIL|ERROR|STATEMENT|HINT|CONTEXT):\s+(.*)$/;
const EXECUTED = /^duration: [\d.]+ ms\s+(?:execute [^:]+|statement): ([\s\S]*)$/;
const PARAMETER = /\$(\d+) = (?:NULL|'((?:[^']|'')*)')/g;

/**
 * The statements a log excerpt shows executed, in order, with their parameters. With
 * log_min_duration_statement = 0, a named statement's execution is logged as
 * `duration: … ms  execute <name>: <text>` followed by `DETAIL:  parameters: $1 = '…', …`, a simple
 * query as `duration: … ms  statement: <text>`; a statement's further lines start with a tab.
 */
export function parseStatementLog(log: string): LoggedStatement[] {
  const entries: { level: string; text: string }[] = [];
  for (const line of log.split('\n')) {
    const match = ENTRY.exec(line);
    if (match) entries.push({ level: match[1]!, text: match[2]! });
    else if (line.startsWith('\t') && entries.length > 0) entries.at(-1)!.text += `\n${line.slice(1)}`;
  }
  const statements: LoggedStatement[] = [];
  for (let index = 0; index < entries.length; index++) {
    const entry = entries[index]!;
    const executed = entry.level === 'LOG' ? EXECUTED.exec(entry.text) : null;
    if (!executed) continue;
    const parameters: (string | null)[] = [];
    const detail = entries[index + 1];
    if (detail?.level === 'DETAIL' && detail.text.startsWith('parameters:')) {
      for (const [, position, value] of detail.text.matchAll(PARAMETER)) {
        parameters[Number(position) - 1] = value === undefined ? null : value.replaceAll("''", "'");
      }
    }
    statements.push({ text: executed[1]!, parameters });
  }
  return statements;
}

/**
 * What the floor leaves out: the session lookup an authenticated request makes (the floor
 * authenticates nobody), and the type catalogue a new pooled connection reads once.
 */
export const leftOut = (statement: LoggedStatement) =>
  /\bfrom\s+"?sessions"?/i.test(statement.text) || /\bpg_catalog\.pg_type\b/.test(statement.text);

/**
 * Turns statement logging on for the database of `url` while `capture` runs (new connections only:
 * start the server to capture inside it) and answers, for each request `capture` makes through
 * `request`, the statements PostgreSQL logged for it but the session lookup. Null if the log
 * cannot be read here.
 */
export async function captureStatements(
  url: string,
  capture: (request: (send: () => Promise<void>) => Promise<LoggedStatement[]>) => Promise<void>,
): Promise<string | null> {
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const file = await logFileOf(admin);
    if (!file) return null;
    const [{ database } = { database: '' }] = await admin<
      { database: string }[]
    >`select current_database() as database`;
    await admin.unsafe(`alter database "${database}" set log_min_duration_statement = 0`);
    try {
      await capture(async (send) => {
        const from = statSync(file).size;
        await send();
        // The log is written by the backends as they finish; give the last lines time to land.
        await new Promise((resolve) => setTimeout(resolve, 300));
        const added = readFileSync(file).subarray(from).toString('utf8');
        return parseStatementLog(added).filter((statement) => !leftOut(statement));
      });
    } finally {
      await admin.unsafe(`alter database "${database}" reset log_min_duration_statement`);
    }
    return file;
  } finally {
    await admin.end({ timeout: 5 });
  }
}

/** Starts floor-server.ts on the lists' statements; answers its base URL, process id and stop. */
export async function startFloor(url: string, lists: LoggedStatement[][]) {
  const port = await freePort();
  const file = join(tmpdir(), `bmet-bench-floor-${process.pid}.json`);
  writeFileSync(file, JSON.stringify(lists));
  const child = spawn(process.execPath, ['--import', 'tsx', join(API_ROOT, 'bench/floor-server.ts')], {
    cwd: API_ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      FLOOR_DATABASE_URL: url,
      FLOOR_STATEMENTS: file,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const baseUrl = `http://127.0.0.1:${port}`;
  const until = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The floor exited at start:\n${log}`);
    if (Date.now() > until) throw new Error(`The floor did not start:\n${log}`);
    if (
      await fetch(`${baseUrl}/ready`).then(
        (response) => response.ok,
        () => false,
      )
    )
      break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return { baseUrl, pid: child.pid!, stop, log: () => log };
}
