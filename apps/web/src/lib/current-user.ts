import { useQuery } from '@tanstack/react-query';
import type { meResponseSchema } from '@bmet/shared/schemas/auth';
import { apiRequest } from './api-client';
import { useSession } from './session-context';

export const currentUserQueryKey = ['auth', 'me'] as const;

/** The signed-in user (uid, displayName, email, role), loaded once per session. */
export function useCurrentUser() {
  const { session } = useSession();
  return useQuery({
    queryKey: [...currentUserQueryKey, session?.idToken],
    queryFn: ({ signal }) =>
      apiRequest<typeof meResponseSchema>('GET', '/auth/me', { signal }).then((r) => r.data),
    enabled: Boolean(session),
    staleTime: 5 * 60_000,
  });
}
