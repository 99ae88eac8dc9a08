import { Alert, Group, Text } from '@mantine/core';
import { m } from '@bmet/shared/paraglide/messages';
import type { driversNeedingActionResponseSchema } from '@bmet/shared/schemas/grievance';
import { useQuery } from '@tanstack/react-query';
import { ActionReasons } from '../../components/action-reasons';
import { apiRequest } from '../../lib/api-client';
import { monthName, recentMonths } from '../../lib/months';

/**
 * On a driver's dashboard: that the driver is past the thresholds of its state's rules this month
 * (Delhi's by default: complaints at 15% of rides, ratings below 3 stars over 25%), with the
 * figures. Nothing when not.
 */
export function DriverActionNotice({ driverId }: { driverId: string }) {
  const month = recentMonths()[0]!;
  const query = useQuery({
    queryKey: ['grievances', 'drivers-needing-action', month, driverId],
    queryFn: ({ signal }) =>
      apiRequest<typeof driversNeedingActionResponseSchema>(
        'GET',
        `/grievances/drivers-needing-action?month=${month}&driverId=${driverId}`,
        { signal },
      ).then((r) => r.data),
  });
  const driver = query.data?.drivers.find((d) => d.driverId === driverId);
  if (!driver) return null;
  return (
    <Alert color="orange" variant="light" title={`${m.driverNeedsActionTitle()} (${monthName(month)})`}>
      <Group gap="sm">
        <Text size="sm">
          {m.driverNeedsActionText({
            complaints: driver.complaints,
            rides: driver.rides,
            low: driver.lowRatings,
            rated: driver.ratings,
          })}
        </Text>
        <ActionReasons driver={driver} />
      </Group>
    </Alert>
  );
}
