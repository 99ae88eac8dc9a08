import { Alert, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { m } from '@bmet/shared/paraglide/messages';
import type { PasskeySummary } from '@bmet/shared/schemas/second-factor';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { formatDateTime } from '../../lib/format';
import { showNotification } from '../../lib/notify';
import { passkeysSupported } from '../../lib/passkey-support';
import { passkeyProblem } from '../../lib/second-factor';
import { useAddPasskey, useRemovePasskey } from './api';
import { Section } from './section';

/** The account's passkeys: each with when it was added and last used; add one, remove one. */
export function PasskeysSection({
  passkeys,
  onCodes,
}: {
  passkeys: PasskeySummary[];
  onCodes: (codes: string[]) => void;
}) {
  const add = useAddPasskey();
  const remove = useRemovePasskey();
  const [name, setName] = useState('');
  const [removing, setRemoving] = useState<PasskeySummary | null>(null);
  const supported = passkeysSupported();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate(name, {
      onSuccess: (answer) => {
        setName('');
        if (answer.recoveryCodes?.length) onCodes(answer.recoveryCodes);
        else showNotification({ color: 'teal', message: m.passkeyAdded() });
      },
    });
  };

  return (
    <Section title={m.secondFactorPasskeys()} on={passkeys.length > 0}>
      {passkeys.length === 0 ? (
        <Text size="sm" c="dimmed">
          {m.passkeysNone()}
        </Text>
      ) : (
        <Stack
          gap={0}
          component="ul"
          p={0}
          m={0}
          style={{ listStyle: 'none', borderBottom: '1px solid var(--mantine-color-default-border)' }}
        >
          {passkeys.map((passkey) => (
            <Group
              key={passkey.id}
              component="li"
              justify="space-between"
              wrap="nowrap"
              gap="sm"
              py="xs"
              style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
            >
              <div style={{ minWidth: 0 }}>
                <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                  {passkey.name}
                </Text>
                <Text size="xs" c="dimmed">
                  {m.passkeyAddedOn({ date: formatDateTime(passkey.createdAt) })}
                </Text>
                <Text size="xs" c="dimmed">
                  {passkey.lastUsedAt
                    ? m.passkeyLastUsed({ date: formatDateTime(passkey.lastUsedAt) })
                    : m.passkeyNeverUsed()}
                </Text>
              </div>
              <Button
                size="xs"
                variant="light"
                color="red"
                style={{ flex: 'none' }}
                aria-label={m.passkeyRemoveLabel({ name: passkey.name })}
                onClick={() => setRemoving(passkey)}
              >
                {m.secondFactorRemove()}
              </Button>
            </Group>
          ))}
        </Stack>
      )}
      <form onSubmit={submit} noValidate>
        <Stack gap="xs">
          <Text size="sm">{supported ? m.passkeyAbout() : m.passkeyUnsupported()}</Text>
          {add.isError && (
            <Alert color="red" role="alert">
              {passkeyProblem(add.error)}
            </Alert>
          )}
          <Group align="flex-end" gap="xs" wrap="wrap">
            <TextInput
              label={m.passkeyNameLabel()}
              placeholder={m.passkeyNamePlaceholder()}
              value={name}
              maxLength={60}
              onChange={(e) => setName(e.currentTarget.value)}
              disabled={!supported}
              style={{ flex: '1 1 14rem' }}
            />
            <Button
              type="submit"
              loading={add.isPending}
              disabled={!supported}
              leftSection={<IconKey size={16} aria-hidden />}
            >
              {m.secondFactorAddPasskey()}
            </Button>
          </Group>
        </Stack>
      </form>
      <ConfirmDialog
        opened={removing !== null}
        title={m.passkeyRemoveTitle({ name: removing?.name ?? '' })}
        confirmLabel={m.secondFactorRemove()}
        loading={remove.isPending}
        onClose={() => setRemoving(null)}
        onConfirm={() =>
          removing &&
          remove.mutate(removing.id, {
            onSuccess: () => showNotification({ color: 'teal', message: m.passkeyRemoved() }),
            onError: (error) => showNotification({ color: 'red', message: error.message }),
            onSettled: () => setRemoving(null),
          })
        }
      >
        {m.passkeyRemoveText()}
      </ConfirmDialog>
    </Section>
  );
}
