import { parseArgs } from 'node:util';
import fc from 'fast-check';
import { createFuzzWorld, describeVerdict, type Verdict } from './fuzz-harness';

const usage = `Usage: npm run fuzz -- [--seconds N] [--seed N] [--database-url postgres://...]
Sends generated requests (from every /api route's schemas, and hostile ones beyond them) to a server
on a fresh database with a small demo world, for N seconds (default 60), and ends with
  fuzz: N requests, N server errors, N state changes
where a state change is a refused request that changed a table. Exits 1 unless both are 0.`;

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
  const failures: Verdict[] = [];
  let requests = 0;
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
      if (process.stdout.isTTY) process.stdout.write(`\r${requests} requests, ${failures.length} failing`);
    }
  } finally {
    await world.close();
  }
  if (process.stdout.isTTY) process.stdout.write('\n');
  const answered = [...statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${status}: ${n}`);
  console.log(`answers by status: ${answered.join(', ')}`);
  const serverErrors = failures.filter((verdict) => verdict.serverError).length;
  const stateChanges = failures.filter((verdict) => verdict.stateChanged.length).length;
  console.log(`fuzz: ${requests} requests, ${serverErrors} server errors, ${stateChanges} state changes`);
  process.exitCode = serverErrors || stateChanges ? 1 : 0;
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
