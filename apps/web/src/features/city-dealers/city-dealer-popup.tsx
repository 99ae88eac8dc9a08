import { Badge, Button, Group, Modal, NativeSelect, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState, type ReactNode } from 'react';
import { STATES, type State } from '@bmet/shared/constants';
import type { CityDealer } from '@bmet/shared/schemas/account';
import { useDeleteCityDealer, useUpdateCityDealer } from './api';
import { formatDate, stateLabel } from './format';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm">{children}</Text>
    </div>
  );
}

function EditForm({ dealer, onDone }: { dealer: CityDealer; onDone: () => void }) {
  const [name, setName] = useState(dealer.name);
  const [state, setState] = useState<State | ''>(dealer.state ?? '');
  const update = useUpdateCityDealer();
  const save = () =>
    update.mutate(
      { id: dealer.id, changes: { name, ...(state ? { state } : {}) } },
      {
        onSuccess: () => {
          notifications.show({ color: 'teal', message: 'The city dealer has been saved.' });
          onDone();
        },
        onError: (error) => notifications.show({ color: 'red', message: error.message }),
      },
    );
  return (
    <Stack gap="sm">
      <TextInput label="Name" value={name} onChange={(e) => setName(e.currentTarget.value)} />
      <NativeSelect
        label="State"
        value={state}
        onChange={(e) => setState(e.currentTarget.value as State)}
        data={STATES.map((s) => ({ value: s, label: stateLabel(s) }))}
      />
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone}>
          Cancel
        </Button>
        <Button loading={update.isPending} onClick={save}>
          Save
        </Button>
      </Group>
    </Stack>
  );
}

/**
 * The spec's popup of a dealer row (name, email, state), closed by clicking outside; admins also
 * see its counts, edit it, disable or enable it, and delete it.
 */
export function CityDealerPopup({ dealer, onClose }: { dealer: CityDealer | null; onClose: () => void }) {
  const [editing, setEditing] = useState(false);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const update = useUpdateCityDealer();
  const remove = useDeleteCityDealer();

  const close = () => {
    setEditing(false);
    setConfirmingDelete(false);
    onClose();
  };

  const toggleDisabled = (current: CityDealer) =>
    update.mutate(
      { id: current.id, changes: { disabled: !current.disabled } },
      {
        onSuccess: (saved) =>
          notifications.show({
            color: 'teal',
            message: saved.disabled
              ? `${saved.name} is disabled: it can no longer sign in.`
              : `${saved.name} is enabled again.`,
          }),
        onError: (error) => notifications.show({ color: 'red', message: error.message }),
      },
    );

  const confirmDelete = (current: CityDealer) =>
    remove.mutate(current.id, {
      onSuccess: () => {
        notifications.show({ color: 'teal', message: `${current.name} was deleted.` });
        close();
      },
      onError: (error) => {
        setConfirmingDelete(false);
        notifications.show({ color: 'red', message: error.message });
      },
    });

  return (
    <Modal opened={dealer !== null} onClose={close} title={dealer?.name || dealer?.email} size="lg">
      {dealer &&
        (editing ? (
          <EditForm dealer={dealer} onDone={() => setEditing(false)} />
        ) : (
          <Stack gap="md">
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
              <Field label="Name">{dealer.name || '-'}</Field>
              <Field label="Email">{dealer.email}</Field>
              <Field label="State">{stateLabel(dealer.state)}</Field>
              <Field label="Created">{formatDate(dealer.createdAt)}</Field>
              <Field label="Franchises">{dealer.franchiseCount}</Field>
              <Field label="Drivers">{dealer.driverCount}</Field>
            </SimpleGrid>
            {dealer.disabled && (
              <Badge color="gray" variant="light">
                Disabled: cannot sign in
              </Badge>
            )}
            <Group justify="flex-end" gap="xs">
              {confirmingDelete ? (
                <>
                  <Text size="sm" mr="auto">
                    Its franchises stay, without a city dealer.
                  </Text>
                  <Button variant="default" onClick={() => setConfirmingDelete(false)}>
                    Cancel
                  </Button>
                  <Button color="red" loading={remove.isPending} onClick={() => confirmDelete(dealer)}>
                    Confirm delete
                  </Button>
                </>
              ) : (
                <>
                  <Button variant="default" onClick={() => setEditing(true)}>
                    Edit
                  </Button>
                  <Button
                    variant="light"
                    color={dealer.disabled ? 'teal' : 'orange'}
                    loading={update.isPending}
                    onClick={() => toggleDisabled(dealer)}
                  >
                    {dealer.disabled ? 'Enable' : 'Disable'}
                  </Button>
                  <Button variant="light" color="red" onClick={() => setConfirmingDelete(true)}>
                    Delete
                  </Button>
                </>
              )}
            </Group>
          </Stack>
        ))}
    </Modal>
  );
}
