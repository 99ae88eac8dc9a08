import { parseArgs } from 'node:util';
import { loadToolConfig } from '../config';
import { analyzeDatabase, openDatabase } from '../db/client';
import { DEFAULT_SCALE, isDatabaseEmpty, resetDatabase, seedDemo } from './demo';
import { createObjectStore } from '../infra/create-object-store';

const usage = `Usage: npm run seed -- [--drivers N] [--trips N] [--customers N] [--dealers N]
                       [--franchises-per-dealer N] [--reset]
Fills an empty database with demo data (defaults: ${JSON.stringify(DEFAULT_SCALE)}).
--reset empties the database first.`;

async function main() {
  const { values } = parseArgs({
    options: {
      drivers: { type: 'string' },
      trips: { type: 'string' },
      customers: { type: 'string' },
      dealers: { type: 'string' },
      'franchises-per-dealer': { type: 'string' },
      reset: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) return console.log(usage);
  const count = (name: string, value: string | undefined, max: number) => {
    if (value === undefined) return undefined;
    const n = Number(value);
    if (!Number.isInteger(n) || n < 0 || n > max)
      throw new Error(`--${name} must be a whole number from 0 to ${max}`);
    return n;
  };
  const scale = {
    drivers: count('drivers', values.drivers, 1_000_000),
    trips: count('trips', values.trips, 10_000_000),
    customers: count('customers', values.customers, 5_000_000),
    dealers: count('dealers', values.dealers, 8),
    franchisesPerDealer: count('franchises-per-dealer', values['franchises-per-dealer'], 8),
  };
  const cleaned = Object.fromEntries(Object.entries(scale).filter(([, v]) => v !== undefined));
  if ((cleaned.trips ?? 0) > 0 && cleaned.customers === 0)
    throw new Error('--customers must be at least 1 when there are trips');

  const config = loadToolConfig();
  // The demo accounts share a published password: never in a production database.
  if (config.env === 'production') {
    throw new Error(
      'The demo data is never loaded with NODE_ENV=production (its accounts have a published password).',
    );
  }
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    if (values.reset) await resetDatabase(database.db);
    else if (!(await isDatabaseEmpty(database.db))) {
      console.error('The database already has data. Run with --reset to empty it first.');
      process.exitCode = 1;
      return;
    }
    const started = Date.now();
    const summary = await seedDemo(database.db, {
      password: config.demoPassword,
      objectStore: createObjectStore(config.objectStore),
      progress: process.stdout.isTTY ? 'bar' : 'lines',
      scale: cleaned,
    });
    await analyzeDatabase(database.db);
    console.log(`Seeded ${JSON.stringify(summary)} in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  } finally {
    await database.close();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
