/**
 * The embedded database's own thread: PGlite (PostgreSQL compiled to WebAssembly) runs its queries
 * here, so that the server's thread parses requests, checks and compresses answers meanwhile.
 * pglite-thread.ts is the other side and holds the messages' types. Every message is handled as it
 * comes; PGlite itself takes turns between queries and transactions, as it did in the server's
 * thread.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { PGlite, type QueryOptions, type Transaction } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { Call, Reply, ThreadError, ThreadStart } from './pglite-thread';

if (!parentPort) throw new Error('pglite-worker runs as a worker thread of the server (db/pglite-thread.ts)');
const port: MessagePort = parentPort;

/** A transaction in progress: its PGlite handle and how the server's side ends it. */
type Open = { tx: Transaction; end: (commit: boolean) => void; done: Promise<unknown> };

const transactions = new Map<number, Open>();
const listeners = new Map<number, () => Promise<void>>();
let nextId = 1;

/** Thrown inside a transaction the server's side rolls back: PGlite then sends ROLLBACK. */
const ROLL_BACK = Symbol('roll back');

const keep = (value: unknown) => value;

function optionsOf(call: { rowMode?: 'array' | 'object'; rawTypes?: number[] }): QueryOptions | undefined {
  if (!call.rowMode && !call.rawTypes) return undefined;
  const parsers = call.rawTypes ? Object.fromEntries(call.rawTypes.map((type) => [type, keep])) : undefined;
  return { rowMode: call.rowMode, parsers };
}

/**
 * An error as the server's side rebuilds it: its message and name, and the fields PostgreSQL
 * filled (code, detail, constraint...), which the server reads to word its answer.
 */
function errorOf(error: unknown): ThreadError {
  if (!(error instanceof Error)) return { message: String(error), name: 'Error', fields: {} };
  const fields: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(error)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
      fields[key] = value;
  }
  return { message: error.message, name: error.name, stack: error.stack, fields };
}

function transactionOf(id: number | undefined): Transaction | PGlite {
  if (id === undefined) return db;
  const open = transactions.get(id);
  if (!open) throw new Error('This transaction has ended');
  return open.tx;
}

/** Starts a transaction and answers its id once it has PGlite's turn. */
function begin(): Promise<number> {
  return new Promise((started, failed) => {
    const id = nextId++;
    let end!: (commit: boolean) => void;
    const decided = new Promise<boolean>((resolve) => (end = resolve));
    const done = db
      .transaction(async (tx) => {
        transactions.set(id, { tx, end, done });
        started(id);
        if (!(await decided)) throw ROLL_BACK;
      })
      .catch((error: unknown) => {
        if (error !== ROLL_BACK) throw error;
      })
      .finally(() => transactions.delete(id));
    // BEGIN itself failed: the transaction never started.
    done.catch(failed);
  });
}

async function end(id: number, commit: boolean): Promise<null> {
  const open = transactions.get(id);
  if (!open) throw new Error('This transaction has ended');
  open.end(commit);
  await open.done;
  return null;
}

async function run(call: Call): Promise<{ value: unknown }> {
  switch (call.op) {
    case 'query':
      return { value: await transactionOf(call.tx).query(call.text, call.params, optionsOf(call)) };
    case 'exec':
      return { value: await transactionOf(call.tx).exec(call.text) };
    case 'begin':
      return { value: await begin() };
    case 'end':
      return { value: await end(call.tx, call.commit) };
    case 'listen': {
      const id = nextId++;
      const unlisten = await db.listen(call.channel, (payload) => {
        port.postMessage({ listener: id, payload } satisfies Reply);
      });
      listeners.set(id, unlisten);
      return { value: id };
    }
    case 'unlisten': {
      const unlisten = listeners.get(call.listener);
      listeners.delete(call.listener);
      await unlisten?.();
      return { value: null };
    }
    case 'dump':
      // A Blob crosses to the server's thread without its bytes being copied.
      return { value: await db.dumpDataDir(call.compression) };
    case 'close':
      closing = true;
      await db.close();
      return { value: null };
    case 'fault':
      // Only a thread started for the tests takes it: PGlite's WebAssembly trapping, as when its
      // memory cannot grow.
      if (!faults) throw new Error('This thread takes no faults');
      throw new RuntimeError('unreachable (a fault asked for by a test)');
  }
}

let closing = false;

// WebAssembly's trap, as Node has it (the API's TypeScript setup declares no WebAssembly types).
const { RuntimeError } = (globalThis as unknown as { WebAssembly: { RuntimeError: ErrorConstructor } })
  .WebAssembly;

/**
 * PGlite cannot go on after its WebAssembly has trapped or exited, or once it has closed unasked:
 * every later query would fail. The thread then ends, and with it the server (PgliteThread's
 * onStop), for its supervisor to start it again, rather than stay up answering every request
 * with an error.
 */
function isFatal(error: unknown): boolean {
  if (error instanceof RuntimeError) return true;
  if (error instanceof Error && error.name === 'ExitStatus') return true;
  return db.closed && !closing;
}

const { dataDir, faults = false } = workerData as ThreadStart;
let db: PGlite;
try {
  db = await PGlite.create(dataDir, { extensions: { pg_trgm } });
  port.postMessage({ ready: true } satisfies Reply);
} catch (error) {
  port.postMessage({ failed: errorOf(error) } satisfies Reply);
  throw error;
}

port.on('message', (message: Call & { id: number }) => {
  run(message)
    .then(({ value }) => port.postMessage({ id: message.id, value } satisfies Reply))
    // Its failure, or an answer that cannot cross threads: the call is answered with the error.
    .catch((error: unknown) => {
      port.postMessage({ id: message.id, error: errorOf(error) } satisfies Reply);
      // Ends this thread only; the server's side hears of it as an exit.
      if (isFatal(error)) process.exit(1);
    });
});
