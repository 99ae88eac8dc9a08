import { useMutation } from '@tanstack/react-query';
import type { profileResponseSchema, UpdateProfileBody } from '@bmet/shared/schemas/account';
import type { messageResponseSchema } from '@bmet/shared/schemas/common';
import type { ChangeOwnPasswordBody } from '@bmet/shared/schemas/password';
import { apiRequest } from '../../lib/api-client';
import { currentUserQueryKey } from '../../lib/current-user';
import { useInvalidatingMutation } from '../../lib/invalidating-mutation';

/** Saves the signed-in user's display name (every role); the header then shows the new one. */
export function useChangeOwnName() {
  return useInvalidatingMutation(currentUserQueryKey, (body: UpdateProfileBody) =>
    apiRequest<typeof profileResponseSchema>('PATCH', '/auth/me/name', { body }).then((r) => r.data),
  );
}

/** Changes the signed-in user's password, given the current one; this session stays signed in. */
export function useChangeOwnPassword() {
  return useMutation({
    mutationFn: (body: ChangeOwnPasswordBody) =>
      apiRequest<typeof messageResponseSchema>('POST', '/auth/me/password', { body }).then((r) => r.data),
  });
}
