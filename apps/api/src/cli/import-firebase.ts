import { existsSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Presets, SingleBar } from 'cli-progress';
import { ConfigError, loadConfig } from '../config';
import { analyzeDatabase, openDatabase } from '../db/client';
import { DataDirBusyError } from '../db/data-dir-lock';
import { createObjectStore } from '../infra/create-object-store';
import { ImportError, ImportStoppedError } from '../import/import-error';
import { importFirebase, type ImportOptions } from '../import/import-firebase';
import { formatReport, type ImportReport } from '../import/report';

const usage = `Usage: npm run import:firebase -- --database FILE [--auth FILE --hash-key B64
  --salt-separator B64 --rounds N --mem-cost N] [--storage DIR] [--dry-run] [--report FILE]

Brings a Firebase project's data into the console's database (DATABASE_URL, else DATA_DIR):
  --database FILE     the Realtime Database export (JSON of the root)
  --auth FILE         the Authentication export (firebase auth:export users.json --format=json)
  --hash-key, --salt-separator, --rounds, --mem-cost
                      the project's password hash parameters (Authentication, Password hash
                      parameters), named as firebase auth:import names them
  --storage DIR       a copy of the bucket's images folder's parent (DIR/images/{uid}/{doc}.jpg)
  --dry-run           change nothing; print what the import would do
  --report FILE       also write the report as JSON
Run it again with a newer export: what is the same stays, what changed is updated. A run that
stops (a write refused, Ctrl-C) says which sections it committed and exits 1: run the same command
again to complete the import.`;

class UsageError extends Error {}

const fromInvocation = (path: string) => resolve(process.env.INIT_CWD ?? process.cwd(), path);

function parseOptions(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      database: { type: 'string' },
      auth: { type: 'string' },
      'hash-key': { type: 'string' },
      'salt-separator': { type: 'string' },
      rounds: { type: 'string' },
      'mem-cost': { type: 'string' },
      storage: { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
      report: { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(usage);
    process.exit(0);
  }
  if (!values.database) throw new UsageError('--database is required.');
  const hashFlags = [values['hash-key'], values['salt-separator'], values.rounds, values['mem-cost']];
  if (hashFlags.some(Boolean) && !hashFlags.every(Boolean)) {
    throw new UsageError('--hash-key, --salt-separator, --rounds and --mem-cost go together.');
  }
  if (hashFlags.some(Boolean) && !values.auth) throw new UsageError('The hash flags need --auth.');
  const whole = (name: string, text: string | undefined, max: number) => {
    const value = Number(text);
    if (!Number.isInteger(value) || value < 1 || value > max) {
      throw new UsageError(`--${name} must be a whole number from 1 to ${max}.`);
    }
    return value;
  };
  for (const [flag, path] of [
    ['database', values.database],
    ['auth', values.auth],
    ['storage', values.storage],
  ] as const) {
    if (path && !existsSync(fromInvocation(path))) throw new UsageError(`--${flag}: ${path} does not exist.`);
  }
  return {
    database: fromInvocation(values.database),
    auth: values.auth ? fromInvocation(values.auth) : undefined,
    hashParams: values['hash-key']
      ? {
          signerKey: values['hash-key'],
          saltSeparator: values['salt-separator']!,
          rounds: whole('rounds', values.rounds, 16),
          memCost: whole('mem-cost', values['mem-cost'], 16),
        }
      : undefined,
    storage: values.storage ? fromInvocation(values.storage) : undefined,
    dryRun: values['dry-run'],
    report: values.report ? fromInvocation(values.report) : undefined,
  };
}

const megabytes = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

/** A bar on a terminal; otherwise a line every few seconds (a log keeps lines, not redraws). */
function createProgress(): { update: ImportOptions['onProgress']; stop: () => void } {
  if (process.stderr.isTTY) {
    const bar = new SingleBar(
      { format: 'Reading the export [{bar}] {percentage}% | {done} of {size}', stream: process.stderr },
      Presets.shades_classic,
    );
    let started = false;
    return {
      update: (read, size) => {
        if (!started) bar.start(size, 0, { done: megabytes(0), size: megabytes(size) });
        started = true;
        bar.update(read, { done: megabytes(read), size: megabytes(size) });
      },
      stop: () => started && bar.stop(),
    };
  }
  let last = 0;
  return {
    update: (read, size) => {
      if (Date.now() - last < 5000) return;
      last = Date.now();
      console.error(`Read ${megabytes(read)} of ${megabytes(size)} (${Math.floor((100 * read) / size)}%)`);
    },
    stop: () => {},
  };
}

function writeReport(path: string | undefined, report: ImportReport, print: (line: string) => void): void {
  if (!path) return;
  writeFileSync(path, `${JSON.stringify(report, null, 2)}\n`);
  print(`\nReport written to ${path}`);
}

/**
 * Ctrl-C (or a supervisor's SIGTERM) stops the run between two records, so that it can say what it
 * committed; a second one ends the process at once (the database rolls back what was under way).
 */
function stopOnSignals(): { signal: AbortSignal; release: () => void } {
  const controller = new AbortController();
  let first = 0;
  const onSignal = (name: NodeJS.Signals) => {
    // Run through npm, one Ctrl-C arrives twice: from the terminal, and forwarded by npm.
    if (controller.signal.aborted) {
      if (Date.now() - first > 1000) process.exit(130);
      return;
    }
    first = Date.now();
    console.error(`\n${name}: stopping after the writes under way (again to stop at once).`);
    controller.abort(new ImportError(`interrupted (${name})`));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal: controller.signal,
    release: () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}

async function main() {
  const options = parseOptions(process.argv.slice(2));
  const config = loadConfig();
  let database;
  try {
    database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  } catch (error) {
    if (!(error instanceof DataDirBusyError)) throw error;
    throw new ImportError(
      `${error.message}\nStop the console server before importing into the embedded database.`,
    );
  }
  const progress = createProgress();
  const stopping = stopOnSignals();
  try {
    const report = await importFirebase(database.db, {
      ...options,
      jwtSecret: config.jwtSecret,
      objectStore: createObjectStore(config.objectStore),
      onProgress: progress.update,
      parallelWrites: database.kind === 'postgres' ? 2 : 1,
      signal: stopping.signal,
    });
    progress.stop();
    // The planner needs statistics of the tables just filled (see analyzeDatabase).
    if (!options.dryRun) await analyzeDatabase(database.db);
    console.log(formatReport(report));
    writeReport(options.report, report, console.log);
  } catch (error) {
    progress.stop();
    if (!(error instanceof ImportStoppedError)) throw error;
    // What the run committed stays, and is read by the console from now on.
    if (!options.dryRun) await analyzeDatabase(database.db).catch(() => {});
    console.error(error.message);
    console.error(`\n${formatReport(error.report)}`);
    if (!error.expected) console.error('\nThe failure was unexpected:', error.cause);
    writeReport(options.report, error.report, console.error);
    process.exitCode = 1;
  } finally {
    stopping.release();
    progress.stop();
    await database.close();
  }
}

main().catch((error: unknown) => {
  if (error instanceof UsageError || error instanceof ConfigError || error instanceof ImportError) {
    console.error(error.message);
    if (error instanceof UsageError) console.error(`\n${usage}`);
  } else {
    console.error(error);
  }
  process.exit(1);
});
