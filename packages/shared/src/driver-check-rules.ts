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

/**
 * The figures of the checks and vehicles a state may notify for itself (decision 028), each from
 * the day it takes effect; these are the guidelines' defaults.
 */
export type ComplianceFigures = {
  /** Hours of induction training before the first trip. */
  inductionHours: number;
  /** Months a refresher training counts for. */
  refresherMonths: number;
  /** The share of a state's rated drivers, lowest rated first, due remedial training each quarter. */
  remedialSharePercent: number;
  /** Rupees of cover. */
  healthCover: number;
  termCover: number;
  /** A vehicle older than this from first registration is not compliant. */
  vehicleMaxAgeYears: number;
  /** Whether the state exempts electric vehicles from the permit (as most states do today). */
  electricPermitExempt: boolean;
};
export const COMPLIANCE_FIGURE_FIELDS = [
  'inductionHours',
  'refresherMonths',
  'remedialSharePercent',
  'healthCover',
  'termCover',
  'vehicleMaxAgeYears',
] as const satisfies readonly (keyof ComplianceFigures)[];
/** The figures that are amounts (every one but the electric vehicles' permit exemption). */
export type ComplianceFigureField = (typeof COMPLIANCE_FIGURE_FIELDS)[number];

export const COMPLIANCE_FIGURE_DEFAULTS: ComplianceFigures = {
  inductionHours: 40,
  refresherMonths: 12,
  remedialSharePercent: 5,
  healthCover: 500_000,
  termCover: 1_000_000,
  vehicleMaxAgeYears: 8,
  electricPermitExempt: false,
};

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
