import { useQuery } from '@tanstack/react-query';
import type { Role } from '@bmet/shared/constants';
import type { driverListResponseSchema } from '@bmet/shared/schemas/driver';
import type { FleetDriver, fleetResponseSchema } from '@bmet/shared/schemas/fleet';
import { apiRequest } from '../../lib/api-client';

/** Every car in the caller's scope with a known position, or those reported since `since` (ISO). */
export function loadFleet(since: string | undefined, signal: AbortSignal): Promise<FleetDriver[]> {
  const query = since ? `?since=${encodeURIComponent(since)}` : '';
  return apiRequest<typeof fleetResponseSchema>('GET', `/fleet${query}`, { signal }).then((r) => r.data);
}

/** The spec's driver list path for each role; each searches only the drivers that caller may see. */
const LIST_PATH: Record<Role, string> = {
  admin: '/drivers',
  city_dealer: '/city_dealer',
  franchise: '/franchise',
};

/** Drivers whose name, phone, email or vehicle number matches, searched on the server. */
export function useDriverSearch(role: Role, q: string) {
  return useQuery({
    queryKey: ['fleet', 'search', role, q],
    queryFn: ({ signal }) =>
      apiRequest<typeof driverListResponseSchema>(
        'GET',
        `${LIST_PATH[role]}?${new URLSearchParams({ q, limit: '8' }).toString()}`,
        { signal },
      ).then((r) => Object.values(r.data)),
    enabled: q.length > 0,
    // The last answer stays while the next search runs.
    placeholderData: (previous) => previous,
  });
}
