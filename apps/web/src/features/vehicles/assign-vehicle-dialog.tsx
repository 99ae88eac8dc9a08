import { Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { m } from '@bmet/shared/paraglide/messages';
import type { Vehicle } from '@bmet/shared/schemas/vehicle';
import { formatRegistration } from '@bmet/shared/vehicle-rules';
import { showNotification } from '../../lib/notify';
import { useSession } from '../../lib/session-context';
import { useAssignVehicle, useDriverOptions } from './api';

/** Gives the vehicle to one of the caller's drivers from now, or to nobody. */
export function AssignVehicleDialog({ vehicle, onClose }: { vehicle: Vehicle; onClose: () => void }) {
  const { session } = useSession();
  const [search, setSearch] = useState('');
  const [chosenLabel, setChosenLabel] = useState<string | null>(vehicle.driverName);
  const [driverId, setDriverId] = useState<string | null>(vehicle.driverId);
  const [q] = useDebouncedValue(search === chosenLabel ? '' : search.trim(), 250);
  const options = useDriverOptions(session?.role ?? 'franchise', q);
  const assign = useAssignVehicle(vehicle.id);
  const number = formatRegistration(vehicle.registrationNumber);
  const data = (options.data ?? []).map((driver) => ({
    value: driver.id,
    label: [driver.name, driver.phoneNumber].filter(Boolean).join(' · '),
  }));
  if (vehicle.driverId && vehicle.driverName && !data.some((d) => d.value === vehicle.driverId)) {
    data.unshift({ value: vehicle.driverId, label: vehicle.driverName });
  }
  const save = () =>
    assign.mutate(driverId, {
      onSuccess: (saved) => {
        showNotification({
          color: 'teal',
          message: saved.driverName
            ? m.vehicleNowDrivenBy({ number, name: saved.driverName })
            : m.vehicleNowUnassigned({ number }),
        });
        onClose();
      },
    });
  return (
    <Modal
      opened
      onClose={onClose}
      title={m.vehicleAssignTitle({ number })}
      closeButtonProps={{ 'aria-label': m.close() }}
    >
      <Stack>
        <Text size="sm">{m.vehicleAssignIntro()}</Text>
        <Select
          label={m.vehicleDriver()}
          placeholder={m.vehicleSearchDrivers()}
          searchable
          clearable
          searchValue={search}
          onSearchChange={setSearch}
          filter={({ options: all }) => all}
          data={data}
          value={driverId}
          onChange={(value, option) => {
            setDriverId(value);
            setChosenLabel(option?.label ?? null);
          }}
          nothingFoundMessage={m.vehicleNoDriverFound()}
          data-autofocus
        />
        {assign.error && (
          <Text size="sm" c="red" role="alert">
            {assign.error.message}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {m.driversCancel()}
          </Button>
          <Button onClick={save} loading={assign.isPending} disabled={driverId === vehicle.driverId}>
            {m.vehicleSave()}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
