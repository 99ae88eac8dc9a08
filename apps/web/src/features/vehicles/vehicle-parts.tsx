import { Text } from '@mantine/core';
import { m } from '@bmet/shared/paraglide/messages';
import type { Vehicle } from '@bmet/shared/schemas/vehicle';
import { vehicleReasons } from '@bmet/shared/vehicle-labels';
import { Tag } from '../../components/row-parts';

/** "Not compliant" with its reasons, for a vehicle past the guidelines. */
export function VehicleComplianceBadge({ vehicle }: { vehicle: Vehicle }) {
  if (vehicle.compliance.compliant) return null;
  return (
    <span
      style={{ display: 'flex', flexDirection: 'column', gap: 2, alignItems: 'flex-start', marginTop: 4 }}
    >
      <Tag color="red">{m.notCompliant()}</Tag>
      <Text size="xs" c="dimmed">
        {m.complianceReasons({ reasons: vehicleReasons(vehicle).join(', ') })}
      </Text>
    </span>
  );
}

/** A vehicle's age in words: "9 years" or "About 3 years (model year)". */
export function vehicleAge(vehicle: Vehicle): string {
  if (vehicle.ageYears === null) return m.noInfo();
  return vehicle.ageFrom === 'model_year'
    ? m.vehicleAgeFromModelYear({ years: vehicle.ageYears })
    : m.vehicleAgeYears({ years: vehicle.ageYears });
}
