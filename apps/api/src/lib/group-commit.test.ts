import { describe, expect, it } from 'vitest';
import { createGroupCommit } from './group-commit';

describe('createGroupCommit', () => {
  it('runs a lone request at once and groups those that arrive while a run is in flight', async () => {
    const runs: number[][] = [];
    let release!: () => void;
    let gate = new Promise<void>((resolve) => (release = resolve));
    const double = createGroupCommit(
      async (inputs: number[]) => {
        runs.push(inputs);
        await gate;
        return inputs.map((n) => n * 2);
      },
      { maxBatch: 3 },
    );
    const first = double(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(runs).toEqual([[1]]);
    const later = [double(2), double(3), double(4), double(5)];
    gate = Promise.resolve();
    release();
    expect(await first).toBe(2);
    expect(await Promise.all(later)).toEqual([4, 6, 8, 10]);
    expect(runs).toEqual([[1], [2, 3, 4], [5]]);
  });

  it('fails every request of a run that fails, and goes on with the next', async () => {
    let fail = true;
    const check = createGroupCommit(
      async (inputs: string[]) => {
        if (fail) throw new Error('database gone');
        return inputs.map((s) => s.length);
      },
      { maxBatch: 10 },
    );
    const failing = [check('a'), check('bb')];
    await expect(Promise.all(failing)).rejects.toThrow('database gone');
    fail = false;
    expect(await check('ccc')).toBe(3);
  });

  it('fails the batch of a run that throws at once, and the next request still runs', async () => {
    let calls = 0;
    const check = createGroupCommit(
      (inputs: number[]) => {
        if (calls++ === 0) throw new Error('bad input');
        return Promise.resolve(inputs);
      },
      { maxBatch: 10 },
    );
    await expect(check(1)).rejects.toThrow('bad input');
    expect(await check(2)).toBe(2);
  });
});
