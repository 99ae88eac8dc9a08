import { useMutation, useQuery } from '@tanstack/react-query';
import { messageResponseSchema } from '@bmet/shared/schemas/common';
import type { UpdatePasswordBody } from '@bmet/shared/schemas/password';
import { adminEmailsResponseSchema } from '@bmet/shared/schemas/password';
import { apiRequest } from '../../lib/api-client';

/** The admins' emails for the reset dropdown (admins only). */
export function useAdminEmails(enabled: boolean) {
  return useQuery({
    queryKey: ['passwords', 'admins'],
    queryFn: ({ signal }) =>
      apiRequest('GET', '/get-admins', adminEmailsResponseSchema, { signal }).then((r) => r.data),
    enabled,
  });
}

/** Mails a reset link; the answer is the same whether or not an account uses the email. */
export function useSendResetLink() {
  return useMutation({
    mutationFn: (email: string) =>
      apiRequest('POST', '/auth/password-reset', messageResponseSchema, { body: { email } }),
  });
}

export function useUpdatePassword() {
  return useMutation({
    mutationFn: (body: UpdatePasswordBody) =>
      apiRequest('POST', '/admin/update-password', messageResponseSchema, { body }).then((r) => r.data),
  });
}
