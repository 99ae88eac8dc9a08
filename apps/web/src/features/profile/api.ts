import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UpdateProfileBody } from '@bmet/shared/schemas/account';
import type { profileResponseSchema } from '@bmet/shared/schemas/account';
import { apiRequest } from '../../lib/api-client';
import { currentUserQueryKey } from '../../lib/current-user';

/** Saves the display name, then reloads the current user so the header shows the new name. */
export function useUpdateProfile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateProfileBody) =>
      apiRequest<typeof profileResponseSchema>('PATCH', '/auth/me', { body }).then((r) => r.data),
    onSuccess: () => client.invalidateQueries({ queryKey: currentUserQueryKey }),
  });
}
