import { useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  recoveryCodesResponseSchema,
  secondFactorStatusResponseSchema,
} from '@bmet/shared/schemas/second-factor';
import { apiRequest } from '../../lib/api-client';
import { useInvalidatingMutation } from '../../lib/invalidating-mutation';
import { addPasskey } from '../../lib/second-factor';

export const secondFactorQueryKey = ['second-factor'] as const;

/** What the signed-in user has set up: authenticator app, passkeys, recovery codes left. */
export function useSecondFactorStatus() {
  return useQuery({
    queryKey: secondFactorQueryKey,
    queryFn: ({ signal }) =>
      apiRequest<typeof secondFactorStatusResponseSchema>('GET', '/auth/second-factor', { signal }).then(
        (r) => r.data,
      ),
  });
}

/** Loads the status again after a change made outside a mutation here (an app set up). */
export function useReloadSecondFactor() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: secondFactorQueryKey });
}

export function useRemoveTotp() {
  return useInvalidatingMutation(secondFactorQueryKey, () =>
    apiRequest('DELETE', '/auth/second-factor/totp'),
  );
}

/** Makes a passkey on this device (the browser asks) with an optional name. */
export function useAddPasskey() {
  return useInvalidatingMutation(secondFactorQueryKey, (name: string) => addPasskey({ name }));
}

export function useRemovePasskey() {
  return useInvalidatingMutation(secondFactorQueryKey, (id: string) =>
    apiRequest('DELETE', `/auth/second-factor/passkeys/${encodeURIComponent(id)}`),
  );
}

/** Ten new recovery codes; the old ones stop working. */
export function useNewRecoveryCodes() {
  return useInvalidatingMutation(secondFactorQueryKey, () =>
    apiRequest<typeof recoveryCodesResponseSchema>('POST', '/auth/second-factor/recovery-codes').then(
      (r) => r.data.recoveryCodes,
    ),
  );
}
