import { describe, expect, it } from 'vitest';
import { retryOnDeadlock } from './retry-on-deadlock';

const deadlock = Object.assign(new Error('deadlock detected'), { code: '40P01' });

describe('retryOnDeadlock', () => {
  it('does the work again after a deadlock, as the driver reports it directly or as a cause', async () => {
    let calls = 0;
    const result = await retryOnDeadlock(async () => {
      calls++;
      if (calls === 1) throw deadlock;
      if (calls === 2) throw new Error('failed query', { cause: deadlock });
      return 'stored';
    });
    expect(result).toBe('stored');
    expect(calls).toBe(3);
  });

  it('gives up after the attempts, and never retries another error', async () => {
    let calls = 0;
    await expect(
      retryOnDeadlock(async () => {
        calls++;
        throw deadlock;
      }, 2),
    ).rejects.toThrow('deadlock detected');
    expect(calls).toBe(2);

    calls = 0;
    await expect(
      retryOnDeadlock(async () => {
        calls++;
        throw Object.assign(new Error('unique violation'), { code: '23505' });
      }),
    ).rejects.toThrow('unique violation');
    expect(calls).toBe(1);
  });
});
