import { useMutation } from '@tanstack/react-query';
import type { SignInBody } from '@bmet/shared/schemas/auth';
import { signInResponseSchema } from '@bmet/shared/schemas/auth';
import { apiRequest } from '../../lib/api-client';

export function useSignIn() {
  return useMutation({
    mutationFn: (body: SignInBody) =>
      apiRequest('POST', '/auth/sign-in', signInResponseSchema, { body }).then((r) => r.data),
  });
}
