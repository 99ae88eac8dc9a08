import { useQuery } from '@tanstack/react-query';
import type { franchiseListResponseSchema } from '@bmet/shared/schemas/account';
import { apiRequest } from './api-client';

/**
 * Franchises to choose from (a filter, an assignment), searched on the server: an admin's any, a
 * city dealer's its own. The last answer stays while the next search runs.
 */
export function useFranchiseOptions(q: string, enabled: boolean) {
  return useQuery({
    queryKey: ['franchise-options', q],
    queryFn: ({ signal }) => {
      const params = new URLSearchParams({ limit: '20' });
      if (q) params.set('q', q);
      return apiRequest<typeof franchiseListResponseSchema>('GET', `/franchise/getFranchise?${params}`, {
        signal,
      }).then((r) => Object.values(r.data));
    },
    enabled,
    placeholderData: (previous) => previous,
  });
}

/** The franchises of a search as a picker lists them; without the disabled ones when `activeOnly`. */
export function useFranchiseChoices(q: string, opened: boolean, activeOnly = false) {
  const found = useFranchiseOptions(q, opened);
  return {
    isFetching: found.isFetching,
    data: found.data
      ?.filter((franchise) => !activeOnly || !franchise.disabled)
      .map((franchise) => ({ value: franchise.id, label: franchise.name })),
  };
}
