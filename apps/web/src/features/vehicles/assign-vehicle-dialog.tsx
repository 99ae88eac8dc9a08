import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { ServerSearchSelect } from '../../components/server-search-select';
import { useState } from 'react';
import { m } from '@bmet/shared/paraglide/messages';
import type { Vehicle } from '@bmet/shared/schemas/vehicle';
import { formatRegistration } from '@bmet/shared/vehicle-rules';
import { showNotification } from '../../lib/notify';
import { useAssignVehicle, useDriverOptions } from './api';

/** Gives the vehicle to one of the caller's drivers from now, or to nobody. */
export function AssignVehicleDialog({ vehicle, onClose }: { vehicle: Vehicle; onClose: () => void }) {
  const [driverId, setDriverId] = useState<string | null>(vehicle.driverId);
  const assign = useAssignVehicle(vehicle.id);
  const number = formatRegistration(vehicle.registrationNumber);
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
        <ServerSearchSelect
          label={m.vehicleDriver()}
          placeholder={m.vehicleSearchDrivers()}
          value={driverId}
          initialLabel={vehicle.driverName}
          onChange={setDriverId}
          useOptions={useDriverOptions}
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
