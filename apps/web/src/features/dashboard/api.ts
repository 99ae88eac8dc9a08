import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  statsCarTypesResponseSchema,
  statsDailyResponseSchema,
  statsFranchisesResponseSchema,
  statsHoursResponseSchema,
  statsOverviewResponseSchema,
  statsStatesResponseSchema,
} from '@bmet/shared/schemas/dashboard';
import { apiRequest } from '../../lib/api-client';
import type { Period } from './period';

type Schemas = {
  overview: typeof statsOverviewResponseSchema;
  daily: typeof statsDailyResponseSchema;
  'car-types': typeof statsCarTypesResponseSchema;
  hours: typeof statsHoursResponseSchema;
  franchises: typeof statsFranchisesResponseSchema;
  states: typeof statsStatesResponseSchema;
};
export type StatsPath = keyof Schemas;
/** What one endpoint answers inside its `data`. */
export type StatsData<P extends StatsPath> = z.output<Schemas[P]>['data'];

export const statsKeys = {
  all: ['stats'] as const,
  figure: (path: StatsPath, period: Period) => ['dashboard', path, period.from, period.to] as const,
};

/**
 * One of the dashboard's figures for a period. The previous period's figures stay on screen while
 * the next ones load, so that switching periods does not blank the page.
 */
export function useStats<P extends StatsPath>(path: P, period: Period, enabled = true) {
  return useQuery({
    queryKey: statsKeys.figure(path, period),
    queryFn: async ({ signal }) => {
      const query = new URLSearchParams(period).toString();
      const response = await apiRequest<Schemas[P]>('GET', `/stats/${path}?${query}`, { signal });
      return (response as { data: StatsData<P> }).data;
    },
    placeholderData: keepPreviousData,
    enabled,
  });
}
