import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFuzzWorld, describeVerdict, type FuzzWorld } from './fuzz-harness';

/**
 * A short run of the fuzz suite (`npm run fuzz -- --seconds N` runs it for longer): requests built
 * from every route's own schemas and beyond them, as each role, anonymous and with a forged token.
 * No answer may be a server error, and no refused request may change a table.
 */

let world: FuzzWorld;
beforeAll(async () => {
  world = await createFuzzWorld();
});
afterAll(async () => {
  await world?.close();
});

// A new seed each run widens the search over time; a failure prints the seed to replay it.
const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);

describe('fuzzing every /api route', () => {
  it('answers no request with a server error, and no refused request changes a table', async () => {
    await fc.assert(
      fc.asyncProperty(world.requests, async (request) => {
        const verdict = await world.run(request);
        expect(verdict.serverError, describeVerdict(verdict)).toBe(false);
        expect(verdict.stateChanged, describeVerdict(verdict)).toEqual([]);
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 400), seed, endOnFailure: true },
    );
  }, 300_000);
});
