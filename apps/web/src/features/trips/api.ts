import { useQuery } from '@tanstack/react-query';
import type { Role } from '@bmet/shared/constants';
import type {
  TripListFilters,
  tripCountResponseSchema,
  tripDetailResponseSchema,
  tripFeedbackResponseSchema,
  tripListResponseSchema,
} from '@bmet/shared/schemas/trip';
import { apiRequest } from '../../lib/api-client';
import { useCursorList } from '../../lib/cursor-list';
import { useInvalidatingMutation } from '../../lib/invalidating-mutation';

export const tripKeys = {
  all: ['trips'] as const,
  list: (role: Role, filters: TripListFilters) => ['trips', 'list', role, filters] as const,
  detail: (id: string) => ['trips', 'detail', id] as const,
};

const PAGE = 50;

/** Admins use GET /trips; city dealers and franchises the spec's POST /trips/filter-trips. */
function fetchTripPage(
  role: Role,
  filters: TripListFilters,
  cursor: string | undefined,
  signal: AbortSignal,
) {
  const clean = Object.fromEntries(
    Object.entries({ ...filters, limit: PAGE, cursor }).filter(([, v]) => v !== undefined && v !== ''),
  );
  if (role === 'admin') {
    const params = new URLSearchParams(Object.entries(clean).map(([k, v]) => [k, String(v)]));
    return apiRequest<typeof tripListResponseSchema>('GET', `/trips?${params.toString()}`, { signal });
  }
  return apiRequest<typeof tripListResponseSchema>('POST', '/trips/filter-trips', { body: clean, signal });
}

export function useTripList(role: Role, filters: TripListFilters) {
  return useCursorList(
    tripKeys.list(role, filters),
    (cursor, signal) => fetchTripPage(role, filters, cursor, signal),
    { keepShown: true },
  );
}

/**
 * How many trips the list holds ('Showing 50 of 1,234 trips'), asked once the first page is shown
 * so that the page never waits for it; the sort changes no count.
 */
export function useTripCount(filters: TripListFilters, enabled: boolean) {
  const { sort: _sort, order: _order, ...counted } = filters;
  const body = Object.fromEntries(Object.entries(counted).filter(([, v]) => v !== undefined && v !== ''));
  return useQuery({
    queryKey: ['trips', 'count', body],
    queryFn: ({ signal }) =>
      apiRequest<typeof tripCountResponseSchema>('POST', '/trips/count', { body, signal }).then(
        (r) => r.data,
      ),
    enabled,
    staleTime: 30_000,
  });
}

export function useTrip(id: string | undefined) {
  return useQuery({
    queryKey: tripKeys.detail(id ?? ''),
    queryFn: ({ signal }) =>
      apiRequest<typeof tripDetailResponseSchema>('GET', `/trips/${id}`, { signal }).then((r) => r.data),
    enabled: Boolean(id),
  });
}

export function useSubmitFeedback(id: string) {
  return useInvalidatingMutation(tripKeys.detail(id), (body: { feedback: string; rating: number }) =>
    apiRequest<typeof tripFeedbackResponseSchema>('POST', `/trips/${id}/feedback`, { body }).then(
      (r) => r.data,
    ),
  );
}
