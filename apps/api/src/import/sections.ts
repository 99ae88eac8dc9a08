import { ExportStructureError } from './database-export';
import { ImportError } from './import-error';
import {
  countsSince,
  IMPORT_KINDS,
  printable,
  SECTION_KINDS,
  type Counts,
  type ImportKind,
  type ImportReport,
  type SectionProgress,
} from './report';

type Started = {
  entry: SectionProgress;
  /** Whether the section is written in one transaction, so that a failure keeps nothing of it. */
  whole: boolean;
  /** The report's counts and notes when the section started, to go back to when it is rolled back. */
  counts: Record<ImportKind, Counts>;
  notes: number;
};

function addCounts(into: Partial<Record<ImportKind, Counts>>, from: Partial<Record<ImportKind, Counts>>) {
  for (const kind of IMPORT_KINDS) {
    const counts = from[kind];
    if (!counts) continue;
    const sum = (into[kind] ??= { new: 0, updated: 0, unchanged: 0, skipped: 0 });
    sum.new += counts.new;
    sum.updated += counts.updated;
    sum.unchanged += counts.unchanged;
    sum.skipped += counts.skipped;
  }
}

const written = (counts: Partial<Record<ImportKind, Counts>>) =>
  Object.values(counts).reduce((sum, c) => sum + c.new + c.updated + c.unchanged, 0);

/**
 * Keeps the report's account of each section of a run: which were committed and with what counts,
 * which one failed and what of it stays, which were not reached. The report's counts hold only what
 * was committed: a batch's counts join them once its transaction has (see mergeReport), and a
 * section loaded in one transaction gives back all of its own when it is rolled back.
 */
export class SectionLog {
  private current: Started | null = null;

  constructor(
    private readonly report: ImportReport,
    parts: { section: string; records: number }[],
  ) {
    report.sections = parts.map((part) => ({ ...part, state: 'not reached', counts: {} }));
  }

  /** A section starts being written. */
  start(section: string): void {
    let entry = this.report.sections.find((candidate) => candidate.section === section);
    if (!entry) {
      entry = { section, state: 'not reached', records: 0, counts: {} };
      this.report.sections.push(entry);
    }
    this.current = {
      entry,
      whole: false,
      counts: structuredClone(this.report.counts),
      notes: this.report.notes.length,
    };
  }

  /** The section being written is written in one transaction. */
  writtenWhole(): void {
    if (this.current) this.current.whole = true;
  }

  /** The section's writes are all committed. */
  commit(): void {
    const current = this.current;
    if (!current) return;
    this.current = null;
    addCounts(current.entry.counts, countsSince(this.report.counts, current.counts));
    current.entry.state = 'committed';
  }

  /** Every section is written: those that held nothing to write too. */
  finish(): void {
    for (const entry of this.report.sections) entry.state = 'committed';
  }

  /**
   * The run stopped: the section under way keeps what its committed batches wrote, or nothing when
   * it was one transaction; the sections before it were committed, those after it not reached.
   */
  stop(reason: string): void {
    const { report } = this;
    const current = this.current;
    this.current = null;
    if (current) {
      const kept = countsSince(report.counts, current.counts);
      if (current.whole || written(kept) === 0) {
        report.counts = current.counts;
        report.notes.length = current.notes;
      } else addCounts(current.entry.counts, kept);
      current.entry.state = written(current.entry.counts) > 0 ? 'partly committed' : 'rolled back';
    }
    const at = current
      ? report.sections.indexOf(current.entry)
      : report.sections.findIndex((entry) => entry.state === 'not reached');
    report.sections.forEach((entry, index) => {
      // A section before the one that stopped and never started held nothing to write.
      if (entry.state === 'not reached' && at >= 0 && index < at) entry.state = 'committed';
    });
    report.stopped = { section: report.sections[at]?.section ?? '', reason };
  }
}

/**
 * The line that says a run stopped: where, why, what stays and what to do. Every text from outside
 * (the database's message quotes values of the export) is made printable.
 */
export function stoppedMessage(report: ImportReport): string {
  const stopped = report.stopped!;
  const where = stopped.section ? ` in ${stopped.section}` : '';
  if (report.dryRun) return `The dry run stopped${where}: ${stopped.reason}. Nothing was changed.`;
  const entry = report.sections.find((candidate) => candidate.section === stopped.section);
  const committed = report.sections.filter((candidate) => candidate.state === 'committed').length;
  const before =
    committed === 0
      ? 'nothing before it was written'
      : `the ${committed} section${committed === 1 ? '' : 's'} before it ${committed === 1 ? 'is' : 'are'} committed`;
  let state = `Nothing of ${stopped.section} was written; ${before}.`;
  if (entry?.state === 'rolled back') state = `${stopped.section} was rolled back; ${before}.`;
  if (entry?.state === 'partly committed') {
    const kind = SECTION_KINDS[entry.section];
    const records = written(kind && entry.counts[kind] ? { [kind]: entry.counts[kind] } : entry.counts);
    state = `${stopped.section} is partly committed (${records} record${records === 1 ? '' : 's'} kept); ${before}.`;
  }
  return `The import stopped${where}: ${stopped.reason}. ${state} Run the same command again to complete the import.`;
}

type DatabaseError = Error & { code: string; severity: string };

function isDatabaseError(error: unknown): error is DatabaseError {
  const fields = error as Partial<DatabaseError> | null;
  return (
    error instanceof Error && typeof fields?.severity === 'string' && /^[0-9A-Z]{5}$/.test(fields.code ?? '')
  );
}

const oneLine = (text: string) => printable(text.replace(/\s*\n\s*/g, ' ').trim());

/**
 * Why a run stopped, in a line for people, and whether it is a failure the import expects (the
 * database refusing a write or going away, a file that cannot be read, the run interrupted): the
 * command prints no stack trace for those. The database driver's own error, not the query wrapped
 * around it (a batch's whole text), gives the reason.
 */
export function describeFailure(error: unknown): { reason: string; expected: boolean } {
  let cause: unknown = error;
  for (let depth = 0; cause instanceof Error && depth < 8; depth++, cause = cause.cause) {
    if (isDatabaseError(cause)) {
      return {
        reason: `the database answered "${oneLine(cause.message)}" (SQLSTATE ${cause.code})`,
        expected: true,
      };
    }
  }
  if (error instanceof ExportStructureError) {
    return { reason: `the export changed while it was read, ${oneLine(error.message)}`, expected: true };
  }
  if (error instanceof ImportError) {
    return { reason: oneLine(error.message), expected: true };
  }
  // System and connection errors (ENOENT, ECONNRESET, CONNECTION_CLOSED) carry a code of their own.
  if (error instanceof Error && typeof (error as { code?: unknown }).code === 'string') {
    return { reason: oneLine(error.message), expected: true };
  }
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return { reason: oneLine(text), expected: false };
}
