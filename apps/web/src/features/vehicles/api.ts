import { useQuery } from '@tanstack/react-query';
import type { Role } from '@bmet/shared/constants';
import type { driverListResponseSchema } from '@bmet/shared/schemas/driver';
import type { SortOrder, VEHICLE_SORTS } from '@bmet/shared/schemas/sort';
import type {
  CreateVehicleBody,
  UpdateVehicleBody,
  vehicleDetailResponseSchema,
  vehicleListResponseSchema,
  vehicleResponseSchema,
} from '@bmet/shared/schemas/vehicle';
import { apiRequest } from '../../lib/api-client';
import { useCursorList } from '../../lib/cursor-list';
import { useInvalidatingMutation } from '../../lib/invalidating-mutation';
import { useSession } from '../../lib/session-context';

export type VehicleSort = (typeof VEHICLE_SORTS)[number];
export type VehicleCompliance = 'compliant' | 'not_compliant';

/** What the vehicles list shows: its search, filter and sort (none: by registration number). */
export type VehicleListView = {
  q: string;
  compliance?: VehicleCompliance;
  sort?: VehicleSort;
  order?: SortOrder;
};

export const vehicleKeys = {
  all: ['vehicles'] as const,
  list: (view: VehicleListView) => ['vehicles', 'list', view] as const,
  detail: (id: string) => ['vehicles', 'detail', id] as const,
};

const search = (params: Record<string, string | number | undefined>) => {
  const found = new URLSearchParams();
  for (const [key, value] of Object.entries(params))
    if (value !== undefined && value !== '') found.set(key, String(value));
  return found.toString();
};

export function useVehicleList(view: VehicleListView) {
  return useCursorList(
    vehicleKeys.list(view),
    (cursor, signal) =>
      apiRequest<typeof vehicleListResponseSchema>(
        'GET',
        `/vehicles?${search({ ...view, limit: 50, cursor: cursor ?? undefined })}`,
        { signal },
      ),
    { keepShown: true },
  );
}

export function useVehicle(id: string) {
  return useQuery({
    queryKey: vehicleKeys.detail(id),
    queryFn: ({ signal }) =>
      apiRequest<typeof vehicleDetailResponseSchema>('GET', `/vehicles/${id}`, { signal }).then(
        (r) => r.data,
      ),
  });
}

export function useCreateVehicle() {
  return useInvalidatingMutation(
    vehicleKeys.all,
    (body: CreateVehicleBody & { franchiseId?: string | null }) =>
      apiRequest<typeof vehicleResponseSchema>('POST', '/vehicles', { body }).then((r) => r.data),
  );
}

export function useUpdateVehicle(id: string) {
  return useInvalidatingMutation(vehicleKeys.all, (body: UpdateVehicleBody) =>
    apiRequest<typeof vehicleResponseSchema>('PATCH', `/vehicles/${id}`, { body }).then((r) => r.data),
  );
}

export function useAssignVehicle(id: string) {
  return useInvalidatingMutation(vehicleKeys.all, (driverId: string | null) =>
    apiRequest<typeof vehicleResponseSchema>('PUT', `/vehicles/${id}/assignment`, {
      body: { driverId },
    }).then((r) => r.data),
  );
}

/** The spec's drivers list path for each role, each answering only that caller's drivers. */
const DRIVER_LIST_PATH: Record<Role, string> = {
  admin: '/drivers',
  city_dealer: '/city_dealer',
  franchise: '/franchise',
};

/**
 * Drivers of the caller to give a vehicle to, searched on the server once the picker has opened,
 * as the picker lists them: name and phone.
 */
export function useDriverOptions(q: string, opened: boolean) {
  const { session } = useSession();
  const role = session?.role ?? 'franchise';
  const found = useQuery({
    queryKey: ['vehicles', 'driver-options', role, q],
    queryFn: ({ signal }) =>
      apiRequest<typeof driverListResponseSchema>(
        'GET',
        `${DRIVER_LIST_PATH[role]}?${search({ q, limit: 20 })}`,
        { signal },
      ).then((r) => Object.values(r.data)),
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
