import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

/**
 * postgres.js's queue of connections, as installed with patches/postgres+3.4.9.patch (decision
 * 023): still a first-in, first-out queue whose entries can be removed, after it has been used
 * for a long time without emptying, as the busy connections' queue is under steady load.
 */
type Queue<T> = { length: number; push(x: T): T; shift(): T; remove(x: T): T | null };

const require = createRequire(import.meta.url);
const root = dirname(dirname(dirname(require.resolve('postgres'))));
const copies = ['src/queue.js', 'cjs/src/queue.js', 'cf/src/queue.js'];

async function load(copy: string): Promise<(initial?: unknown[]) => Queue<unknown>> {
  if (copy.startsWith('cjs/')) return require(join(root, copy)) as (initial?: unknown[]) => Queue<unknown>;
  const module = (await import(pathToFileURL(join(root, copy)).href)) as {
    default: (initial?: unknown[]) => Queue<unknown>;
  };
  return module.default;
}

/** The queue as postgres.js 3.4.9 ships it, to compare the patched one with. */
function OriginalQueue(): Queue<unknown> {
  let xs: unknown[] = [];
  let index = 0;
  return {
    get length() {
      return xs.length - index;
    },
    remove: (x) => {
      const at = xs.indexOf(x);
      return at === -1 ? null : (xs.splice(at, 1), x);
    },
    push: (x) => (xs.push(x), x),
    shift: () => {
      const out = xs[index++];
      if (index === xs.length) {
        index = 0;
        xs = [];
      } else {
        xs[index - 1] = undefined;
      }
      return out;
    },
  };
}

/** A step of the connections' life: queued, taken from the head, or taken from anywhere. */
const step = fc.oneof(
  fc.record({ op: fc.constant('push' as const), value: fc.integer({ min: 0, max: 40 }) }),
  fc.record({ op: fc.constant('shift' as const), times: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ op: fc.constant('remove' as const), value: fc.integer({ min: 0, max: 40 }) }),
);

describe.each(copies)("postgres.js's queue (%s)", (copy) => {
  it('answers every push, shift and remove as the original does, long lives included', async () => {
    const Queue = await load(copy);
    fc.assert(
      fc.property(fc.array(step, { maxLength: 300 }), fc.integer({ min: 0, max: 3000 }), (steps, warmUp) => {
        const patched = Queue();
        const original = OriginalQueue();
        // A long life first, without emptying, so that the patched queue drops its dead slots.
        for (let n = 0; n < 3; n++) [patched, original].forEach((queue) => queue.push(-1 - n));
        // Compared without expect: a run makes thousands of comparisons.
        const same = (a: unknown, b: unknown, what: string) => {
          if (a !== b) throw new Error(`${what}: ${String(a)} where the original answers ${String(b)}`);
        };
        for (let n = 0; n < warmUp; n++) {
          same(patched.shift(), original.shift(), 'shift');
          const value = -10 - n;
          [patched, original].forEach((queue) => queue.push(value));
        }
        for (const s of steps) {
          if (s.op === 'push') same(patched.push(s.value), original.push(s.value), 'push');
          else if (s.op === 'remove') same(patched.remove(s.value), original.remove(s.value), 'remove');
          else for (let n = 0; n < s.times; n++) same(patched.shift(), original.shift(), 'shift');
          same(patched.length, original.length, 'length');
        }
      }),
      { numRuns: 200 },
    );
  });

  it('is patched to search and keep only its live entries', async () => {
    const text = await readFile(join(root, copy), 'utf8');
    expect(text).toContain('xs.indexOf(x, index)');
    expect(text).toContain('xs = xs.slice(index)');
  });
});
