import { useQuery } from '@tanstack/react-query';
import type { CarType, Role, State, TripStatus } from '@bmet/shared/constants';
import type {
  tripDetailResponseSchema,
  tripFeedbackResponseSchema,
  tripListResponseSchema,
} from '@bmet/shared/schemas/trip';
import type { SortOrder, TRIP_SORTS } from '@bmet/shared/schemas/sort';
import { apiRequest } from '../../lib/api-client';
import { useCursorList } from '../../lib/cursor-list';
import { useInvalidatingMutation } from '../../lib/invalidating-mutation';

export type TripSort = (typeof TRIP_SORTS)[number];

/** What the trip list shows: its search, filters and sort (none: newest first). */
export type TripFilters = {
  q: string;
  status?: TripStatus;
  paid?: boolean;
  carType?: CarType;
  from?: string;
  to?: string;
  /** Set from a dashboard link: the trips of a franchise's drivers, of a state, of an hour. */
  franchiseId?: string;
  state?: State;
  hour?: number;
  sort?: TripSort;
  order?: SortOrder;
};

export const tripKeys = {
  all: ['trips'] as const,
  list: (role: Role, filters: TripFilters) => ['trips', 'list', role, filters] as const,
  detail: (id: string) => ['trips', 'detail', id] as const,
};

const PAGE = 50;

/** Admins use GET /trips; city dealers and franchises the spec's POST /trips/filter-trips. */
function fetchTripPage(role: Role, filters: TripFilters, cursor: string | undefined, signal: AbortSignal) {
  const clean = Object.fromEntries(
    Object.entries({ ...filters, limit: PAGE, cursor }).filter(([, v]) => v !== undefined && v !== ''),
  );
  if (role === 'admin') {
    const params = new URLSearchParams(Object.entries(clean).map(([k, v]) => [k, String(v)]));
    return apiRequest<typeof tripListResponseSchema>('GET', `/trips?${params.toString()}`, { signal });
  }
  return apiRequest<typeof tripListResponseSchema>('POST', '/trips/filter-trips', { body: clean, signal });
}

export function useTripList(role: Role, filters: TripFilters) {
  return useCursorList(
    tripKeys.list(role, filters),
    (cursor, signal) => fetchTripPage(role, filters, cursor, signal),
    { keepShown: true },
  );
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
