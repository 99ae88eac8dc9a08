import { useQuery } from '@tanstack/react-query';
import type { Role } from '@bmet/shared/constants';
import type { driverListResponseSchema } from '@bmet/shared/schemas/driver';
import { apiRequest } from './api-client';
import { useSession } from './session-context';

/** The spec's drivers list path for each role, each answering only that caller's drivers. */
const DRIVER_LIST_PATH: Record<Role, string> = {
  admin: '/drivers',
  city_dealer: '/city_dealer',
  franchise: '/franchise',
};

/**
 * The caller's drivers for a picker (a grievance or an SOS is about one), searched on the server
 * by name or phone once the picker has opened: each shown with its phone.
 */
export function useDriverOptions(q: string, opened: boolean) {
  const { session } = useSession();
  const role = session?.role ?? 'franchise';
  const found = useQuery({
    queryKey: ['driver-options', role, q],
    queryFn: ({ signal }) => {
      const params = new URLSearchParams({ limit: '20' });
      if (q) params.set('q', q);
      return apiRequest<typeof driverListResponseSchema>('GET', `${DRIVER_LIST_PATH[role]}?${params}`, {
        signal,
      }).then((r) => Object.values(r.data));
    },
    enabled: opened,
    placeholderData: (previous) => previous,
  });
  return {
    isFetching: found.isFetching,
    data: found.data?.map((driver) => ({
      value: driver.id,
      label: [driver.name, driver.phoneNumber].filter(Boolean).join(' · '),
    })),
  };
}
