import { useMutation, useQuery } from '@tanstack/react-query';
import type { cityDealerListResponseSchema, cityDealerResponseSchema } from '@bmet/shared/schemas/account';
import type { messageResponseSchema } from '@bmet/shared/schemas/common';
import type { State } from '@bmet/shared/constants';
import type { ACCOUNT_SORTS, SortOrder } from '@bmet/shared/schemas/sort';
import { useCreateAccount, useUpdateAccount } from '../../lib/account-mutations';
import { apiRequest } from '../../lib/api-client';
import { useCursorList } from '../../lib/cursor-list';
import { useInvalidatingMutation } from '../../lib/invalidating-mutation';

/** What the city dealer list shows: its search, state and sort (none: newest first). */
export type CityDealerListView = {
  q: string;
  state?: State;
  sort?: (typeof ACCOUNT_SORTS)[number];
  order?: SortOrder;
};

export const cityDealerKeys = {
  all: ['city-dealers'] as const,
  list: (view: CityDealerListView) => ['city-dealers', 'list', view] as const,
  one: (id: string) => ['city-dealers', 'one', id] as const,
};

/**
 * One city dealer, for a link that opens a dealer the loaded pages do not hold (it is further down
 * the list, or outside its search). Null when it is gone.
 */
export function useCityDealer(id: string | undefined, enabled: boolean) {
  return useQuery({
    queryKey: cityDealerKeys.one(id ?? ''),
    queryFn: ({ signal }) =>
      apiRequest<typeof cityDealerResponseSchema>('GET', `/city_dealer/${id}`, { signal }).then(
        (r) => r.data,
      ),
    enabled: enabled && id !== undefined,
    retry: false,
  });
}

/** The spec's list call, a page at a time; `q` searches name and email. Empty filters are left out. */
export function useCityDealerList(view: CityDealerListView) {
  return useCursorList(
    cityDealerKeys.list(view),
    (cursor, signal) =>
      apiRequest<typeof cityDealerListResponseSchema>('POST', '/city_dealer/getcitydealers', {
        body: {
          uid: '',
          limit: 50,
          ...Object.fromEntries(Object.entries(view).filter(([, value]) => value)),
          ...(cursor ? { cursor } : {}),
        },
        signal,
      }),
    { keepShown: true },
  );
}

export function useCreateCityDealer() {
  return useCreateAccount('/city_dealer', cityDealerKeys.all);
}

export function useUpdateCityDealer() {
  return useUpdateAccount('/city_dealer', cityDealerKeys.all);
}

/** The spec's delete; the list reloads afterwards. */
export function useDeleteCityDealer() {
  return useInvalidatingMutation(cityDealerKeys.all, (id: string) =>
    apiRequest('DELETE', `/city_dealer/${id}`),
  );
}

/** The form's 'Forgot Password?': mails a reset link to the typed email. */
export function useSendResetLink() {
  return useMutation({
    mutationFn: (email: string) =>
      apiRequest<typeof messageResponseSchema>('POST', '/auth/password-reset', { body: { email } }),
  });
}
