import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { QueryOptions, Results } from '@electric-sql/pglite';
import { parsersOf, readAnswer, type ArrayType, type Parsers } from './pglite-answer';

/**
 * What the worker (pglite-worker.ts) is started with: PGlite's folder, or none for memory; `faults`
 * lets the tests make PGlite's WebAssembly trap.
 */
export type ThreadStart = { dataDir: string | undefined; faults?: boolean };

/** An error of the worker's side, as it crosses the threads. */
export type ThreadError = {
  message: string;
  name: string;
  stack?: string;
  fields: Record<string, string | number | boolean>;
};

/** What the server's side asks of the worker; `tx` runs a statement in that open transaction. */
export type Call =
  | { op: 'query'; text: string; params?: unknown[]; tx?: number }
  | { op: 'exec'; text: string; tx?: number }
  | { op: 'begin' }
  | { op: 'end'; tx: number; commit: boolean }
  | { op: 'listen'; channel: string }
  | { op: 'unlisten'; listener: number }
  | { op: 'dump'; compression: 'none' | 'gzip' | 'auto' }
  | { op: 'close' }
  | { op: 'fault' };

/**
 * What the worker answers: a call's value or error, a notification, or how its start went (with the
 * database's array types). A query's value is PostgreSQL's answer, as bytes (see readAnswer).
 */
export type Reply =
  | { id: number; value: unknown }
  | { id: number; error: ThreadError }
  | { listener: number; payload: string }
  | { ready: true; arrays: ArrayType[] }
  | { failed: ThreadError };

/** A transaction of the embedded database, as Drizzle's PGlite session uses one. */
export type ThreadTransaction = {
  query: <T>(text: string, params?: unknown[], options?: QueryOptions) => Promise<Results<T>>;
  exec: (text: string) => Promise<Results[]>;
  readonly closed: boolean;
};

/**
 * The worker: its compiled file beside the server's bundle (dist/pglite-worker.js), or, when the
 * server runs from its TypeScript (tsx, the tests), its source, loaded through tsx's loader, which
 * a worker thread does not inherit.
 */
function startWorker(workerData: ThreadStart): Worker {
  const compiled = new URL('./pglite-worker.js', import.meta.url);
  if (existsSync(fileURLToPath(compiled))) return new Worker(compiled, { workerData });
  const source = new URL('./pglite-worker.ts', import.meta.url).href;
  const tsx = import.meta.resolve('tsx/esm/api');
  const load = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(source)}); })`;
  return new Worker(load, { eval: true, workerData });
}

const rebuild = (error: ThreadError): Error => {
  const rebuilt = Object.assign(new Error(error.message), error.fields);
  rebuilt.name = error.name;
  if (error.stack) rebuilt.stack = error.stack;
  return rebuilt;
};

/**
 * PGlite in a worker thread of its own, with the part of PGlite's interface the server uses
 * (query, exec, transaction, listen, dumpDataDir, close). PGlite runs every query on the thread
 * that calls it: in the server's thread, a list page's query and the next request's JSON and
 * compression took turns on one core. In a worker they run side by side on two.
 */
export class PgliteThread {
  private readonly worker: Worker;
  private readonly pending = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (error: Error) => void }
  >();
  private readonly listeners = new Map<number, (payload: string) => void>();
  private nextId = 1;
  private parsers: Parsers = {};
  private stopped: Error | null = null;
  private closing = false;
  private stoppedUnasked = false;
  private readonly stopListeners: ((error: Error) => void)[] = [];

  private constructor(start: ThreadStart, started: (error?: Error) => void) {
    let starting = true;
    const ready = (error?: Error) => {
      if (starting) started(error);
      starting = false;
    };
    this.worker = startWorker(start);
    this.worker.on('message', (reply: Reply) => {
      if ('ready' in reply) {
        this.parsers = parsersOf(reply.arrays);
        return ready();
      }
      if ('failed' in reply) return ready(rebuild(reply.failed));
      if ('listener' in reply) return this.notify(reply.listener, reply.payload);
      const waiting = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      this.holdProcess();
      if ('error' in reply) waiting?.reject(rebuild(reply.error));
      else waiting?.resolve(reply.value);
    });
    const stop = (error: Error) => {
      const unexpected = !this.stopped && !this.closing;
      this.stopped ??= error;
      ready(this.stopped);
      for (const waiting of this.pending.values()) waiting.reject(this.stopped);
      this.pending.clear();
      if (unexpected) {
        this.stoppedUnasked = true;
        for (const listener of this.stopListeners) listener(this.stopped);
      }
    };
    this.worker.on('error', (error) => stop(new Error(`The embedded database stopped: ${error.message}`)));
    this.worker.on('exit', (code) =>
      stop(new Error(`The embedded database stopped (its thread exited with ${code})`)),
    );
  }

  /** Starts the worker and opens PGlite in `dataDir` (in memory without one). */
  static open(dataDir: string | undefined, options: { faults?: boolean } = {}): Promise<PgliteThread> {
    return new Promise((resolve, reject) => {
      const thread: PgliteThread = new PgliteThread({ dataDir, faults: options.faults }, (error) => {
        if (error) {
          void thread.worker.terminate();
          reject(error);
        } else {
          thread.holdProcess();
          resolve(thread);
        }
      });
    });
  }

  /** The worker keeps the process alive only while something waits for it, as a socket would. */
  private holdProcess() {
    if (this.pending.size > 0) this.worker.ref();
    else this.worker.unref();
  }

  private call<T>(call: Call): Promise<T> {
    if (this.stopped) return Promise.reject(this.stopped);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.holdProcess();
      try {
        this.worker.postMessage({ ...call, id });
      } catch (error) {
        // A value that cannot cross threads (a function among the parameters): nothing was sent.
        this.pending.delete(id);
        this.holdProcess();
        reject(error as Error);
      }
    });
  }

  /** A listener's failure is its own: it must not end the server's handling of the thread. */
  private notify(listener: number, payload: string) {
    try {
      this.listeners.get(listener)?.(payload);
    } catch (error) {
      console.error('A database notification listener failed:', error);
    }
  }

  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    return this.queryIn(undefined, text, params, options);
  }

  /** PGlite's exec without its options, which this thread does not carry. */
  exec(text: string, options?: never): Promise<Results[]> {
    if (options !== undefined) {
      return Promise.reject(new Error('PgliteThread: exec takes no options across threads'));
    }
    return this.execIn(undefined, text);
  }

  private async queryIn<T>(
    tx: number | undefined,
    text: string,
    params?: unknown[],
    options?: QueryOptions,
  ): Promise<Results<T>> {
    const unsupported = Object.keys(options ?? {}).filter((key) => key !== 'rowMode' && key !== 'parsers');
    if (unsupported.length > 0) {
      throw new Error(
        `PgliteThread: query options it does not carry across threads: ${unsupported.join(', ')}`,
      );
    }
    const answer = await this.call<Uint8Array>({ op: 'query', text, params, tx });
    return readAnswer<T>(answer, this.parsers, { text, params, options });
  }

  private async execIn(tx: number | undefined, text: string): Promise<Results[]> {
    return this.call({ op: 'exec', text, tx });
  }

  /**
   * Runs `work` in a transaction: committed when it returns, rolled back when it throws. Other
   * queries wait for its end, as in PGlite itself.
   */
  async transaction<T>(work: (tx: ThreadTransaction) => Promise<T>): Promise<T> {
    const id = await this.call<number>({ op: 'begin' });
    let closed = false;
    const open = async () => {
      if (closed) throw new Error('Transaction is closed');
    };
    const tx: ThreadTransaction = {
      query: (text, params, options) => open().then(() => this.queryIn(id, text, params, options)),
      exec: (text) => open().then(() => this.execIn(id, text)),
      get closed() {
        return closed;
      },
    };
    let result: T;
    try {
      result = await work(tx);
    } catch (error) {
      closed = true;
      // The work's error is the one to tell, even when the rollback fails too (the thread stopped).
      await this.call({ op: 'end', tx: id, commit: false }).catch(() => {});
      throw error;
    }
    closed = true;
    await this.call({ op: 'end', tx: id, commit: true });
    return result;
  }

  /** Calls `callback` with each notification on `channel`; answers how to stop. */
  async listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>> {
    const listener = await this.call<number>({ op: 'listen', channel });
    this.listeners.set(listener, callback);
    return async () => {
      this.listeners.delete(listener);
      await this.call({ op: 'unlisten', listener });
    };
  }

  /** A copy of the data folder (a tar); see dumpPglite for when it is taken. */
  dumpDataDir(compression: 'none' | 'gzip' | 'auto' = 'none'): Promise<Blob> {
    // A Blob crosses threads without its bytes being copied.
    return this.call<Blob>({ op: 'dump', compression });
  }

  /**
   * Calls `listener` if the thread ends other than by close(): every query is then refused, and
   * the server had better end so that its supervisor starts it again.
   */
  onStop(listener: (error: Error) => void): void {
    this.stopListeners.push(listener);
    // Stopped before anyone listened: told at once.
    if (this.stoppedUnasked && this.stopped) listener(this.stopped);
  }

  /** Closes PGlite (its last writes reach the folder) and ends the thread. */
  async close(): Promise<void> {
    this.closing = true;
    try {
      if (!this.stopped) await this.call({ op: 'close' });
    } finally {
      this.stopped ??= new Error('The embedded database is closed');
      await this.worker.terminate();
    }
  }
}
