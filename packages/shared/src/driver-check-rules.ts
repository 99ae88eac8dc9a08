/** The driver checks' kinds and rules, without zod: the driver dashboard reads them. */

/**
 * The checks the Motor Vehicle Aggregator Guidelines (2025) ask of every driver, beside the
 * documents: police verification, medical and psychological fitness, training (induction before
 * the first trip, a refresher each year, remedial training each quarter for the lowest-rated), and
 * health and term insurance of a minimum cover.
 */
export const DRIVER_CHECK_KINDS = [
  'police_verification',
  'medical_fitness',
  'induction_training',
  'refresher_training',
  'remedial_training',
  'health_insurance',
  'term_insurance',
] as const;
export type DriverCheckKind = (typeof DRIVER_CHECK_KINDS)[number];

/** The guidelines' figures (decision 028): a state may notify others. */
export const DRIVER_CHECK_RULES = {
  /** Hours of induction training before the first trip. */
  inductionHours: 40,
  /** Months a refresher training counts for. */
  refresherMonths: 12,
  /** The share of a state's drivers, lowest rated first, due remedial training each quarter. */
  remedialShare: 0.05,
  /** Rupees of cover. */
  healthCover: 500_000,
  termCover: 1_000_000,
} as const;

/** What each kind records: a result (passed or failed), hours, or an amount of cover. */
export const CHECK_MEASURE: Record<DriverCheckKind, 'result' | 'hours' | 'amount'> = {
  police_verification: 'result',
  medical_fitness: 'result',
  induction_training: 'hours',
  refresher_training: 'hours',
  remedial_training: 'hours',
  health_insurance: 'amount',
  term_insurance: 'amount',
};

/** Kinds that lapse on a date the staff enter (insurance, verifications); trainings lapse by rule. */
export const CHECK_EXPIRES: Record<DriverCheckKind, boolean> = {
  police_verification: true,
  medical_fitness: true,
  induction_training: false,
  refresher_training: false,
  remedial_training: false,
  health_insurance: true,
  term_insurance: true,
};

export const CHECK_STATUSES = [
  'valid',
  'missing',
  'failed',
  'expired',
  'insufficient',
  'due',
  'not_due',
] as const;
export type CheckStatus = (typeof CHECK_STATUSES)[number];
