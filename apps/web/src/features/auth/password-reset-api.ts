import { useMutation } from '@tanstack/react-query';
import type { PasswordResetConfirmBody } from '@bmet/shared/schemas/password';
import type { signInStepResponseSchema } from '@bmet/shared/schemas/second-factor';
import { apiRequest } from '../../lib/api-client';

/**
 * Sets a new password with a reset link's token; answers a fresh sign-in, or the second step when
 * the account has a second factor (the mailbox and the new password are one factor).
 */
export function useConfirmPasswordReset() {
  return useMutation({
    mutationFn: (body: PasswordResetConfirmBody) =>
      apiRequest<typeof signInStepResponseSchema>('POST', '/auth/password-reset/confirm', { body }).then(
        (r) => r.data,
      ),
  });
}
