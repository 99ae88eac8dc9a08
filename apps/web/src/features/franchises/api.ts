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
import { apiRequest } from '../../lib/api-client';

export const franchiseKeys = {
  all: ['franchises'] as const,
  list: (q: string) => ['franchises', 'list', q] as const,
  dealersOf: (state: State) => ['franchises', 'dealers-of', state] as const,
};

/** The spec's franchise list, a page at a time, newest first (a city dealer gets its own). */
export function useFranchiseList(q: string) {
  return useInfiniteQuery({
    queryKey: franchiseKeys.list(q),
    queryFn: ({ pageParam, signal }) => {
      const params = new URLSearchParams({ limit: '50' });
      if (q) params.set('q', q);
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
