import { Anchor, Group, Stack, Text } from '@mantine/core';
import { useDeferredValue } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { m } from '@bmet/shared/paraglide/messages';
import { vehicleReasons } from '@bmet/shared/vehicle-labels';
import { formatRegistration, makeAndModel } from '@bmet/shared/vehicle-rules';
import { Tag } from '../../components/row-parts';
import { ErrorAlert } from '../../components/error-alert';
import { DocumentsSection } from './documents-section';
import { vehicleQuery } from './api';
import { Spinner } from '../../components/spinner';

const INSURANCE = ['vehicleInsurance'] as const;

/** The vehicle the driver drives now, with its age and whether it may be driven; its page a click away. */
export function VehicleSection({ driverId }: { driverId: string }) {
  const vehicle = useDeferredValue(useQuery(vehicleQuery(driverId)));
  if (vehicle.isError) return <ErrorAlert error={vehicle.error} />;
  if (vehicle.isPending) return <Spinner label={m.vehiclesLoading()} size="sm" />;
  const v = vehicle.data;
  if (!v) return <Text c="dimmed">{m.driverNoVehicle()}</Text>;
  return (
    <Stack gap={4}>
      <Group gap="sm">
        <Anchor component={Link} to={`/vehicles/${v.id}`} fw={600}>
          {formatRegistration(v.registrationNumber)}
        </Anchor>
        {v.compliance.compliant ? (
          <Tag color="teal">{m.compliant()}</Tag>
        ) : (
          <Tag color="red">{m.notCompliant()}</Tag>
        )}
      </Group>
      <Text size="sm">
        {[
          makeAndModel(v.make, v.model),
          v.ageYears === null ? null : m.vehicleAgeYears({ years: v.ageYears }),
          ...vehicleReasons(v),
        ]
          .filter(Boolean)
          .join(' · ')}
      </Text>
      {/* The vehicle's insurance, which the ten rows above leave out, reviewed here as the others are. */}
      <DocumentsSection
        driverId={driverId}
        of="vehicle"
        only={INSURANCE}
        label={m.vehicleInsuranceTable({ number: formatRegistration(v.registrationNumber) })}
      />
    </Stack>
  );
}
