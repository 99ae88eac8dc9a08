/** What the import counts, in the order the report lists them. */
export const IMPORT_KINDS = [
  'staffAccounts',
  'dealers',
  'franchises',
  'drivers',
  'documents',
  'ratings',
  'bookingHistory',
  'walletEntries',
  'customers',
  'trips',
  'tripMessages',
  'rates',
] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

const KIND_LABELS: Record<ImportKind, string> = {
  staffAccounts: 'Staff accounts',
  dealers: 'City dealers',
  franchises: 'Franchises',
  drivers: 'Drivers',
  documents: 'Documents and images',
  ratings: 'Ratings',
  bookingHistory: 'Booking history',
  walletEntries: 'Wallet entries',
  customers: 'Customers',
  trips: 'Trips',
  tripMessages: 'Trip messages',
  rates: 'Rates',
};

export type Counts = { new: number; updated: number; unchanged: number; skipped: number };

/**
 * skipped: not imported. repaired: imported with something read or left out (said how).
 * listed: imported as it was, and worth a person's attention (staff without a password, say).
 */
export type Note = {
  kind: ImportKind;
  key: string;
  action: 'skipped' | 'repaired' | 'listed';
  reason: string;
};

export type ImportReport = {
  dryRun: boolean;
  counts: Record<ImportKind, Counts>;
  notes: Note[];
  /** Seconds spent on each section of the database export, reading and writing. */
  sectionSeconds: Record<string, number>;
  seconds?: number;
};

export function createReport(dryRun: boolean): ImportReport {
  const counts = Object.fromEntries(
    IMPORT_KINDS.map((kind) => [kind, { new: 0, updated: 0, unchanged: 0, skipped: 0 }]),
  ) as Record<ImportKind, Counts>;
  return { dryRun, counts, notes: [], sectionSeconds: {} };
}

export function skip(report: ImportReport, kind: ImportKind, key: string, reason: string): void {
  report.counts[kind].skipped++;
  report.notes.push({ kind, key, action: 'skipped', reason });
}

export function note(
  report: ImportReport,
  kind: ImportKind,
  key: string,
  action: 'repaired' | 'listed',
  reason: string,
) {
  report.notes.push({ kind, key, action, reason });
}

/** Adds what one write answered: which keys it inserted and which it changed; the rest were equal. */
export function countWrite(
  report: ImportReport,
  kind: ImportKind,
  keys: readonly string[],
  written: { inserted: ReadonlySet<string>; updated: ReadonlySet<string> },
): void {
  const counts = report.counts[kind];
  counts.new += written.inserted.size;
  counts.updated += written.updated.size;
  counts.unchanged += keys.length - written.inserted.size - written.updated.size;
}

/** The report as people read it in a terminal. */
export function formatReport(report: ImportReport): string {
  const pad = (text: string | number, width: number) => String(text).padStart(width);
  const lines = [
    report.dryRun ? 'Dry run: nothing was changed. This is what the import would do.' : 'Import finished.',
    '',
    `${'Kind'.padEnd(22)}${pad('new', 10)}${pad('updated', 10)}${pad('unchanged', 11)}${pad('skipped', 10)}`,
  ];
  for (const kind of IMPORT_KINDS) {
    const c = report.counts[kind];
    lines.push(
      `${KIND_LABELS[kind].padEnd(22)}${pad(c.new, 10)}${pad(c.updated, 10)}${pad(c.unchanged, 11)}${pad(c.skipped, 10)}`,
    );
  }
  for (const action of ['skipped', 'repaired', 'listed'] as const) {
    const notes = report.notes.filter((entry) => entry.action === action);
    if (notes.length === 0) continue;
    lines.push('', `${action[0]!.toUpperCase()}${action.slice(1)} (${notes.length}):`);
    for (const entry of notes) lines.push(`  ${KIND_LABELS[entry.kind]} ${entry.key}: ${entry.reason}`);
  }
  if (report.seconds !== undefined) lines.push('', `Took ${report.seconds.toFixed(1)} s.`);
  return lines.join('\n');
}
