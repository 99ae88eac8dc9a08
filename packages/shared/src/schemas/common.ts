import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, ROLES } from '../constants';
import { m } from '../paraglide/messages.js';
import '../validation-messages';

/** Wraps a payload in the spec's `{ data: ... }` envelope. */
export const envelope = <T extends z.ZodType>(data: T) => z.object({ data: data });

export const roleSchema = z.enum(ROLES);

/** An email address, trimmed and lowercased so that lookups are case-insensitive. */
export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(254)
  .pipe(z.email({ error: () => m.enterValidEmail() }));

/** A new password: length rules here; the common-password check runs on the server. */
export const newPasswordSchema = z
  .string()
  .min(PASSWORD_MIN_LENGTH, { error: () => m.passwordTooShort({ min: PASSWORD_MIN_LENGTH }) })
  .max(PASSWORD_MAX_LENGTH, { error: () => m.passwordTooLong({ max: PASSWORD_MAX_LENGTH }) });

export const idParamSchema = z.object({ id: z.uuid({ error: () => m.notValidId() }) });

export const messageResponseSchema = envelope(z.object({ message: z.string() }));

/**
 * How many records a list matches: counted up to LIST_TOTAL_CAP on the first page (and carried on
 * with the cursor); `totalCapped` says there are at least that many ("10,000+").
 */
export const listTotalShape = {
  total: z.number().int().min(0),
  totalCapped: z.boolean(),
};
