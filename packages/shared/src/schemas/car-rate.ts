import { z } from 'zod';
import { CAR_TYPES, RATE_FIELDS, STATES, type CarType, type RateField } from '../constants';
import { m } from '../paraglide/messages.js';
import { envelope } from './common';

/**
 * Upper bounds of the rate values. Money fields are rupees: the dearest real tariffs are about
 * ₹100 base and ₹20 per km, so ₹1,00,000 leaves room for any tariff while refusing a stray paste
 * or a few extra zeros that would price every ride of a state absurdly. rushHour multiplies the
 * fare at peak times (1.1 to 1.4 in the original data): ten times is already beyond any surge.
 */
export const RATE_MONEY_MAX = 100_000;
export const RUSH_HOUR_MAX = 10;

/** The largest value each rate field accepts; every field must also be zero or more. */
export const RATE_FIELD_MAX: Record<RateField, number> = {
  per_km: RATE_MONEY_MAX,
  basePrice: RATE_MONEY_MAX,
  nightCharge: RATE_MONEY_MAX,
  waitingCharge: RATE_MONEY_MAX,
  rushHour: RUSH_HOUR_MAX,
  surCharges: RATE_MONEY_MAX,
  extra: RATE_MONEY_MAX,
};

/** One of the 30 states, lowercase (an enum reports a missing value as an invalid one). */
export const stateSchema = z.enum(STATES, {
  error: (issue) => (issue.input === undefined ? m.fieldRequired() : m.unknownState()),
});

/** A finite number from 0 to the field's bound (JSON cannot carry NaN; 1e309 parses as Infinity). */
const rateValue = (field: RateField) => z.number().min(0).max(RATE_FIELD_MAX[field]);

const shapeOf = <T extends z.ZodType>(make: (field: RateField) => T) =>
  Object.fromEntries(RATE_FIELDS.map((field) => [field, make(field)])) as Record<RateField, T>;

/** The seven values of a rate set as sent by an admin: all required, all in bounds. */
export const rateValuesInputSchema = z.strictObject(shapeOf(rateValue));
export type RateValuesInput = z.infer<typeof rateValuesInputSchema>;

/** A stored version of a rate set; every change to the set increases it by one. */
export const rateVersionSchema = z.number().int().min(1);

/**
 * One car type's rates in an update. `version` is the version the admin's values were based on:
 * required to change an existing set, absent to add a car type the state does not have yet.
 */
export const rateSetInputSchema = rateValuesInputSchema.extend({ version: rateVersionSchema.optional() });
export type RateSetInput = z.infer<typeof rateSetInputSchema>;

/** The spec's PUT body: keyed by car type, at least one, no other keys. */
export const updateRatesBodySchema = z
  .strictObject(
    Object.fromEntries(CAR_TYPES.map((type) => [type, rateSetInputSchema.optional()])) as Record<
      CarType,
      z.ZodOptional<typeof rateSetInputSchema>
    >,
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? m.unknownCarTypes({ count: issue.keys.length, keys: issue.keys.join(', ') })
          : undefined,
    },
  )
  .refine((body) => Object.values(body).some(Boolean), {
    error: () => m.noRatesSent(),
    // Only worth saying when nothing else is wrong (an unknown car type alone also leaves none).
    when: (payload) => payload.issues.length === 0,
  });
export type UpdateRatesBody = z.infer<typeof updateRatesBodySchema>;

export const stateParamsSchema = z.object({ state: stateSchema });

/** Stored values may be empty (data imported from the original apps), hence nullable. */
export const rateValuesSchema = z.object(shapeOf(() => z.number().nullable()));
export type RateValues = z.infer<typeof rateValuesSchema>;

/** A stored rate set with the spec's fields and its version. */
export const rateSetSchema = rateValuesSchema.extend({ version: rateVersionSchema });
export type RateSet = z.infer<typeof rateSetSchema>;

/** The rate sets of one state, keyed by car type (only the types the state has). */
export const stateRatesSchema = z.partialRecord(z.enum(CAR_TYPES), rateSetSchema);
export type StateRates = z.infer<typeof stateRatesSchema>;

/** The spec's `{ data: { state: { carType: { per_km, ... } } } }`; states without rates are absent. */
export const allRatesResponseSchema = envelope(z.partialRecord(z.enum(STATES), stateRatesSchema));
export type AllRates = z.infer<typeof allRatesResponseSchema>['data'];

/** An update or a copy answers the state's rates as stored after it. */
export const stateRatesResponseSchema = envelope(stateRatesSchema);

/** Copies every rate set of one state onto another (the target's other car types stay). */
export const copyRatesBodySchema = z
  .strictObject({ from: stateSchema, to: stateSchema })
  .refine((body) => body.from !== body.to, { error: () => m.copyToSameState(), path: ['to'] });
export type CopyRatesBody = z.infer<typeof copyRatesBodySchema>;

/**
 * Brings one car type's rates back to the values of an earlier version, saved as a new version.
 * `version` is the current version the admin saw: when the set has changed since, 409.
 */
export const restoreRatesBodySchema = z
  .strictObject({
    carType: z.enum(CAR_TYPES),
    /** The earlier version whose values come back. */
    restoreVersion: rateVersionSchema,
    version: rateVersionSchema,
  })
  .refine((body) => body.restoreVersion < body.version, {
    error: () => m.ratesRestoreNotEarlier(),
    path: ['restoreVersion'],
    when: (payload) => payload.issues.length === 0,
  });
export type RestoreRatesBody = z.infer<typeof restoreRatesBodySchema>;

export const RATE_CHANGE_ACTIONS = ['create', 'update', 'copy', 'restore'] as const;
export type RateChangeAction = (typeof RATE_CHANGE_ACTIONS)[number];

export const rateHistoryQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().max(500).optional(),
});
export type RateHistoryQuery = z.input<typeof rateHistoryQuerySchema>;

/** One change of one rate set: who, when, the values before (none when created) and after. */
export const rateHistoryEntrySchema = z.object({
  id: z.number().int(),
  state: z.enum(STATES),
  carType: z.enum(CAR_TYPES),
  action: z.enum(RATE_CHANGE_ACTIONS),
  version: rateVersionSchema,
  before: rateValuesSchema.nullable(),
  after: rateValuesSchema,
  /** The state the values were copied from, for a copy. */
  copiedFrom: z.enum(STATES).nullable(),
  changedAt: z.string(),
  /** The author's display name, or email when there is none. */
  changedBy: z.object({ id: z.uuid(), name: z.string() }).nullable(),
  /** 'firebase' for a change read from the apps' Firebase database (no person made it here). */
  source: z.enum(['firebase']).nullable(),
});
export type RateHistoryEntry = z.infer<typeof rateHistoryEntrySchema>;

/** A state's changes, newest first, a page at a time. */
export const rateHistoryResponseSchema = z.object({
  data: z.array(rateHistoryEntrySchema),
  nextCursor: z.string().nullable(),
});
export type RateHistoryResponse = z.infer<typeof rateHistoryResponseSchema>;
