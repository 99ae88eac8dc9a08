import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostileExport } from './export-arbitraries';
import { createImportFuzzWorld, describeImportVerdict, type ImportFuzzWorld } from './import-harness';

/**
 * A short run of the import's fuzz property (`npm run fuzz` runs it for longer, beside the
 * requests): small Firebase exports with hostile values, keys and shapes, and files damaged whole.
 * Each is imported with a report that tells the truth or refused before anything is written, and
 * the database stays consistent.
 */

let world: ImportFuzzWorld;
beforeAll(async () => {
  world = await createImportFuzzWorld();
});
afterAll(async () => {
  await world?.close();
});

// A new seed each run widens the search over time; a failure prints the seed to replay it.
const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);

describe('fuzzing the Firebase import', () => {
  it('imports a hostile export with a true report, or refuses it whole, and never stops halfway', async () => {
    await fc.assert(
      fc.asyncProperty(hostileExport, async (hostile) => {
        const verdict = await world.run(hostile);
        expect(verdict.problems, describeImportVerdict(verdict)).toEqual([]);
      }),
      { numRuns: Number(process.env.FUZZ_IMPORT_RUNS ?? 25), seed, endOnFailure: true },
    );
  }, 300_000);
});
