import { HistoryLink } from './history-link';
import { Badge, Button, Group, Modal, SimpleGrid, Stack, Text } from '@mantine/core';
import { showNotification } from '../lib/notify';
import { useState, type ReactNode } from 'react';
import { formatDate, stateLabel } from '../lib/format';
import type { Account } from './account-list';
import { m } from '@bmet/shared/paraglide/messages';

type Callbacks<T> = { onSuccess: (result: T) => void; onError: (error: Error) => void };

/** One labelled value of the popup's details. */
export function AccountField({ label, children }: { label: string; children: ReactNode }) {
  return (
    // A long email breaks onto the next line instead of running out of the popup.
    <div style={{ minWidth: 0 }}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </div>
  );
}

/**
 * The spec's popup of a city dealer or franchise row (name, email, state), closed by clicking
 * outside. Given `update`, it offers Edit (the caller's `editForm`) and Disable or Enable; given
 * `remove`, also Delete, confirmed after `removeNote` says what deleting leaves behind.
 */
export function AccountPopup<T extends Account>({
  account,
  onClose,
  details,
  editForm,
  update,
  remove,
  removeNote,
}: {
  account: T | null;
  onClose: () => void;
  /** The fields shown after name, email, state and creation date. */
  details: (account: T) => ReactNode;
  editForm: (account: T, done: () => void) => ReactNode;
  update?: {
    isPending: boolean;
    mutate: (
      variables: { id: string; changes: { disabled: boolean } },
      callbacks: Callbacks<Account>,
    ) => void;
  };
  remove?: { isPending: boolean; mutate: (id: string, callbacks: Callbacks<unknown>) => void };
  removeNote?: string;
}) {
  const [editing, setEditing] = useState(false);
  const [confirmingDelete, setConfirmingDelete] = useState(false);

  const close = () => {
    setEditing(false);
    setConfirmingDelete(false);
    onClose();
  };

  const toggleDisabled = (current: T) =>
    update?.mutate(
      { id: current.id, changes: { disabled: !current.disabled } },
      {
        onSuccess: (saved) =>
          showNotification({
            color: 'teal',
            message: saved.disabled
              ? m.accountDisabledDone({ name: saved.name })
              : m.accountEnabledDone({ name: saved.name }),
          }),
        onError: (error) => showNotification({ color: 'red', message: error.message }),
      },
    );

  const confirmDelete = (current: T) =>
    remove?.mutate(current.id, {
      onSuccess: () => {
        showNotification({ color: 'teal', message: m.accountDeletedDone({ name: current.name }) });
        close();
      },
      onError: (error) => {
        setConfirmingDelete(false);
        showNotification({ color: 'red', message: error.message });
      },
    });

  return (
    <Modal opened={account !== null} onClose={close} title={account?.name || account?.email} size="lg">
      {account &&
        (editing ? (
          editForm(account, () => setEditing(false))
        ) : (
          <Stack gap="md">
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
              <AccountField label={m.commonName()}>{account.name || '-'}</AccountField>
              <AccountField label={m.commonEmail()}>{account.email}</AccountField>
              <AccountField label={m.commonState()}>{stateLabel(account.state)}</AccountField>
              <AccountField label={m.accountCreated()}>{formatDate(account.createdAt)}</AccountField>
              {details(account)}
            </SimpleGrid>
            <HistoryLink recordId={account.id} name={account.name || account.email} />
            {account.disabled && (
              <Badge color="gray" variant="light">
                {m.accountDisabledNotice()}
              </Badge>
            )}
            {update && (
              <Group justify="flex-end" gap="xs">
                {confirmingDelete ? (
                  <>
                    <Text size="sm" mr="auto">
                      {removeNote}
                    </Text>
                    <Button variant="default" onClick={() => setConfirmingDelete(false)}>
                      {m.commonCancel()}
                    </Button>
                    <Button color="red" loading={remove?.isPending} onClick={() => confirmDelete(account)}>
                      {m.accountConfirmDelete()}
                    </Button>
                  </>
                ) : (
                  <>
                    <Button variant="default" onClick={() => setEditing(true)}>
                      {m.commonEdit()}
                    </Button>
                    <Button
                      variant="light"
                      color={account.disabled ? 'teal' : 'orange'}
                      loading={update.isPending}
                      onClick={() => toggleDisabled(account)}
                    >
                      {account.disabled ? m.accountEnable() : m.accountDisable()}
                    </Button>
                    {remove && (
                      <Button variant="light" color="red" onClick={() => setConfirmingDelete(true)}>
                        {m.commonDelete()}
                      </Button>
                    )}
                  </>
                )}
              </Group>
            )}
          </Stack>
        ))}
    </Modal>
  );
}
