import { Badge, Button, Group, Modal, NativeSelect, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState, type ReactNode } from 'react';
import { STATES, type State } from '@bmet/shared/constants';
import { can } from '@bmet/shared/permissions';
import type { Franchise, UpdateFranchiseBody } from '@bmet/shared/schemas/account';
import { useSession } from '../../lib/session-context';
import { useDealersOfState, useUpdateFranchise } from './api';
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

/** Name and state for its dealer or an admin; an admin also chooses the city dealer it works under. */
function EditForm({ franchise, onDone }: { franchise: Franchise; onDone: () => void }) {
  const { session } = useSession();
  const isAdmin = session?.role === 'admin';
  const [name, setName] = useState(franchise.name);
  const [state, setState] = useState<State | null>(franchise.state);
  const [dealerId, setDealerId] = useState(franchise.dealerId ?? '');
  const dealers = useDealersOfState(state, isAdmin);
  const update = useUpdateFranchise();

  // A dealer it works under stays listed even when disabled since.
  const dealerOptions = [
    { value: '', label: 'No city dealer' },
    ...(franchise.dealerId &&
    state === franchise.state &&
    !dealers.data?.some((d) => d.id === franchise.dealerId)
      ? [{ value: franchise.dealerId, label: franchise.dealerName ?? 'Current city dealer' }]
      : []),
    ...(dealers.data ?? []).map((dealer) => ({ value: dealer.id, label: dealer.name || dealer.email })),
  ];

  const save = () => {
    const changes: UpdateFranchiseBody = { name };
    if (state && state !== franchise.state) changes.state = state;
    if (isAdmin && (dealerId || null) !== franchise.dealerId) changes.dealerId = dealerId || null;
    update.mutate(
      { id: franchise.id, changes },
      {
        onSuccess: () => {
          notifications.show({ color: 'teal', message: 'The franchise has been saved.' });
          onDone();
        },
        onError: (error) => notifications.show({ color: 'red', message: error.message }),
      },
    );
  };

  return (
    <Stack gap="sm">
      <TextInput label="Name" value={name} onChange={(e) => setName(e.currentTarget.value)} />
      <NativeSelect
        label="State"
        value={state ?? ''}
        disabled={!isAdmin}
        description={isAdmin ? undefined : 'Your franchises work in your own state.'}
        onChange={(e) => {
          setState(e.currentTarget.value as State);
          setDealerId('');
        }}
        data={STATES.map((s) => ({ value: s, label: stateLabel(s) }))}
      />
      {isAdmin && (
        <NativeSelect
          label="City Dealer"
          value={dealerId}
          onChange={(e) => setDealerId(e.currentTarget.value)}
          data={dealerOptions}
        />
      )}
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
 * The spec's popup of a franchise row (name, email, state), closed by clicking outside; with its
 * city dealer and drivers, and for those who manage it: edit, disable and enable.
 */
export function FranchisePopup({ franchise, onClose }: { franchise: Franchise | null; onClose: () => void }) {
  const { session } = useSession();
  const [editing, setEditing] = useState(false);
  const update = useUpdateFranchise();
  const canManage = can(session?.role, 'update', 'franchises');

  const close = () => {
    setEditing(false);
    onClose();
  };

  const toggleDisabled = (current: Franchise) =>
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

  return (
    <Modal opened={franchise !== null} onClose={close} title={franchise?.name || franchise?.email} size="lg">
      {franchise &&
        (editing ? (
          <EditForm franchise={franchise} onDone={() => setEditing(false)} />
        ) : (
          <Stack gap="md">
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
              <Field label="Name">{franchise.name || '-'}</Field>
              <Field label="Email">{franchise.email}</Field>
              <Field label="State">{stateLabel(franchise.state)}</Field>
              <Field label="Created">{formatDate(franchise.createdAt)}</Field>
              <Field label="City Dealer">{franchise.dealerName ?? 'None'}</Field>
              <Field label="Drivers">{franchise.driverCount}</Field>
            </SimpleGrid>
            {franchise.disabled && (
              <Badge color="gray" variant="light">
                Disabled: cannot sign in
              </Badge>
            )}
            {canManage && (
              <Group justify="flex-end" gap="xs">
                <Button variant="default" onClick={() => setEditing(true)}>
                  Edit
                </Button>
                <Button
                  variant="light"
                  color={franchise.disabled ? 'teal' : 'orange'}
                  loading={update.isPending}
                  onClick={() => toggleDisabled(franchise)}
                >
                  {franchise.disabled ? 'Enable' : 'Disable'}
                </Button>
              </Group>
            )}
          </Stack>
        ))}
    </Modal>
  );
}
