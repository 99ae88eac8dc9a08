import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
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

describe.each(copies)("postgres.js's queue (%s)", (copy) => {
  it('is patched to search and keep only its live entries', async () => {
    const { readFile } = await import('node:fs/promises');
    const text = await readFile(join(root, copy), 'utf8');
    expect(text).toContain('xs.indexOf(x, index)');
    expect(text).toContain('xs = xs.slice(index)');
  });

  it('stays first in, first out through a long life without emptying', async () => {
    const Queue = await load(copy);
    const queue = Queue();
    const live: number[] = [];
    let next = 0;
    for (; next < 10; next++) live.push(queue.push(next) as number);
    // 5,000 turns of a busy connection taken and put back, each past the point where the slots
    // shifted out are dropped.
    for (let turn = 0; turn < 5000; turn++) {
      expect(queue.shift()).toBe(live.shift());
      live.push(queue.push(next++) as number);
      if (turn % 7 === 0) {
        // A connection that leaves the queue from its middle (closed, or moved while queued).
        const middle = live.splice(4, 1)[0]!;
        expect(queue.remove(middle)).toBe(middle);
        expect(queue.remove(middle)).toBeNull();
        live.push(queue.push(next++) as number);
      }
      expect(queue.length).toBe(live.length);
    }
    // Something shifted out long ago is not found again.
    expect(queue.remove(0)).toBeNull();
    const rest: unknown[] = [];
    while (queue.length) rest.push(queue.shift());
    expect(rest).toEqual(live);
    // Emptied, it starts again.
    queue.push('again');
    expect(queue.length).toBe(1);
    expect(queue.shift()).toBe('again');
  });
});
