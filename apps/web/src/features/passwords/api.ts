import { useMutation, useQuery } from '@tanstack/react-query';
import type { messageResponseSchema } from '@bmet/shared/schemas/common';
import type { UpdatePasswordBody } from '@bmet/shared/schemas/password';
import type { adminEmailsResponseSchema } from '@bmet/shared/schemas/password';
import type { ResetSecondFactorBody } from '@bmet/shared/schemas/second-factor';
import { apiRequest } from '../../lib/api-client';

/** The admins' emails for the reset dropdown (admins only). */
export function useAdminEmails(enabled: boolean) {
  return useQuery({
    queryKey: ['passwords', 'admins'],
    queryFn: ({ signal }) =>
      apiRequest<typeof adminEmailsResponseSchema>('GET', '/get-admins', { signal }).then((r) => r.data),
    enabled,
  });
}

/** Mails a reset link; the answer is the same whether or not an account uses the email. */
export function useSendResetLink() {
  return useMutation({
    mutationFn: (email: string) =>
      apiRequest<typeof messageResponseSchema>('POST', '/auth/password-reset', { body: { email } }),
  });
}

export function useUpdatePassword() {
  return useMutation({
    mutationFn: (body: UpdatePasswordBody) =>
      apiRequest<typeof messageResponseSchema>('POST', '/admin/update-password', { body }).then(
        (r) => r.data,
      ),
  });
}

/** Clears an account's second factor (it sets up a new one at its next sign-in); its sessions end. */
export function useResetSecondFactor() {
  return useMutation({
    mutationFn: (body: ResetSecondFactorBody) =>
      apiRequest<typeof messageResponseSchema>('POST', '/admin/reset-second-factor', { body }).then(
        (r) => r.data,
      ),
  });
}
