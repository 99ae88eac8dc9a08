import { z } from 'zod';
import { CAR_TYPES, STATES } from '../constants';
import { m } from '../paraglide/messages.js';
import { calendarDaySchema, envelope } from './common';
import { stateSchema } from './car-rate';

/**
 * A state's fare rules for one car type, as the Motor Vehicle Aggregator Guidelines (2020, revised
 * 2025) ask: the fare the state notified, the band the aggregator's fares must stay in (multiples
 * of the notified fare), the cancellation fee and the driver's minimum share. Amounts are rupees,
 * shares and the fee percent.
 */
export const FARE_RULE_FIELDS = [
  'notifiedBaseFare',
  'notifiedPerKm',
  'maxMultiple',
  'minMultiple',
  'cancellationPercent',
  'cancellationCap',
  'driverShareOwnVehicle',
  'driverShareCompanyVehicle',
] as const;
export type FareRuleField = (typeof FARE_RULE_FIELDS)[number];

const money = () => z.number().min(0).max(100_000);
const percent = () => z.number().min(0).max(100);

/** One car type's rules as an admin sends them: every field, in bounds, the band around 1. */
export const fareRuleInputSchema = z
  .strictObject({
    notifiedBaseFare: money(),
    notifiedPerKm: money(),
    maxMultiple: z.number().min(1).max(10),
    minMultiple: z.number().min(0).max(1),
    cancellationPercent: percent(),
    cancellationCap: money(),
    driverShareOwnVehicle: percent(),
    driverShareCompanyVehicle: percent(),
  })
  .refine((rule) => rule.minMultiple <= rule.maxMultiple, {
    error: () => m.fareBandReversed(),
    path: ['minMultiple'],
  });
export type FareRuleInput = z.infer<typeof fareRuleInputSchema>;

/** `PUT /api/fare-rules/{state}`: the rules of some car types, from a day on. */
export const putFareRulesBodySchema = z.strictObject({
  effectiveFrom: calendarDaySchema(() => m.fareRulesDateInvalid()),
  rules: z
    .partialRecord(z.enum(CAR_TYPES), fareRuleInputSchema)
    .refine((rules) => Object.keys(rules).length > 0, { error: () => m.noFareRulesSent() }),
});
export type PutFareRulesBody = z.infer<typeof putFareRulesBodySchema>;

export const fareRulesParamsSchema = z.object({ state: stateSchema });

/**
 * A car type's rules in effect: notified fares may be unknown (null: no band is checked until the
 * state's are entered); `effectiveFrom` null for the guidelines' defaults, never saved here.
 */
export const fareRuleSchema = z.object({
  notifiedBaseFare: z.number().nullable(),
  notifiedPerKm: z.number().nullable(),
  maxMultiple: z.number(),
  minMultiple: z.number(),
  cancellationPercent: z.number(),
  cancellationCap: z.number(),
  driverShareOwnVehicle: z.number(),
  driverShareCompanyVehicle: z.number(),
  effectiveFrom: z.string().nullable(),
});
export type FareRule = z.infer<typeof fareRuleSchema>;

/** Rules saved to take effect on a later day. */
export const scheduledFareRulesSchema = z.object({
  effectiveFrom: z.string(),
  rules: z.partialRecord(z.enum(CAR_TYPES), fareRuleSchema),
});

export const stateFareRulesSchema = z.object({
  state: z.enum(STATES),
  /** Every car type, in effect today (India's date). */
  rules: z.record(z.enum(CAR_TYPES), fareRuleSchema),
  scheduled: z.array(scheduledFareRulesSchema),
});
export type StateFareRules = z.infer<typeof stateFareRulesSchema>;

export const fareRulesResponseSchema = envelope(z.array(stateFareRulesSchema));
export const stateFareRulesResponseSchema = envelope(stateFareRulesSchema);

/** `?overrideReason=` on a rate save: an admin keeps rates outside the band, and says why. */
export const overrideQuerySchema = z.object({
  overrideReason: z
    .string()
    .trim()
    .min(5, { error: () => m.overrideReasonShort({ min: 5 }) })
    .max(500)
    .optional(),
});

/** A rate outside its band today. */
export const outOfBandRateSchema = z.object({
  state: z.enum(STATES),
  carType: z.enum(CAR_TYPES),
  field: z.enum(['basePrice', 'per_km']),
  value: z.number(),
  /** The rush-hour multiplier the rate is charged at, at most (1 when there is none). */
  rushHour: z.number(),
  allowedMin: z.number(),
  allowedMax: z.number(),
  /** 'firebase' when the apps' database set the rate (kept: it is what the apps charge). */
  source: z.enum(['console', 'firebase']),
});
export type OutOfBandRate = z.infer<typeof outOfBandRateSchema>;

/** A driver whose commission in a month took more than their minimum share allows. */
export const commissionOverCapSchema = z.object({
  driverId: z.uuid(),
  driverName: z.string(),
  state: z.enum(STATES).nullable(),
  month: z.string(),
  fares: z.number(),
  commission: z.number(),
  /** The share of the fares commission may take, in percent (100 - the driver's minimum share). */
  capPercent: z.number(),
});
export type CommissionOverCap = z.infer<typeof commissionOverCapSchema>;

export const fareReportQuerySchema = z.object({
  month: z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, { error: () => m.fareMonthInvalid() })
    .optional(),
});

export const fareReportResponseSchema = envelope(
  z.object({
    day: z.string(),
    month: z.string(),
    rates: z.array(outOfBandRateSchema),
    commission: z.array(commissionOverCapSchema),
  }),
);
export type FareReport = z.infer<typeof fareReportResponseSchema>['data'];
