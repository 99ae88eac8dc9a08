import { keepPreviousData, useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateAccountBody, UpdateCityDealerBody } from '@bmet/shared/schemas/account';
import type {
  cityDealerListResponseSchema,
  cityDealerResponseSchema,
  createAccountResponseSchema,
} from '@bmet/shared/schemas/account';
import type { messageResponseSchema } from '@bmet/shared/schemas/common';
import { apiRequest } from '../../lib/api-client';

export const cityDealerKeys = {
  all: ['city-dealers'] as const,
  list: (q: string) => ['city-dealers', 'list', q] as const,
};

/** The spec's list call, a page at a time, newest first; `q` searches name and email. */
export function useCityDealerList(q: string) {
  return useInfiniteQuery({
    queryKey: cityDealerKeys.list(q),
    queryFn: ({ pageParam, signal }) =>
      apiRequest<typeof cityDealerListResponseSchema>('POST', '/city_dealer/getcitydealers', {
        body: { uid: '', limit: 50, ...(q ? { q } : {}), ...(pageParam ? { cursor: pageParam } : {}) },
        signal,
      }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    placeholderData: keepPreviousData,
  });
}

export function useCreateCityDealer() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateAccountBody) =>
      apiRequest<typeof createAccountResponseSchema>('POST', '/city_dealer/create', { body }).then(
        (r) => r.data,
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: cityDealerKeys.all }),
  });
}

export function useUpdateCityDealer() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, changes }: { id: string; changes: UpdateCityDealerBody }) =>
      apiRequest<typeof cityDealerResponseSchema>('PATCH', `/city_dealer/${id}`, { body: changes }).then(
        (r) => r.data,
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: cityDealerKeys.all }),
  });
}

/** The spec's delete; the list reloads afterwards. */
export function useDeleteCityDealer() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest('DELETE', `/city_dealer/${id}`),
    onSuccess: () => client.invalidateQueries({ queryKey: cityDealerKeys.all }),
  });
}

/** The form's 'Forgot Password?': mails a reset link to the typed email. */
export function useSendResetLink() {
  return useMutation({
    mutationFn: (email: string) =>
      apiRequest<typeof messageResponseSchema>('POST', '/auth/password-reset', { body: { email } }),
  });
}
