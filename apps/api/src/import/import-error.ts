import type { ImportReport } from './report';

/** A file the import cannot read at all (refused before anything is written); damaged records are reported instead. */
export class ImportError extends Error {}

/**
 * A run that stopped after it started writing. Its report says what it left in the database:
 * the sections committed with their counts, the one that failed and what of it stays, the ones not
 * reached. `expected` tells a failure the import knows (the database refusing a write, a file that
 * cannot be read, an interruption) from a fault of its own, whose stack is worth printing.
 */
export class ImportStoppedError extends ImportError {
  constructor(
    message: string,
    readonly report: ImportReport,
    readonly expected: boolean,
    options: { cause: unknown },
  ) {
    super(message, options);
  }
}
