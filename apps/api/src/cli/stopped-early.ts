/**
 * Node ends a process whose event loop has emptied even while a promise is still pending, with
 * exit code 0 and nothing printed: a backup or restore whose last step waited for something that
 * never came would look like a success. This makes such an end a failure that says so.
 */
export function failIfStoppedEarly(done: Promise<unknown>, what: string): void {
  let settled = false;
  done.then(
    () => (settled = true),
    () => (settled = true),
  );
  process.on('beforeExit', () => {
    if (settled) return;
    console.error(
      `The ${what} stopped before it finished: one of its steps waited for something that never came. ` +
        'It did not complete; run it again.',
    );
    process.exit(1);
  });
}
