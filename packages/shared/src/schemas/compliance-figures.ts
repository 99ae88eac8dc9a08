import { z } from 'zod';
import { STATES } from '../constants';
import { m } from '../paraglide/messages.js';
import { calendarDaySchema, envelope } from './common';

/** The figures of a state's checks and vehicles (decision 028), as an admin sends them. */
export const complianceFiguresSchema = z.strictObject({
  inductionHours: z.number().min(0).max(500),
  refresherMonths: z.number().int().min(1).max(120),
  remedialSharePercent: z.number().min(0).max(100),
  healthCover: z.number().min(0).max(100_000_000),
  termCover: z.number().min(0).max(100_000_000),
  vehicleMaxAgeYears: z.number().int().min(1).max(50),
  /** Whether electric vehicles need no permit in the state; not exempt when left out. */
  electricPermitExempt: z.boolean().default(false),
});

/** `PUT /api/compliance-figures/{state}`: every figure, from a day on. */
export const putComplianceFiguresBodySchema = z.strictObject({
  effectiveFrom: calendarDaySchema(() => m.fareRulesDateInvalid()),
  figures: complianceFiguresSchema,
});
export type PutComplianceFiguresBody = z.infer<typeof putComplianceFiguresBodySchema>;

/** A state's figures in effect (`effectiveFrom` null: the guidelines' defaults) and those saved for later days. */
export const stateComplianceFiguresSchema = z.object({
  state: z.enum(STATES),
  figures: complianceFiguresSchema,
  effectiveFrom: z.string().nullable(),
  scheduled: z.array(z.object({ effectiveFrom: z.string(), figures: complianceFiguresSchema })),
});
export type StateComplianceFigures = z.infer<typeof stateComplianceFiguresSchema>;

export const complianceFiguresResponseSchema = envelope(z.array(stateComplianceFiguresSchema));
export const stateComplianceFiguresResponseSchema = envelope(stateComplianceFiguresSchema);
