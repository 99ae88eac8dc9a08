import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { State } from '@bmet/shared/constants';
import type {
  allRatesResponseSchema,
  rateHistoryResponseSchema,
  stateRatesResponseSchema,
  AllRates,
  RestoreRatesBody,
  StateRates,
  UpdateRatesBody,
} from '@bmet/shared/schemas/car-rate';
import { apiRequest } from '../../lib/api-client';
import { useCursorList } from '../../lib/cursor-list';

export const carRateKeys = {
  all: ['car-rates'] as const,
  rates: ['car-rates', 'rates'] as const,
  history: (state: State) => ['car-rates', 'history', state] as const,
};

/** Every state's rates (30 states x 5 car types at most: one small answer). */
export function useAllRates() {
  return useQuery({
    queryKey: carRateKeys.rates,
    queryFn: ({ signal }) =>
      apiRequest<typeof allRatesResponseSchema>('GET', '/admin/getAllRates', { signal }).then((r) => r.data),
  });
}

/** Puts a state's rates as the server answered them into the cached list of all rates. */
function useStoreStateRates() {
  const client = useQueryClient();
  return (state: State, rates: StateRates) => {
    client.setQueryData<AllRates>(carRateKeys.rates, (all) => ({ ...all, [state]: rates }));
    void client.invalidateQueries({ queryKey: carRateKeys.history(state) });
  };
}

/** Reads every state's rates and this state's history again (after a refused stale change). */
export function useRefreshRates(state: State) {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: carRateKeys.rates }),
      client.invalidateQueries({ queryKey: carRateKeys.history(state) }),
    ]);
}

/** Marks a state's history stale: someone else's change shows up once it is known. */
export function useRefreshHistory(state: State) {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: carRateKeys.history(state) });
}

/**
 * Saves rate sets of a state. Rates outside the state's fare band are refused (FARE_OUT_OF_BAND)
 * unless an admin gives `overrideReason`, kept with the change.
 */
export function useUpdateRates(state: State) {
  const store = useStoreStateRates();
  return useMutation({
    mutationFn: ({ body, overrideReason }: { body: UpdateRatesBody; overrideReason?: string }) => {
      const query = overrideReason ? `?${new URLSearchParams({ overrideReason }).toString()}` : '';
      return apiRequest<typeof stateRatesResponseSchema>(
        'PUT',
        `/admin/updateRates/${encodeURIComponent(state)}${query}`,
        { body },
      ).then((r) => r.data);
    },
    onSuccess: (rates) => store(state, rates),
  });
}

export function useCopyRates() {
  const store = useStoreStateRates();
  return useMutation({
    mutationFn: ({ from, to, overrideReason }: { from: State; to: State; overrideReason?: string }) =>
      apiRequest<typeof stateRatesResponseSchema>(
        'POST',
        `/admin/copyRates${overrideReason ? `?${new URLSearchParams({ overrideReason }).toString()}` : ''}`,
        { body: { from, to } },
      ).then((r) => r.data),
    onSuccess: (rates, { to }) => store(to, rates),
  });
}

/**
 * Brings a car type's rates back to an earlier version, saved as a new one. Like a save, rates
 * outside the fare band need `overrideReason`.
 */
export function useRestoreRates(state: State) {
  const store = useStoreStateRates();
  return useMutation({
    mutationFn: ({ body, overrideReason }: { body: RestoreRatesBody; overrideReason?: string }) => {
      const query = overrideReason ? `?${new URLSearchParams({ overrideReason }).toString()}` : '';
      return apiRequest<typeof stateRatesResponseSchema>(
        'POST',
        `/admin/restoreRates/${encodeURIComponent(state)}${query}`,
        { body },
      ).then((r) => r.data);
    },
    onSuccess: (rates) => store(state, rates),
  });
}

export function useRateHistory(state: State) {
  return useCursorList(carRateKeys.history(state), (cursor, signal) => {
    const search = new URLSearchParams({ limit: '10' });
    if (cursor) search.set('cursor', cursor);
    return apiRequest<typeof rateHistoryResponseSchema>(
      'GET',
      `/admin/rates-history/${encodeURIComponent(state)}?${search.toString()}`,
      { signal },
    );
  });
}
