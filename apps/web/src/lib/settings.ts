import { useQuery } from '@tanstack/react-query';
import type { settingsResponseSchema } from '@bmet/shared/schemas/settings';
import { apiRequest } from './api-client';

/** Run-time settings of this install (map tiles), loaded once. */
export function useSettings() {
  return useQuery({
    queryKey: ['settings'],
    queryFn: ({ signal }) =>
      apiRequest<typeof settingsResponseSchema>('GET', '/settings', { signal }).then((r) => r.data),
    staleTime: Infinity,
  });
}
