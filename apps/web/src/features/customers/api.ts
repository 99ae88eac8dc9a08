import { useQuery } from '@tanstack/react-query';
import type { customerDetailResponseSchema, customerListResponseSchema } from '@bmet/shared/schemas/customer';
import type { CUSTOMER_SORTS, SortOrder } from '@bmet/shared/schemas/sort';
import { apiRequest } from '../../lib/api-client';
import { useCursorList } from '../../lib/cursor-list';

export type CustomerSort = (typeof CUSTOMER_SORTS)[number];

/** What the customer list shows: its search and sort (none: by name, A to Z). */
export type CustomerListView = { q: string; sort?: CustomerSort; order?: SortOrder };

export function useCustomerList(view: CustomerListView) {
  return useCursorList(
    ['customers', 'list', view],
    (cursor, signal) => {
      const params = new URLSearchParams({ limit: '50' });
      if (view.q) params.set('q', view.q);
      if (view.sort) params.set('sort', view.sort);
      if (view.order) params.set('order', view.order);
      if (cursor) params.set('cursor', cursor);
      return apiRequest<typeof customerListResponseSchema>('GET', `/customers?${params.toString()}`, {
        signal,
      });
    },
    { keepShown: true },
  );
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
