import {
  CAR_TYPES,
  STATES,
  TRIP_STATUSES,
  type CarType,
  type State,
  type TripStatus,
} from '@bmet/shared/constants';
import type { TripListFilters } from '@bmet/shared/schemas/trip';
import { isDate, isUuid } from './param-checks';

/**
 * The trip list's filters as they travel in its address (`/trips?status=cancelled&from=...`): the
 * dashboard links each bar to the trips it counts, and the trip list opens with those filters.
 */
export type TripListAddress = Omit<TripListFilters, 'sort' | 'order'> & {
  /** Shown beside the franchise filter; the list itself filters by id. */
  franchiseName?: string;
};

/** The address of the trip list with these filters. */
export function tripListPath(filters: TripListAddress): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) {
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  const query = params.toString();
  return query ? `/trips?${query}` : '/trips';
}

/** The filters an address asks for; anything the list does not know is left out. */
export function readTripListAddress(search: URLSearchParams): TripListAddress {
  const filters: TripListAddress = {};
  const get = (key: string) => search.get(key)?.trim() ?? '';
  const q = get('q');
  if (q) filters.q = q.slice(0, 100);
  const status = get('status');
  if (TRIP_STATUSES.includes(status as TripStatus)) filters.status = status as TripStatus;
  const paid = get('paid');
  if (paid === 'true' || paid === 'false') filters.paid = paid === 'true';
  const carType = get('carType');
  if (CAR_TYPES.includes(carType as CarType)) filters.carType = carType as CarType;
  for (const key of ['from', 'to'] as const) if (isDate(get(key))) filters[key] = get(key);
  if (isUuid(get('franchiseId'))) {
    filters.franchiseId = get('franchiseId');
    if (get('franchiseName')) filters.franchiseName = get('franchiseName').slice(0, 200);
  }
  const state = get('state');
  if (STATES.includes(state as State)) filters.state = state as State;
  const hour = get('hour');
  if (/^\d{1,2}$/.test(hour) && Number(hour) <= 23) filters.hour = Number(hour);
  return filters;
}
