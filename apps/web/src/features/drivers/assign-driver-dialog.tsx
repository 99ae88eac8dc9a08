import { Alert, Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { showNotification } from '../../lib/notify';
import { useState } from 'react';
import type { State } from '@bmet/shared/constants';
import { STATES } from '@bmet/shared/constants';
import { m } from '@bmet/shared/paraglide/messages';
import type { Driver } from '@bmet/shared/schemas/driver';
import { stateLabel } from '../../lib/format';
import { useFranchiseOptions } from '../../lib/franchise-options';
import { useAssignDriver } from './api';

/** Admins put a driver under a franchise (its state follows) or, without one, only in a state. */
export function AssignDriverDialog({
  driver,
  opened,
  onClose,
}: {
  driver: Driver;
  opened: boolean;
  onClose: () => void;
}) {
  const [search, setSearch] = useState('');
  const [franchiseId, setFranchiseId] = useState<string | null>(driver.franchiseId);
  const [chosenLabel, setChosenLabel] = useState<string | null>(driver.franchiseName);
  const [state, setState] = useState<string | null>(driver.state);
  // The box shows the chosen franchise's name; that is not a search.
  const [q] = useDebouncedValue(search === chosenLabel ? '' : search.trim(), 250);
  const options = useFranchiseOptions(q, opened);
  const assign = useAssignDriver(driver.id);

  const franchises = (options.data ?? []).filter((franchise) => !franchise.disabled);
  const data = franchises.map((f) => ({
    value: f.id,
    label: `${f.name} (${f.state ? stateLabel(f.state) : m.driversNoState()})`,
  }));
  if (driver.franchiseId && driver.franchiseName && !data.some((d) => d.value === driver.franchiseId)) {
    data.unshift({ value: driver.franchiseId, label: driver.franchiseName });
  }
  const chosen = franchises.find((f) => f.id === franchiseId);

  const save = () =>
    assign.mutate(
      { franchiseId, state: franchiseId ? null : ((state as State | null) ?? null) },
      {
        onSuccess: (updated) => {
          showNotification({
            color: 'teal',
            message: updated.franchiseName
              ? m.driversNowDrivesFor({ name: updated.name, franchise: updated.franchiseName })
              : m.driversNotAssignedToFranchise({ name: updated.name }),
          });
          onClose();
        },
      },
    );

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={m.driversAssignTitle({ name: driver.name })}
      closeButtonProps={{ 'aria-label': m.close() }}
    >
      <Stack>
        <Select
          label={m.driversFranchise()}
          placeholder={m.driversSearchFranchises()}
          searchable
          clearable
          searchValue={search}
          onSearchChange={setSearch}
          filter={({ options: all }) => all}
          data={data}
          value={franchiseId}
          allowDeselect={false}
          onChange={(value, option) => {
            setFranchiseId(value);
            setChosenLabel(option?.label ?? null);
            const f = franchises.find((x) => x.id === value);
            if (f?.state) setState(f.state);
          }}
          nothingFoundMessage={options.isFetching ? m.driversSearching() : m.driversNoFranchiseFound()}
        />
        <Select
          label={m.driversState()}
          placeholder={m.selectStatePlaceholder()}
          data={STATES.map((s) => ({ value: s, label: stateLabel(s) }))}
          value={state}
          onChange={setState}
          disabled={Boolean(franchiseId)}
          description={franchiseId ? m.driversStateFollowsFranchise() : m.driversStateWithoutFranchise()}
          searchable
          clearable
        />
        {chosen?.dealerName && (
          <Text size="sm" c="dimmed">
            {m.driversUnderCityDealer({ name: chosen.dealerName })}
          </Text>
        )}
        {assign.error && (
          <Alert color="red" role="alert">
            {assign.error.message}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {m.driversCancel()}
          </Button>
          <Button onClick={save} loading={assign.isPending}>
            {m.driversSaveAssignment()}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
