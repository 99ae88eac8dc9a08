/**
 * How fast the server starts and how much memory it holds idle: the compiled server (npm start,
 * dist/server.js) against the same sources run through tsx (the development loader), on one
 * embedded database that already holds the demo data, so that only the start itself is measured.
 *
 *   npm run bench:start          (builds dist/ first; BENCH_START_RUNS=5 by default)
 *   BENCH_DATABASE_URL=postgres://.../bench npm run bench:start     the same on PostgreSQL
 *
 * Writes bench/results/start-pglite.json or start-postgres.json. It fails on nothing.
 */
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../src/lib/free-port';
import { API_ROOT } from '../src/paths';
import { writeResults } from './results';

const RUNS = Number(process.env.BENCH_START_RUNS ?? 5);
const DATABASE_URL = process.env.BENCH_DATABASE_URL;
const IDLE_MS = 10_000;

const WAYS = {
  compiled: ['dist/server.js'],
  tsx: ['--import', 'tsx', 'src/server.ts'],
} as const;

/** Resident memory of a process, in MB, as the kernel counts it. */
function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('VmRSS:'));
  return Math.round(Number(line?.split(/\s+/)[1] ?? 0) / 1024);
}

/** Starts one server, times it until /api/ready answers 200, lets it idle, reads its memory, stops it. */
async function once(args: readonly string[], dataDir: string) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [...args], {
    cwd: API_ROOT,
    stdio: 'ignore',
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      LOG_PRETTY: 'false',
      ...(DATABASE_URL ? { DATABASE_URL, JWT_SECRET: 'a-benchmark-secret-'.repeat(3) } : {}),
    },
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
      const ready = await fetch(`http://127.0.0.1:${port}/api/ready`).then(
        (response) => response.ok,
        () => false,
      );
      if (ready) break;
      await sleep(10);
    }
    const startMs = Math.round(performance.now() - started);
    await sleep(IDLE_MS);
    return { startMs, idleRssMb: rssMb(child.pid!) };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main() {
  const dataDir = await mkdtemp(join(tmpdir(), 'bmet-bench-start-'));
  try {
    // The first start loads the demo data; it is not measured.
    await once(WAYS.compiled, dataDir);
    const figures: Record<string, { startMs: number; idleRssMb: number }> = {};
    for (const [way, args] of Object.entries(WAYS)) {
      const runs = [];
      for (let i = 0; i < RUNS; i++) runs.push(await once(args, dataDir));
      figures[way] = {
        startMs: median(runs.map((run) => run.startMs)),
        idleRssMb: median(runs.map((run) => run.idleRssMb)),
      };
      console.log(
        `${way.padEnd(9)} start to ready ${figures[way].startMs} ms, idle memory ${figures[way].idleRssMb} MB ` +
          `(median of ${RUNS})`,
      );
    }
    const database = DATABASE_URL ? 'postgres' : 'pglite';
    writeResults(`start-${database}`, { database, runs: RUNS, idleSeconds: IDLE_MS / 1000, ...figures });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
