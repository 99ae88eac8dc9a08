/**
 * Runs many small requests of the same kind as few database round trips, the way a database
 * commits a group of transactions at once: the first request runs alone at once; requests that
 * arrive while a run is in flight wait for it and then run together, up to `maxBatch` at a time.
 * Nobody waits longer than one run, and under load each run carries many. (DataLoader batches what
 * one event-loop tick collects; requests from separate sockets arrive in separate ticks, so that
 * would batch almost nothing here.)
 */
export function createGroupCommit<I, O>(
  run: (inputs: I[]) => Promise<O[]>,
  options: { maxBatch: number },
): (input: I) => Promise<O> {
  type Waiting = { input: I; resolve: (output: O) => void; reject: (error: unknown) => void };
  const queue: Waiting[] = [];
  let running = false;

  const next = () => {
    if (running || queue.length === 0) return;
    running = true;
    const batch = queue.splice(0, options.maxBatch);
    // A run that throws at once fails its batch like one that rejects, and the next still runs.
    Promise.resolve()
      .then(() => run(batch.map((waiting) => waiting.input)))
      .then(
        (outputs) => batch.forEach((waiting, i) => waiting.resolve(outputs[i]!)),
        (error: unknown) => batch.forEach((waiting) => waiting.reject(error)),
      )
      .finally(() => {
        running = false;
        next();
      });
  };

  return (input) =>
    new Promise<O>((resolve, reject) => {
      queue.push({ input, resolve, reject });
      // Requests of this same moment join the run: it starts after the current I/O callbacks.
      if (!running) setImmediate(next);
    });
}
