/** The console's languages: English (the default) and Hindi. */
export const LANGUAGES = ['en', 'hi'] as const;
export type Language = (typeof LANGUAGES)[number];

/** The three staff roles, in the order the sign-in tabs show them. */
export const ROLES = ['admin', 'city_dealer', 'franchise'] as const;
export type Role = (typeof ROLES)[number];

/** The 30 supported states, lowercase, in the spec's order. */
export const STATES = [
  'andhra pradesh',
  'arunachal pradesh',
  'assam',
  'bihar',
  'chandigarh',
  'chhattisgarh',
  'delhi',
  'goa',
  'gujarat',
  'haryana',
  'himachal pradesh',
  'jharkhand',
  'karnataka',
  'kerala',
  'madhya pradesh',
  'maharashtra',
  'manipur',
  'meghalaya',
  'mizoram',
  'nagaland',
  'odisha',
  'punjab',
  'rajasthan',
  'sikkim',
  'tamil nadu',
  'telangana',
  'tripura',
  'uttar pradesh',
  'uttarakhand',
  'west bengal',
] as const;
export type State = (typeof STATES)[number];

/** Car types known to the customer and driver apps, with their labels. */
export const CAR_TYPES = ['mini', 'sedan', 'suv', 'erickshaw', 'auto'] as const;
export type CarType = (typeof CAR_TYPES)[number];

/** The ten driver document keys, spelled as the driver app stores them (vehcileAudit included). */
export const DOCUMENT_KEYS = [
  'aadharCard',
  'addressProof',
  'driverLicence',
  'fitnessCertificate',
  'identityDetail',
  'panCard',
  'pollutionCertificate',
  'rcCertificate',
  'vehcileAudit',
  'vehiclePermit',
] as const;

/**
 * Every document stored: the spec's ten and the vehicle's insurance, which the driver app uploads
 * (`vehicleInsurance`) and the vehicle's page shows (decision 030).
 */
export const STORED_DOCUMENT_KEYS = [...DOCUMENT_KEYS, 'vehicleInsurance'] as const;
export type DocumentKey = (typeof STORED_DOCUMENT_KEYS)[number];

/**
 * The documents of the vehicle rather than of its driver: they travel with the vehicle from driver
 * to driver, and the driver's page shows those of the vehicle they drive now (decision 030).
 */
export const VEHICLE_DOCUMENT_KEYS = [
  'rcCertificate',
  'fitnessCertificate',
  'vehiclePermit',
  'pollutionCertificate',
  'vehicleInsurance',
] as const satisfies readonly DocumentKey[];
export type VehicleDocumentKey = (typeof VEHICLE_DOCUMENT_KEYS)[number];

/** Trip lifecycle, derived from the driver app's flags. */
export const TRIP_STATUSES = ['requested', 'assigned', 'started', 'completed', 'cancelled'] as const;
export type TripStatus = (typeof TRIP_STATUSES)[number];

/** The rate fields of one car type in one state. */
export const RATE_FIELDS = [
  'per_km',
  'basePrice',
  'nightCharge',
  'waitingCharge',
  'rushHour',
  'surCharges',
  'extra',
] as const;
export type RateField = (typeof RATE_FIELDS)[number];

/** Where the map centres when a driver has no known position. */
/** Lists count their matches up to this; beyond it they say "10,000+" instead of counting on. */
export const LIST_TOTAL_CAP = 10_000;

export const DEFAULT_LOCATION = { lat: 20, long: 20 } as const;
export const DEFAULT_COUNTRY = 'India';

/** Session storage keys the spec names. */
export const SESSION_KEYS = {
  idToken: 'idToken',
  expirationTime: 'expirationTime',
  currentClaim: 'currentClaim',
} as const;

/** Password rules: length only, plus a refusal of common passwords (checked on the server). */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

export const WELCOME_ANIMATION_MS = 6000;

/** The dashboard counts a driver as active now when its last position is at most this old. */
export const ACTIVE_DRIVER_MINUTES = 10;
/** The longest period the dashboard answers for, in days. */
export const STATS_MAX_DAYS = 366;
/**
 * The days a date or a moment sent to the API may fall on (as written, before its offset). Far
 * enough inside what JavaScript's four-digit ISO dates and PostgreSQL hold that the day after the
 * last one, or either end moved to India's time or to any offset, is still a day both can read.
 */
export const DAY_RANGE = { first: '1900-01-01', last: '2999-12-31' } as const;
/**
 * The offsets from UTC a moment sent to the API may carry: those in use anywhere. ISO 8601 allows
 * up to ±23:59, but PostgreSQL reads no more than ±15:59.
 */
export const OFFSET_RANGE = { first: '-12:00', last: '+14:00' } as const;
export const LOCATION_POLL_MS = 5000;

/** Review states of a driver's document. */
export const DOCUMENT_STATUSES = ['not_submitted', 'submitted', 'approved', 'rejected'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

/** Document images accepted from staff uploads. */
export const DOCUMENT_IMAGE_TYPES = ['image/jpeg', 'image/png'] as const;
export const DOCUMENT_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
