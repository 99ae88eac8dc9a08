import { Button, Group, Modal, NumberInput, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { CAR_TYPES, STATES } from '@bmet/shared/constants';
import { carTypeLabel } from '@bmet/shared/labels';
import { m } from '@bmet/shared/paraglide/messages';
import type { Vehicle } from '@bmet/shared/schemas/vehicle';
import { fuelLabel, vehicleOwnerLabel } from '@bmet/shared/vehicle-labels';
import { FUELS, VEHICLE_OWNERS, formatRegistration, normaliseRegistration } from '@bmet/shared/vehicle-rules';
import { DateField } from '../../components/date-field';
import { ApiError } from '../../lib/api-client';
import { useFranchiseChoices } from '../../lib/franchise-options';
import { ServerSearchSelect } from '../../components/server-search-select';
import { stateLabel } from '../../lib/format';
import { showNotification } from '../../lib/notify';
import { useSession } from '../../lib/session-context';
import { useCreateVehicle, useUpdateVehicle } from './api';

const options = <T extends string>(values: readonly T[], label: (value: T) => string) =>
  values.map((value) => ({ value, label: label(value) }));

/** Franchises a new vehicle may work for: the disabled ones are left out. */
const useActiveFranchises = (q: string, opened: boolean) => useFranchiseChoices(q, opened, true);

/**
 * Adds a vehicle (`vehicle` absent) or changes one: the details staff keep; the server's refusals
 * under their fields.
 */
export function VehicleDialog({
  vehicle,
  onClose,
  onCreated,
}: {
  vehicle?: Vehicle;
  onClose: () => void;
  onCreated?: (vehicle: Vehicle) => void;
}) {
  const { session } = useSession();
  const [number, setNumber] = useState(vehicle ? formatRegistration(vehicle.registrationNumber) : '');
  const [make, setMake] = useState(vehicle?.make ?? '');
  const [model, setModel] = useState(vehicle?.model ?? '');
  const [year, setYear] = useState<number | string>(vehicle?.year ?? '');
  const [firstRegisteredOn, setFirstRegisteredOn] = useState(vehicle?.firstRegisteredOn ?? '');
  const [fuel, setFuel] = useState<string | null>(vehicle?.fuel ?? null);
  const [carType, setCarType] = useState<string | null>(vehicle?.carType ?? null);
  const [seats, setSeats] = useState<number | string>(vehicle?.seats ?? '');
  const [owner, setOwner] = useState<string | null>(vehicle?.owner ?? null);
  const [state, setState] = useState<string | null>(vehicle?.state ?? null);
  const [franchiseId, setFranchiseId] = useState<string | null>(null);
  const create = useCreateVehicle();
  const update = useUpdateVehicle(vehicle?.id ?? '');
  const save = vehicle ? update : create;
  const fieldErrors: Partial<Record<string, string[]>> =
    save.error instanceof ApiError ? (save.error.body.fieldErrors ?? {}) : {};
  const choosesFranchise = !vehicle && session?.role !== 'franchise';

  const submit = () => {
    // A number the app reported in a form of its own stays as it is unless it is changed.
    const renumbered = !vehicle || normaliseRegistration(number) !== vehicle.registrationNumber;
    const fields = {
      ...(renumbered ? { registrationNumber: number } : {}),
      make,
      model,
      year: typeof year === 'number' ? year : null,
      firstRegisteredOn: firstRegisteredOn || null,
      fuel: fuel as Vehicle['fuel'],
      carType: carType as Vehicle['carType'],
      seats: typeof seats === 'number' ? seats : null,
      owner: owner as Vehicle['owner'],
      state: state as Vehicle['state'],
    };
    const done = (saved: Vehicle) => {
      showNotification({
        color: 'teal',
        message: m.vehicleSaved({ number: formatRegistration(saved.registrationNumber) }),
      });
      onClose();
      if (!vehicle) onCreated?.(saved);
    };
    if (vehicle) update.mutate(fields, { onSuccess: done });
    else
      create.mutate(
        { ...fields, registrationNumber: number, ...(choosesFranchise ? { franchiseId } : {}) },
        { onSuccess: done },
      );
  };

  return (
    <Modal
      opened
      onClose={onClose}
      title={vehicle ? m.vehicleEditTitle() : m.vehicleAddTitle()}
      closeButtonProps={{ 'aria-label': m.close() }}
      size="lg"
    >
      <Stack>
        <TextInput
          label={m.vehicleRegistrationNumber()}
          placeholder={m.vehicleNumberPlaceholder()}
          value={number}
          onChange={(event) => setNumber(event.currentTarget.value)}
          error={fieldErrors.registrationNumber?.[0]}
          data-autofocus
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label={m.vehicleMake()}
            value={make}
            onChange={(event) => setMake(event.currentTarget.value)}
            error={fieldErrors.make?.[0]}
          />
          <TextInput
            label={m.vehicleModel()}
            value={model}
            onChange={(event) => setModel(event.currentTarget.value)}
            error={fieldErrors.model?.[0]}
          />
          <NumberInput
            label={m.vehicleYear()}
            value={year}
            onChange={setYear}
            min={1980}
            max={2100}
            allowDecimal={false}
            error={fieldErrors.year?.[0]}
          />
          <DateField
            label={m.vehicleFirstRegistered()}
            value={firstRegisteredOn}
            onChange={setFirstRegisteredOn}
            error={fieldErrors.firstRegisteredOn?.[0]}
          />
          <Select
            label={m.vehicleFuel()}
            data={options(FUELS, fuelLabel)}
            value={fuel}
            onChange={setFuel}
            clearable
          />
          <Select
            label={m.tripsFilterCarType()}
            data={options(CAR_TYPES, carTypeLabel)}
            value={carType}
            onChange={setCarType}
            clearable
          />
          <NumberInput
            label={m.vehicleSeats()}
            value={seats}
            onChange={setSeats}
            min={1}
            max={60}
            allowDecimal={false}
            error={fieldErrors.seats?.[0]}
          />
          <Select
            label={m.vehicleOwner()}
            data={options(VEHICLE_OWNERS, vehicleOwnerLabel)}
            value={owner}
            onChange={setOwner}
            clearable
          />
          <Select
            label={m.driversState()}
            data={options(STATES, stateLabel)}
            value={state}
            onChange={setState}
            searchable
            clearable
          />
          {choosesFranchise && (
            <ServerSearchSelect
              label={m.driversFranchise()}
              placeholder={m.driversSearchFranchises()}
              value={franchiseId}
              onChange={setFranchiseId}
              useOptions={useActiveFranchises}
              error={fieldErrors.franchiseId?.[0]}
            />
          )}
        </SimpleGrid>
        {save.error && !(save.error instanceof ApiError && save.error.body.fieldErrors) && (
          <Text size="sm" c="red" role="alert">
            {save.error.message}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {m.driversCancel()}
          </Button>
          <Button onClick={submit} loading={save.isPending}>
            {m.vehicleSave()}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
