import { Badge, Group } from '@mantine/core';
import { m } from '@bmet/shared/paraglide/messages';
import type { DriverNeedingAction } from '@bmet/shared/schemas/grievance';

/** Why a driver needs action in a month (the guidelines' thresholds), as badges. */
export function ActionReasons({ driver }: { driver: DriverNeedingAction }) {
  return (
    <Group gap={4}>
      {driver.reasons.map((reason) => (
        <Badge key={reason} color="red.9" variant="filled">
          {reason === 'complaints' ? m.driversActionReasonComplaints() : m.driversActionReasonLowRatings()}
        </Badge>
      ))}
    </Group>
  );
}
