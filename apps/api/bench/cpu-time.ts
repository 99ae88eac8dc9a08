import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU time spent by processes, read from /proc (Linux only; elsewhere every reading is null). A
 * benchmark reads it before and after a load to tell what one request cost the server and the
 * database in CPU, which moves far less with the machine's noise than requests per second do.
 */
const TICKS_PER_SECOND = 100; // USER_HZ, 100 on every Linux Node supports

function ticksOf(pid: number): number {
  try {
    // The command name (field 2) is in parentheses and may hold spaces: count fields after it.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of the whole line, 12 and 13 after the name.
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0; // The process ended between listing and reading.
  }
}

function commandOf(pid: string): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
}

/**
 * Every PostgreSQL process of this machine (its backends, writers and checkpointer): run nothing
 * else against it while measuring. A process that ends between two readings takes its CPU with
 * it, and one that starts and ends between them (a parallel query's worker) is never counted; the
 * server's pool keeps its connections, so the lists' figures hold their backends' CPU.
 */
export function postgresPids(): number[] {
  try {
    return readdirSync('/proc')
      .filter((entry) => /^\d+$/.test(entry) && commandOf(entry) === 'postgres')
      .map(Number);
  } catch {
    return [];
  }
}

export type CpuReading = { server: number; database: number | null } | null;

/**
 * Seconds of CPU used so far by the server process (all its threads, the embedded database's
 * included) and by PostgreSQL (null without it).
 */
export function readCpu(serverPid: number, withPostgres: boolean): CpuReading {
  try {
    readdirSync('/proc');
  } catch {
    return null;
  }
  const database = withPostgres
    ? postgresPids().reduce((sum, pid) => sum + ticksOf(pid), 0) / TICKS_PER_SECOND
    : null;
  return { server: ticksOf(serverPid) / TICKS_PER_SECOND, database };
}

/** Milliseconds of CPU per request between two readings. */
export function cpuPerRequest(before: CpuReading, after: CpuReading, requests: number) {
  if (!before || !after || requests === 0) return { serverMs: null, databaseMs: null };
  const perRequest = (seconds: number) => Number(((seconds * 1000) / requests).toFixed(2));
  return {
    serverMs: perRequest(after.server - before.server),
    databaseMs:
      after.database === null || before.database === null
        ? null
        : perRequest(after.database - before.database),
  };
}
