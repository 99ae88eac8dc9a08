import { randomUUID } from 'node:crypto';
import {
  closeSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

/** The file that names the process owning a data folder. */
export const LOCK_FILE = 'data-dir.lock';

type Owner = {
  pid: number;
  hostname: string;
  command: string;
  startedAt: string;
  /** Identifies this holding of the lock, so that a process never removes another's lock. */
  nonce: string;
  /** Linux: the boot and the process start time, so that a reused process id is not taken for the owner. */
  bootId?: string;
  processStart?: string;
};

export class DataDirBusyError extends Error {}

// Paths locked by this process: a second open in the same process must be refused too.
const heldHere = new Set<string>();

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** The fields of /proc/PID/stat from the third on (the name before them may hold spaces). */
function statFieldsOf(pid: number): string[] | undefined {
  const stat = readText(`/proc/${pid}/stat`);
  if (!stat) return undefined;
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** Field 22 of /proc/PID/stat: when the process started, in clock ticks since boot. */
function processStartOf(pid: number): string | undefined {
  return statFieldsOf(pid)?.[19];
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  // A process killed but not yet reaped by its parent (a zombie, Z, or X while being reaped) still
  // answers signal 0, yet holds nothing: a restart right after kill -9 would be refused.
  const state = statFieldsOf(pid)?.[0];
  return state !== 'Z' && state !== 'X';
}

/** Whether the process a lock file names still runs (the lock left by a kill -9 is stale). */
function ownerIsAlive(owner: Owner): boolean {
  if (owner.hostname !== hostname()) return true; // another machine's process: cannot tell, assume alive
  const bootId = readText('/proc/sys/kernel/random/boot_id');
  if (owner.bootId && bootId && owner.bootId !== bootId) return false; // the machine restarted since
  if (owner.pid === process.pid) return false; // not held here (checked before), so a reused id
  if (!isRunning(owner.pid)) return false;
  const start = processStartOf(owner.pid);
  return !(owner.processStart && start && owner.processStart !== start);
}

function describe(owner: Owner, lockPath: string, dataDir: string): string {
  const where = owner.hostname === hostname() ? '' : ` on ${owner.hostname}`;
  return (
    `The data folder ${dataDir} is in use by another process: pid ${owner.pid}${where} ` +
    `(${owner.command}), started ${owner.startedAt}.\n` +
    'Only one process may open the embedded database at a time, or the writes of one are lost. ' +
    'Stop that process first (the console server holds the folder while it runs), or point ' +
    `DATA_DIR elsewhere. If that process is gone for sure, delete ${lockPath}.`
  );
}

function parseOwner(text: string | undefined): Owner | null {
  if (!text) return null;
  try {
    const owner = JSON.parse(text) as Owner;
    return Number.isInteger(owner.pid) && typeof owner.nonce === 'string' ? owner : null;
  } catch {
    return null;
  }
}

/** Older than a few seconds: no process takes that long between creating and writing it. */
function isOld(path: string): boolean {
  try {
    return Date.now() - statSync(path).mtimeMs > 5000;
  } catch {
    return false;
  }
}

const sleepSync = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Makes this process the only owner of a data folder, or throws DataDirBusyError naming the owner.
 * The lock file is created exclusively; one left by a process that died (kill -9, a crash, a
 * reboot) is recognised and taken over. Answers the function that releases it.
 */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const lockPath = join(dataDir, LOCK_FILE);
  if (heldHere.has(lockPath)) {
    throw new DataDirBusyError(
      `The data folder ${dataDir} is already open in this process; open it once and share it.`,
    );
  }
  const bootId = readText('/proc/sys/kernel/random/boot_id');
  const me: Owner = {
    pid: process.pid,
    hostname: hostname(),
    command: process.argv.slice(1).join(' ').slice(0, 300),
    startedAt: new Date().toISOString(),
    nonce: randomUUID(),
    ...(bootId ? { bootId } : {}),
    ...(processStartOf(process.pid) ? { processStart: processStartOf(process.pid) } : {}),
  };

  for (let attempt = 0; attempt < 20; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx', 0o600);
      try {
        writeSync(fd, JSON.stringify(me));
      } finally {
        closeSync(fd);
      }
      heldHere.add(lockPath);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        heldHere.delete(lockPath);
        process.off('exit', release);
        // Only our own lock is removed, never one another process took over meanwhile.
        if (parseOwner(readText(lockPath))?.nonce === me.nonce) {
          try {
            unlinkSync(lockPath);
          } catch {
            // already gone
          }
        }
      };
      process.on('exit', release);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }

    const text = readText(lockPath);
    const owner = parseOwner(text);
    if (text === undefined) continue; // removed meanwhile: try again
    if (!owner && !isOld(lockPath)) {
      // Another process is between creating the file and writing it; give it a moment.
      sleepSync(100);
      continue;
    }
    // An unreadable file that old was left by a process killed while writing it: stale too.
    if (owner && ownerIsAlive(owner)) throw new DataDirBusyError(describe(owner, lockPath, dataDir));

    // A stale lock. Move it aside, then make sure it is the one judged stale: when two processes
    // take over at once, the later one may have moved the fresh lock of the first.
    const aside = `${lockPath}.${me.nonce}`;
    try {
      renameSync(lockPath, aside);
    } catch {
      continue; // someone else moved it first
    }
    const moved = readText(aside);
    if (moved !== text) {
      try {
        linkSync(aside, lockPath); // put the live lock back (fails if a third took the place)
      } catch {
        // the place is taken again: the loop reads who holds it
      }
    }
    try {
      unlinkSync(aside);
    } catch {
      // already gone
    }
  }
  throw new DataDirBusyError(`Could not take the lock ${lockPath}; another process keeps changing it.`);
}
