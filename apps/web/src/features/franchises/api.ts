import { useQuery } from '@tanstack/react-query';
import type { State } from '@bmet/shared/constants';
import type {
  cityDealerListResponseSchema,
  franchiseListResponseSchema,
  franchiseResponseSchema,
} from '@bmet/shared/schemas/account';
import type { ACCOUNT_SORTS, SortOrder } from '@bmet/shared/schemas/sort';
import { useCreateAccount, useUpdateAccount } from '../../lib/account-mutations';
import { apiRequest } from '../../lib/api-client';
import { useCursorList } from '../../lib/cursor-list';

/** What the franchise list shows: its search and sort (none: newest first). */
export type FranchiseListView = { q: string; sort?: (typeof ACCOUNT_SORTS)[number]; order?: SortOrder };

export const franchiseKeys = {
  all: ['franchises'] as const,
  list: (view: FranchiseListView) => ['franchises', 'list', view] as const,
  dealersOf: (state: State) => ['franchises', 'dealers-of', state] as const,
  one: (id: string) => ['franchises', 'one', id] as const,
};

/**
 * One franchise, for a link that opens a franchise the loaded pages do not hold (it is further
 * down the list, or outside its search).
 */
export function useFranchise(id: string | undefined, enabled: boolean) {
  return useQuery({
    queryKey: franchiseKeys.one(id ?? ''),
    queryFn: ({ signal }) =>
      apiRequest<typeof franchiseResponseSchema>('GET', `/franchise/${id}`, { signal }).then((r) => r.data),
    enabled: enabled && id !== undefined,
    retry: false,
  });
}

/** The spec's franchise list, a page at a time (a city dealer gets its own). */
export function useFranchiseList(view: FranchiseListView) {
  return useCursorList(
    franchiseKeys.list(view),
    (cursor, signal) => {
      const params = new URLSearchParams({ limit: '50' });
      if (view.q) params.set('q', view.q);
      if (view.sort) params.set('sort', view.sort);
      if (view.order) params.set('order', view.order);
      if (cursor) params.set('cursor', cursor);
      return apiRequest<typeof franchiseListResponseSchema>(
        'GET',
        `/franchise/getFranchise?${params.toString()}`,
        { signal },
      );
    },
    { keepShown: true },
  );
}

/** The city dealers of a state an admin may put a franchise under (admins only). */
export function useDealersOfState(state: State | null, enabled: boolean) {
  return useQuery({
    queryKey: franchiseKeys.dealersOf(state ?? 'andhra pradesh'),
    queryFn: ({ signal }) =>
      apiRequest<typeof cityDealerListResponseSchema>('POST', '/city_dealer/getcitydealers', {
        body: { state, limit: 200 },
        signal,
      }).then((r) => Object.values(r.data).filter((dealer) => !dealer.disabled)),
    enabled: enabled && state !== null,
  });
}

export function useCreateFranchise() {
  return useCreateAccount('/franchise', franchiseKeys.all);
}

export function useUpdateFranchise() {
  return useUpdateAccount('/franchise', franchiseKeys.all);
}
