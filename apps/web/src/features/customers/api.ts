import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { customerDetailResponseSchema, customerListResponseSchema } from '@bmet/shared/schemas/customer';
import { apiRequest } from '../../lib/api-client';

export function useCustomerList(q: string) {
  return useInfiniteQuery({
    queryKey: ['customers', 'list', q],
    queryFn: ({ pageParam, signal }) => {
      const params = new URLSearchParams({ limit: '50' });
      if (q) params.set('q', q);
      if (pageParam) params.set('cursor', pageParam);
      return apiRequest<typeof customerListResponseSchema>('GET', `/customers?${params.toString()}`, {
        signal,
      });
    },
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    placeholderData: keepPreviousData,
  });
}

export function useCustomer(id: string | null) {
  return useQuery({
    queryKey: ['customers', 'detail', id],
    queryFn: ({ signal }) =>
      apiRequest<typeof customerDetailResponseSchema>('GET', `/customers/${id}`, { signal }).then(
        (r) => r.data,
      ),
    enabled: id !== null,
  });
}
