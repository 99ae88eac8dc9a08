import {
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import type { State } from '@bmet/shared/constants';
import type { CreateAccountBody, UpdateFranchiseBody } from '@bmet/shared/schemas/account';
import type {
  cityDealerListResponseSchema,
  createAccountResponseSchema,
  franchiseListResponseSchema,
  franchiseResponseSchema,
} from '@bmet/shared/schemas/account';
import type { ACCOUNT_SORTS, SortOrder } from '@bmet/shared/schemas/sort';
import { apiRequest } from '../../lib/api-client';

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
  return useInfiniteQuery({
    queryKey: franchiseKeys.list(view),
    queryFn: ({ pageParam, signal }) => {
      const params = new URLSearchParams({ limit: '50' });
      if (view.q) params.set('q', view.q);
      if (view.sort) params.set('sort', view.sort);
      if (view.order) params.set('order', view.order);
      if (pageParam) params.set('cursor', pageParam);
      return apiRequest<typeof franchiseListResponseSchema>(
        'GET',
        `/franchise/getFranchise?${params.toString()}`,
        {
          signal,
        },
      );
    },
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    placeholderData: keepPreviousData,
  });
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
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateAccountBody) =>
      apiRequest<typeof createAccountResponseSchema>('POST', '/franchise/create', { body }).then(
        (r) => r.data,
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: franchiseKeys.all }),
  });
}

export function useUpdateFranchise() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, changes }: { id: string; changes: UpdateFranchiseBody }) =>
      apiRequest<typeof franchiseResponseSchema>('PATCH', `/franchise/${id}`, { body: changes }).then(
        (r) => r.data,
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: franchiseKeys.all }),
  });
}
