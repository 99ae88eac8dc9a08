/**
 * Reads until `done` holds or the time is up, and answers the last reading: the test's own
 * expectation then says what was wrong, rather than a timeout.
 */
export async function readUntil<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 15_000,
  intervalMs = 50,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
