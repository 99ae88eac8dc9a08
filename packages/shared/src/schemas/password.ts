import { z } from 'zod';
import { m } from '../paraglide/messages.js';
import { emailSchema, envelope } from './common';

/** Asks for a reset link; the answer is the same whether or not an account uses the email. */
export const passwordResetRequestBodySchema = z.object({ email: emailSchema });
export type PasswordResetRequestBody = z.input<typeof passwordResetRequestBodySchema>;

/**
 * Sets a new password with the token of a reset link. The password rules (length, common
 * passwords) are checked on the server, which answers what is needed.
 */
export const passwordResetConfirmBodySchema = z.object({
  /** Any text: what is not a token this server handed out answers 'invalid link'. */
  token: z.string().max(1000),
  password: z.string().max(1024),
});
export type PasswordResetConfirmBody = z.input<typeof passwordResetConfirmBodySchema>;

/**
 * The spec's update-password payload. Either field empty answers the spec's 'Please enter both
 * email and new password.'; the password rules are checked on the server.
 */
export const updatePasswordBodySchema = z
  .object({
    email: z.string().max(254).optional(),
    newPassword: z.string().max(1024).optional(),
  })
  .superRefine((body, ctx) => {
    if (!body.email?.trim() || !body.newPassword) {
      ctx.addIssue({ code: 'custom', message: m.enterEmailAndPassword(), path: [] });
      return;
    }
    if (!emailSchema.safeParse(body.email).success) {
      ctx.addIssue({ code: 'custom', message: m.enterValidEmail(), path: ['email'] });
    }
  })
  .transform((body) => ({ email: emailSchema.parse(body.email), newPassword: body.newPassword! }));
export type UpdatePasswordBody = z.input<typeof updatePasswordBodySchema>;

/**
 * A signed-in user's change of their own password (every role). An empty field, a wrong current
 * password and the password rules are answered by the server per field.
 */
export const changeOwnPasswordBodySchema = z.object({
  currentPassword: z.string().max(1024).default(''),
  newPassword: z.string().max(1024).default(''),
});
export type ChangeOwnPasswordBody = z.input<typeof changeOwnPasswordBodySchema>;

/** The spec's admin list: `{ data: [emails] }`. */
export const adminEmailsResponseSchema = envelope(z.array(z.string()));
