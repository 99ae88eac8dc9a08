/**
 * The embedded database's own thread: PGlite (PostgreSQL compiled to WebAssembly) runs its queries
 * here, so that the server's thread parses requests, checks and compresses answers meanwhile.
 * pglite-thread.ts is the other side and holds the messages' types. Every message is handled as it
 * comes; PGlite itself takes turns between queries and transactions, as it did in the server's
 * thread.
 *
 * A query is run here and read there: this thread sends PostgreSQL's answer as the bytes it wrote
 * (see `query`), and the server's thread turns them into rows, which was a third of this thread's
 * time, the thread every query waits for.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { messages, parse, PGlite, protocol, type Transaction } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { CODES, type ArrayType } from './pglite-answer';
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

const { serialize } = protocol;

/**
 * The statements prepared on PGlite's one session, by their text, least recently used first.
 * PGlite's own `query` parses every statement again, in six calls into PostgreSQL; a statement
 * kept here is bound and executed in one. Each execution is still planned for its values
 * (plan_cache_mode, set at start), as the server plans them (db/client.ts).
 */
const prepared = new Map<string, { name: string; types: number[] }>();
const MAX_PREPARED = 1000;
/** Statements to close with the next statement prepared: evicted, or found out of date. */
const retired: string[] = [];
let nextStatement = 1;

function joined(parts: Uint8Array[]): Uint8Array {
  const whole = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    whole.set(part, offset);
    offset += part.length;
  }
  return whole;
}

const { ERROR, NOTIFICATION, BIND_COMPLETE, READY } = CODES;
const IDLE = 0x49; // 'I': the state after READY when no transaction is open

/**
 * What an answer holds, by its messages' codes (each message: a code, then its length): whether it
 * failed, and before binding (nothing ran), whether it carries notifications, and whether it left
 * no transaction open.
 */
function scan(answer: Uint8Array) {
  const view = new DataView(answer.buffer, answer.byteOffset, answer.byteLength);
  const found = { failed: false, failedToBind: false, notifications: false, idle: false };
  let bound = false;
  for (let offset = 0; offset + 5 <= answer.length; offset += 1 + view.getUint32(offset + 1)) {
    const code = answer[offset];
    if (code === BIND_COMPLETE) bound = true;
    else if (code === NOTIFICATION) found.notifications = true;
    else if (code === READY) found.idle = answer[offset + 5] === IDLE;
    else if (code === ERROR && !found.failed) {
      found.failed = true;
      found.failedToBind = !bound;
    }
  }
  return found;
}

/**
 * PostgreSQL's answer to `message`, as it wrote it. PGlite's execProtocolRaw would also read every
 * message of it (and keep them until its next own query); the stream hands the bytes over only.
 */
async function exchange(message: Uint8Array): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  // The bytes are a view of PostgreSQL's memory, reused by the next write: copied.
  await db.execProtocolRawStream(message, {
    syncToFs: false,
    onRawData: (bytes) => chunks.push(bytes.slice()),
  });
  return chunks.length === 1 ? chunks[0]! : joined(chunks);
}

/** What follows a statement's Bind, the same for every statement: describe, execute, sync. */
const RUN = joined([serialize.describe({ type: 'P' }), serialize.execute({}), serialize.sync()]);

/**
 * The statements worth keeping: the application's reads and writes. Others (a migration's DDL, a
 * SET) run once, as the unnamed statement, and take no room in PostgreSQL's memory afterwards.
 */
const KEPT = /^\s*(select|insert|update|delete|with)\b/i;

/** A statement's name and its parameters' types, or PostgreSQL's answer when it cannot be prepared. */
async function prepare(text: string): Promise<{ name: string; types: number[] } | Uint8Array> {
  const known = prepared.get(text);
  if (known) {
    prepared.delete(text);
    prepared.set(text, known);
    return known;
  }
  for (const [oldest, statement] of prepared) {
    if (prepared.size < MAX_PREPARED) break;
    prepared.delete(oldest);
    retired.push(statement.name);
  }
  const keep = KEPT.test(text);
  const name = keep ? `bmet_${nextStatement++}` : '';
  const answer = await exchange(
    joined([
      ...retired.splice(0).map((old) => serialize.close({ type: 'S', name: old })),
      serialize.parse({ name, text }),
      serialize.describe({ type: 'S', name }),
      serialize.sync(),
    ]),
  );
  const replies: messages.BackendMessage[] = [];
  new protocol.Parser().parse(answer, (reply) => replies.push(reply));
  // The statements to close are closed even so: only the messages after an error wait for Sync.
  if (replies.some((reply) => reply instanceof messages.DatabaseError)) return answer;
  const statement = { name, types: parse.parseDescribeStatementResults(replies) };
  if (keep) prepared.set(text, statement);
  return statement;
}

/** Hands the notifications in an answer to this thread's listeners, as PGlite does with its own. */
function notify(answer: Uint8Array) {
  new protocol.Parser().parse(answer, (reply) => {
    if (!(reply instanceof messages.NotificationResponseMessage)) return;
    for (const listener of channels.get(reply.channel) ?? []) {
      port.postMessage({ listener, payload: reply.payload } satisfies Reply);
    }
  });
}

/**
 * Runs a statement and answers PostgreSQL's answer as it wrote it, for the server's thread to read
 * (PgliteThread): the rows, or the error, of one prepared statement bound to `params`. The
 * parameters are written as PGlite writes them, by the types PostgreSQL gave them.
 */
async function query(text: string, params: unknown[], again = true): Promise<Uint8Array> {
  // PGlite's own query refuses as soon as PGlite begins to close, not only once it has closed.
  if (!db.ready) throw new Error(db.closed ? 'PGlite is closed' : 'PGlite is closing');
  const statement = await prepare(text);
  if (statement instanceof Uint8Array) return statement;
  const values = params.map((param, i) => {
    if (param === null || param === undefined) return null;
    const write = db.serializers[statement.types[i]!];
    return write ? write(param) : String(param);
  });
  const answer = await exchange(joined([serialize.bind({ statement: statement.name, values }), RUN]));
  const found = scan(answer);
  if (found.notifications) notify(answer);
  // A kept statement that cannot be bound may be out of date: a table it reads has changed its
  // columns since, or a column its types. It is closed, and prepared again: at once when no
  // transaction is open (nothing ran), as PGlite, which prepares every statement anew, would have
  // answered; inside one, PostgreSQL has failed the transaction, and the next asking prepares it.
  if (found.failedToBind && statement.name && prepared.get(text) === statement) {
    prepared.delete(text);
    retired.push(statement.name);
    if (again && found.idle) return query(text, params, false);
  }
  return answer;
}

/**
 * A statement takes its turn as PGlite's own `query` does: inside a transaction, after the
 * transaction's statement before it; outside, after every transaction and statement before it, its
 * writes then reaching the folder as PGlite's own do.
 */
function inTurn<T>(tx: number | undefined, work: () => Promise<T>): Promise<T> {
  if (tx !== undefined) {
    if (!transactions.has(tx)) return Promise.reject(new Error('This transaction has ended'));
    return db.runExclusive(work);
  }
  return db._runExclusiveTransaction(() =>
    db.runExclusive(async () => {
      const value = await work();
      await db.syncToFs();
      return value;
    }),
  );
}

/** The listeners of each channel (by PostgreSQL's name for it), for notifications in `query`'s answers. */
const channels = new Map<string, Set<number>>();
const pgName = (channel: string) =>
  channel.startsWith('"') && channel.endsWith('"') ? channel.slice(1, -1) : channel.toLowerCase();

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

async function run(call: Call): Promise<{ value: unknown; transfer?: ArrayBuffer[] }> {
  switch (call.op) {
    case 'query': {
      const answer = await inTurn(call.tx, () => query(call.text, call.params ?? []));
      // The answer's bytes move to the server's thread rather than being copied.
      return { value: answer, transfer: [answer.buffer as ArrayBuffer] };
    }
    case 'exec':
      return { value: await transactionOf(call.tx).exec(call.text) };
    case 'begin':
      return { value: await begin() };
    case 'end':
      return { value: await end(call.tx, call.commit) };
    case 'listen': {
      const id = nextId++;
      // Listening before LISTEN runs, as PGlite does: a statement that takes its turn between LISTEN
      // and the answer may notify.
      const channel = pgName(call.channel);
      channels.set(channel, (channels.get(channel) ?? new Set()).add(id));
      let unlisten: () => Promise<void>;
      try {
        unlisten = await db.listen(call.channel, (payload) => {
          port.postMessage({ listener: id, payload } satisfies Reply);
        });
      } catch (error) {
        channels.get(channel)?.delete(id);
        throw error;
      }
      listeners.set(id, async () => {
        channels.get(channel)?.delete(id);
        await unlisten();
      });
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
  // Statements are prepared once (see `prepare`), but planned for each execution's values, as
  // PGlite's unnamed statements were.
  await db.exec('set plan_cache_mode = force_custom_plan');
  // The array types PGlite reads at start, for the server's thread to read arrays as PGlite does.
  const arrays = await db.query<ArrayType>(`
    select b.oid, b.typarray from pg_catalog.pg_type a
    left join pg_catalog.pg_type b on b.oid = a.typelem
    where a.typcategory = 'A' group by b.oid, b.typarray order by b.oid`);
  port.postMessage({ ready: true, arrays: arrays.rows } satisfies Reply);
} catch (error) {
  port.postMessage({ failed: errorOf(error) } satisfies Reply);
  throw error;
}

port.on('message', (message: Call & { id: number }) => {
  run(message)
    .then(({ value, transfer }) => port.postMessage({ id: message.id, value } satisfies Reply, transfer))
    // Its failure, or an answer that cannot cross threads: the call is answered with the error.
    .catch((error: unknown) => {
      port.postMessage({ id: message.id, error: errorOf(error) } satisfies Reply);
      // Ends this thread only; the server's side hears of it as an exit.
      if (isFatal(error)) process.exit(1);
    });
});
