import { z } from 'zod';
import { m } from '../paraglide/messages.js';
import { LANGUAGES, PASSWORD_MAX_LENGTH, STATES } from '../constants';
import { emailSchema, envelope, roleSchema } from './common';

/** Sign-in: the role is the tab the user chose. */
export const signInBodySchema = z.object({
  email: emailSchema,
  password: z
    .string()
    .min(1, { error: () => m.enterPassword() })
    .max(PASSWORD_MAX_LENGTH),
  role: roleSchema,
});
export type SignInBody = z.infer<typeof signInBodySchema>;

export const signInResponseSchema = envelope(
  z.object({
    idToken: z.string(),
    /** Expiry as milliseconds since the epoch. */
    expirationTime: z.number().int(),
    role: roleSchema,
    /** The language the account chose, to show the console in at once; null if it never chose. */
    language: z.enum(LANGUAGES).nullable(),
  }),
);
export type SignInResponse = z.infer<typeof signInResponseSchema>;

export const currentUserSchema = z.object({
  uid: z.uuid(),
  displayName: z.string().nullable(),
  email: z.string(),
  role: roleSchema,
  state: z.enum(STATES).nullable(),
  language: z.enum(LANGUAGES).nullable(),
});
export type CurrentUser = z.infer<typeof currentUserSchema>;

export const meResponseSchema = envelope(currentUserSchema);
