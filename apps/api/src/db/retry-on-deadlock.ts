/**
 * Runs a transaction again when PostgreSQL chose it as the victim of a deadlock: two instances
 * storing batches of the same drivers at once may lock them in opposite orders (rare: a driver
 * reports every few seconds); the work is then simply done again, up to `attempts` times.
 */
export async function retryOnDeadlock<T>(work: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      const code =
        (error as { code?: string; cause?: { code?: string } }).code ??
        (error as { cause?: { code?: string } }).cause?.code;
      if (code !== '40P01' || attempt >= attempts) throw error;
    }
  }
}
