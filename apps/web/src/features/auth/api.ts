import { useMutation } from '@tanstack/react-query';
import type { SignInBody } from '@bmet/shared/schemas/auth';
import type { signInResponseSchema } from '@bmet/shared/schemas/auth';
import type { PasswordResetConfirmBody } from '@bmet/shared/schemas/password';
import { apiRequest } from '../../lib/api-client';

export function useSignIn() {
  return useMutation({
    mutationFn: (body: SignInBody) =>
      apiRequest<typeof signInResponseSchema>('POST', '/auth/sign-in', { body }).then((r) => r.data),
  });
}

/** Sets a new password with a reset link's token; answers a fresh sign-in. */
export function useConfirmPasswordReset() {
  return useMutation({
    mutationFn: (body: PasswordResetConfirmBody) =>
      apiRequest<typeof signInResponseSchema>('POST', '/auth/password-reset/confirm', { body }).then(
        (r) => r.data,
      ),
  });
}
