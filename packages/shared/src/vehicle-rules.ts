/** Vehicles' kinds and rules, without zod: the screens read them. */

export const FUELS = ['electric', 'cng', 'petrol', 'diesel'] as const;
export type Fuel = (typeof FUELS)[number];

/** Whose the vehicle is: the driver's own, or the company's (the driver's minimum share differs). */
export const VEHICLE_OWNERS = ['driver', 'company'] as const;
export type VehicleOwner = (typeof VEHICLE_OWNERS)[number];

/** Why a vehicle is not compliant. */
export const VEHICLE_PROBLEMS = ['over_age'] as const;
export type VehicleProblem = (typeof VEHICLE_PROBLEMS)[number];

/**
 * A registration number as stored: capitals and digits only (`MH 12 AB 1234`, `mh-12-ab-1234` and
 * `MH12AB1234` are one vehicle). The database's `vehicle_registration()` does the same.
 */
export function normaliseRegistration(value: string): string {
  return value.replace(/[^A-Za-z0-9]/g, '').toUpperCase();
}

/**
 * A state series number: state code, district (1 or 2 digits), series (1 to 3 letters), 1 to 4
 * digits; or, without a series, a 2-digit district and 4 digits (`KA 05 1234`), so that a number
 * cut short (`MH 12`) is not read as district 1, number 2.
 */
const STATE_SERIES = /^([A-Z]{2})(\d{1,2})([A-Z]{1,3})(\d{1,4})$|^([A-Z]{2})(\d{2})(\d{4})$/;
/** A Bharat series number: the year of registration, BH, 4 digits, 1 or 2 letters. */
const BH_SERIES = /^(\d{2})(BH)(\d{4})([A-Z]{1,2})$/;

/** Whether a normalised number has an Indian form (a state series or the BH series). */
export function isIndianRegistration(normalised: string): boolean {
  return STATE_SERIES.test(normalised) || BH_SERIES.test(normalised);
}

/** A stored number written as on the plate (`MH 12 AB 1234`, `22 BH 1234 AA`); other forms as stored. */
export function formatRegistration(normalised: string): string {
  const parts = BH_SERIES.exec(normalised) ?? STATE_SERIES.exec(normalised);
  return parts ? parts.slice(1).filter(Boolean).join(' ') : normalised;
}

/** Make and model in one, the make said once where the model already starts with it ("Tata Tiago EV"). */
export function makeAndModel(make: string | null, model: string | null): string {
  if (make && model?.toLowerCase().startsWith(`${make.toLowerCase()} `)) return model;
  return [make, model].filter(Boolean).join(' ');
}

/**
 * Whether a vehicle whose age counts from `from` (YYYY-MM-DD) is past a limit of `years` on
 * `today`: the limit's years after it have passed (on the day itself it is still within).
 */
export function isPastAgeLimit(from: string, years: number, today: string): boolean {
  return `${Number(from.slice(0, 4)) + years}${from.slice(4)}` < today;
}
