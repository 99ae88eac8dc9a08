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

/** The query values of a request's URL, decoded (undecodable ones as they are). */
function queryValues(url: string): string[] {
  return [...url.matchAll(/[?&][^=&]+=([^&]*)/g)].map(([, value]) => {
    try {
      return decodeURIComponent(value!);
    } catch {
      return value!;
    }
  });
}

const decodedCursors = (url: string) =>
  [...url.matchAll(/[?&]cursor=([^&]*)/g)].map(([, cursor]) => {
    try {
      return Buffer.from(decodeURIComponent(cursor!), 'base64url').toString('utf8');
    } catch {
      return '';
    }
  });

describe('the requests the fuzz sends', () => {
  it('ask for days and moments at the ends of the calendar, and carry cursors of 19-digit numbers', () => {
    const urls = fc.sample(world.requests, { numRuns: 3000, seed: 1 }).map((request) => request.url);
    const values = urls.flatMap(queryValues);
    expect(urls.some((url) => /[?&]to=9999-12-31(&|$)/.test(url))).toBe(true);
    for (const edge of ['9999-12-31T23:59:59-12:00', '0000-01-01']) {
      expect(
        values.some((value) => value.startsWith(edge)),
        edge,
      ).toBe(true);
    }
    expect(urls.flatMap(decodedCursors).some((key) => /(^|[^\d])\d{19}([^\d]|$)/.test(key))).toBe(true);
  });
});

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
