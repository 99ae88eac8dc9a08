import { parseArgs } from 'node:util';
import fc from 'fast-check';
import { hostileExport } from './export-arbitraries';
import { createFuzzWorld, describeVerdict, type Verdict } from './fuzz-harness';
import { createImportFuzzWorld, describeImportVerdict, type ImportVerdict } from './import-harness';

const usage = `Usage: npm run fuzz -- [--seconds N] [--seed N] [--database-url postgres://...]
Sends generated requests (from every /api route's schemas, and hostile ones beyond them) to a server
on a fresh database with a small demo world, and imports generated Firebase exports (hostile values,
keys and shapes, damaged files) into a database of their own (the same one with --database-url),
taking turns for N seconds (default 60). Ends with
  fuzz: N requests, N server errors, N state changes; N imports, N failing
where a state change is a refused request that changed a table, and a failing import one that
stopped halfway, answered an unexpected error or left the database inconsistent (its report untrue,
its figures off, an image read from outside the storage copy...). Exits 1 unless all three are 0.`;

/** Exports imported after each round of requests: an import takes about as long as 50 requests. */
const IMPORTS_PER_ROUND = 3;

async function main() {
  const { values } = parseArgs({
    options: {
      seconds: { type: 'string', default: '60' },
      seed: { type: 'string' },
      'database-url': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) return console.log(usage);
  const seconds = Number(values.seconds);
  if (!Number.isFinite(seconds) || seconds <= 0) throw new Error('--seconds must be a positive number');
  let seed = values.seed === undefined ? Date.now() % 2 ** 31 : Number(values.seed);
  console.log(`fuzz: seed ${seed}, ${seconds} s`);

  const world = await createFuzzWorld({ databaseUrl: values['database-url'] });
  const importWorld = await createImportFuzzWorld({ databaseUrl: values['database-url'] });
  const failures: Verdict[] = [];
  const importFailures: ImportVerdict[] = [];
  let requests = 0;
  let imports = 0;
  const outcomes = new Map<string, number>();
  const statuses = new Map<number, number>();
  const until = Date.now() + seconds * 1000;
  try {
    while (Date.now() < until) {
      for (const request of fc.sample(world.requests, { numRuns: 50, seed: seed++ })) {
        const verdict = await world.run(request);
        requests++;
        statuses.set(verdict.status, (statuses.get(verdict.status) ?? 0) + 1);
        if (verdict.serverError || verdict.stateChanged.length) {
          failures.push(verdict);
          if (failures.length <= 20) console.error(describeVerdict(verdict));
        }
        if (Date.now() >= until) break;
      }
      for (const hostile of fc.sample(hostileExport, { numRuns: IMPORTS_PER_ROUND, seed: seed++ })) {
        if (Date.now() >= until) break;
        const verdict = await importWorld.run(hostile);
        imports++;
        outcomes.set(verdict.outcome, (outcomes.get(verdict.outcome) ?? 0) + 1);
        if (verdict.problems.length) {
          importFailures.push(verdict);
          if (importFailures.length <= 5) console.error(describeImportVerdict(verdict));
        }
      }
      if (process.stdout.isTTY) {
        process.stdout.write(
          `\r${requests} requests, ${failures.length} failing; ${imports} imports, ${importFailures.length} failing`,
        );
      }
    }
  } finally {
    await world.close();
    await importWorld.close();
  }
  if (process.stdout.isTTY) process.stdout.write('\n');
  const answered = [...statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${status}: ${n}`);
  console.log(`answers by status: ${answered.join(', ')}`);
  console.log(`imports by outcome: ${[...outcomes].map(([outcome, n]) => `${outcome}: ${n}`).join(', ')}`);
  const serverErrors = failures.filter((verdict) => verdict.serverError).length;
  const stateChanges = failures.filter((verdict) => verdict.stateChanged.length).length;
  console.log(
    `fuzz: ${requests} requests, ${serverErrors} server errors, ${stateChanges} state changes; ` +
      `${imports} imports, ${importFailures.length} failing`,
  );
  process.exitCode = serverErrors || stateChanges || importFailures.length ? 1 : 0;
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
