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

/**
 * committed: written whole. partly committed: the batches written before the failure stay, the
 * rest not. rolled back: nothing of it stays. not reached: the run stopped before it.
 */
export type SectionState = 'committed' | 'partly committed' | 'rolled back' | 'not reached';

/** What a run left of one part of the import, in the order the parts are written. */
export type SectionProgress = {
  /** STAFF_SECTION, a node of the database export (city_dealer, driver, trips...), or LINKS_SECTION. */
  section: string;
  state: SectionState;
  /** Records the export holds in it (staff users of the Authentication export, for STAFF_SECTION). */
  records: number;
  /** What this run wrote of it and kept, by kind. */
  counts: Partial<Record<ImportKind, Counts>>;
};

/** The staff accounts of the Authentication export, written first. */
export const STAFF_SECTION = 'staff';
/** Each franchise linked to its city dealer, once every account exists: the last step. */
export const LINKS_SECTION = 'dealer links';

export type ImportReport = {
  dryRun: boolean;
  /** What the run wrote and kept (a section rolled back counts for nothing), and what it skipped. */
  counts: Record<ImportKind, Counts>;
  notes: Note[];
  /** Seconds spent on each section of the database export, reading and writing. */
  sectionSeconds: Record<string, number>;
  sections: SectionProgress[];
  /** Set when the run stopped before its end: in which section, and why. */
  stopped?: { section: string; reason: string };
  seconds?: number;
};

const zeroCounts = (): Counts => ({ new: 0, updated: 0, unchanged: 0, skipped: 0 });

export function createReport(dryRun: boolean): ImportReport {
  const counts = Object.fromEntries(IMPORT_KINDS.map((kind) => [kind, zeroCounts()])) as Record<
    ImportKind,
    Counts
  >;
  return { dryRun, counts, notes: [], sectionSeconds: {}, sections: [] };
}

/** Adds what a part of the run wrote (a batch whose transaction committed) to the run's report. */
export function mergeReport(into: ImportReport, from: ImportReport): void {
  for (const kind of IMPORT_KINDS) {
    const counts = into.counts[kind];
    counts.new += from.counts[kind].new;
    counts.updated += from.counts[kind].updated;
    counts.unchanged += from.counts[kind].unchanged;
    counts.skipped += from.counts[kind].skipped;
  }
  // One at a time: a batch of thousands of records can hold more notes than a call takes arguments.
  for (const entry of from.notes) into.notes.push(entry);
}

/** The counts of `now` less those of `before`, for the kinds that moved. */
export function countsSince(
  now: Record<ImportKind, Counts>,
  before: Record<ImportKind, Counts>,
): Partial<Record<ImportKind, Counts>> {
  const moved: Partial<Record<ImportKind, Counts>> = {};
  for (const kind of IMPORT_KINDS) {
    const counts = {
      new: now[kind].new - before[kind].new,
      updated: now[kind].updated - before[kind].updated,
      unchanged: now[kind].unchanged - before[kind].unchanged,
      skipped: now[kind].skipped - before[kind].skipped,
    };
    if (counts.new || counts.updated || counts.unchanged || counts.skipped) moved[kind] = counts;
  }
  return moved;
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

/** The kind of the records each section holds (the others are parts of them). */
export const SECTION_KINDS: Record<string, ImportKind> = {
  [STAFF_SECTION]: 'staffAccounts',
  city_dealer: 'dealers',
  franchise: 'franchises',
  driver: 'drivers',
  customer: 'customers',
  trips: 'trips',
  state: 'rates',
};

const SECTION_LABELS: Record<string, string> = {
  [STAFF_SECTION]: 'Staff accounts of the Authentication export',
  [LINKS_SECTION]: 'Franchises linked to their city dealers',
};

/** How a section is named in the summary: the export's own node name (driver, trips...). */
export function sectionLabel(section: string): string {
  return SECTION_LABELS[section] ?? section;
}

/**
 * A text from the export as a terminal can show it: control characters (an escape sequence in a
 * hostile key could rewrite the lines above it, a line break forge a line) and the marks that
 * reorder what follows written as \uXXXX.
 */
export function printable(text: string): string {
  return text.replace(
    /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

function describeCounts(counts: Partial<Record<ImportKind, Counts>>): string {
  const parts = IMPORT_KINDS.flatMap((kind) => {
    const c = counts[kind];
    if (!c) return [];
    const figures = (['new', 'updated', 'unchanged', 'skipped'] as const)
      .filter((name) => c[name] > 0)
      .map((name) => `${c[name]} ${name}`);
    return [`${KIND_LABELS[kind].toLowerCase()} ${figures.join(', ')}`];
  });
  return parts.length ? parts.join('; ') : 'nothing to write';
}

/**
 * Where a run that stopped got to, section by section: what it committed (with its counts), the
 * section that failed and what of it stays, and what it did not reach.
 */
export function formatSections(report: ImportReport): string {
  const states: Record<SectionState, string> = report.dryRun
    ? {
        committed: 'Done',
        'partly committed': 'Stopped',
        'rolled back': 'Stopped',
        'not reached': 'Not reached',
      }
    : {
        committed: 'Committed',
        'partly committed': 'Partly committed',
        'rolled back': 'Rolled back',
        'not reached': 'Not reached',
      };
  const width = Math.max(...report.sections.map((entry) => states[entry.state].length)) + 2;
  const lines: string[] = [];
  for (const entry of report.sections) {
    const records =
      entry.section === LINKS_SECTION ? '' : ` (${entry.records} record${entry.records === 1 ? '' : 's'})`;
    let what = '';
    if (entry.state === 'committed' || entry.state === 'partly committed') {
      what = `: ${describeCounts(entry.counts)}`;
    }
    if (entry.state === 'partly committed') what += '; the rest was rolled back';
    if (entry.state === 'rolled back' && !report.dryRun) what = ': nothing of it was kept';
    lines.push(`  ${states[entry.state].padEnd(width)}${sectionLabel(entry.section)}${records}${what}`);
  }
  return lines.join('\n');
}

/** The report as people read it in a terminal. */
export function formatReport(report: ImportReport): string {
  const pad = (text: string | number, width: number) => String(text).padStart(width);
  const heading = report.stopped
    ? [
        report.dryRun
          ? `Dry run stopped in ${report.stopped.section}: nothing was changed.`
          : `Import stopped in ${report.stopped.section}. What this run left in the database:`,
        formatSections(report),
        ...(report.dryRun
          ? []
          : [
              '',
              'Run the same command again to complete the import: what is committed is found by its',
              'Firebase keys and left as it is, and nothing is written twice.',
              '',
              'Written and kept by this run:',
            ]),
      ]
    : [
        report.dryRun
          ? 'Dry run: nothing was changed. This is what the import would do.'
          : 'Import finished.',
      ];
  const lines = [
    ...heading,
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
    for (const entry of notes) {
      lines.push(`  ${KIND_LABELS[entry.kind]} ${printable(entry.key)}: ${printable(entry.reason)}`);
    }
  }
  if (report.seconds !== undefined) lines.push('', `Took ${report.seconds.toFixed(1)} s.`);
  return lines.join('\n');
}
