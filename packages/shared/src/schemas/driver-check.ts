import { z } from 'zod';
import { m } from '../paraglide/messages.js';
import { calendarDaySchema, envelope } from './common';
import { CHECK_STATUSES, DRIVER_CHECK_KINDS } from '../driver-check-rules';

export const driverCheckParamsSchema = z.object({
  id: z.uuid({ error: () => m.notFound() }),
  kind: z.enum(DRIVER_CHECK_KINDS),
});

const day = () => calendarDaySchema(() => m.checkDateInvalid());

/** `PUT /api/drivers/driver/{id}/checks/{kind}`: the check as done; what its kind needs is required. */
export const putDriverCheckBodySchema = z.strictObject({
  /** The day of the check, the training, or the policy's start. */
  doneOn: day(),
  reference: z
    .string()
    .trim()
    .min(1, { error: () => m.checkReferenceRequired() })
    .max(200),
  result: z.enum(['passed', 'failed']).optional(),
  hours: z.number().min(0).max(1000).optional(),
  /** Rupees of cover. */
  amount: z.number().min(0).max(1_000_000_000).optional(),
  expiresOn: day().optional(),
});
export type PutDriverCheckBody = z.infer<typeof putDriverCheckBodySchema>;

export const driverCheckSchema = z.object({
  kind: z.enum(DRIVER_CHECK_KINDS),
  status: z.enum(CHECK_STATUSES),
  doneOn: z.string().nullable(),
  reference: z.string().nullable(),
  result: z.enum(['passed', 'failed']).nullable(),
  hours: z.number().nullable(),
  amount: z.number().nullable(),
  /** Entered (insurance, verifications) or by rule (a refresher a year after it was done). */
  expiresOn: z.string().nullable(),
  updatedAt: z.string().nullable(),
});
export type DriverCheck = z.infer<typeof driverCheckSchema>;

export const driverChecksResponseSchema = envelope(z.array(driverCheckSchema));
export const driverCheckResponseSchema = envelope(driverCheckSchema);
