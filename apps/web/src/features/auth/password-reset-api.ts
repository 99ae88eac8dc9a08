import { useMutation } from '@tanstack/react-query';
import type { signInResponseSchema } from '@bmet/shared/schemas/auth';
import type { PasswordResetConfirmBody } from '@bmet/shared/schemas/password';
import { apiRequest } from '../../lib/api-client';

/** Sets a new password with a reset link's token; answers a fresh sign-in. */
export function useConfirmPasswordReset() {
  return useMutation({
    mutationFn: (body: PasswordResetConfirmBody) =>
      apiRequest<typeof signInResponseSchema>('POST', '/auth/password-reset/confirm', { body }).then(
        (r) => r.data,
      ),
  });
}
