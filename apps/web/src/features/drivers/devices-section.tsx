import { Alert, Button, Code, CopyButton, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { showNotification } from '../../lib/notify';
import { useDeferredValue, useState } from 'react';
import { m } from '@bmet/shared/paraglide/messages';
import { Cell, ListTable } from '../../components/list-table';
import { formatDateTime } from '../../lib/format';
import { Spinner } from '../../components/spinner';
import { useDeviceTokens, useIssueDeviceToken, useRevokeDeviceToken } from './api';

const dateTime = (iso: string | null) => (iso ? formatDateTime(iso) : '-');

/** Device tokens with which the driver's phone reports its position: issue (shown once) and revoke. */
export function DevicesSection({ driverId }: { driverId: string }) {
  const tokens = useDeferredValue(useDeviceTokens(driverId));
  const issue = useIssueDeviceToken(driverId);
  const revoke = useRevokeDeviceToken(driverId);
  const [label, setLabel] = useState('');
  const [issued, setIssued] = useState<string | null>(null);

  return (
    <Stack gap="sm">
      {/* Issuing a token is something to do: not on paper. */}
      <Group align="end" wrap="wrap" data-print="hide">
        <TextInput
          label={m.driversDeviceName()}
          placeholder={m.driversDeviceNamePlaceholder()}
          value={label}
          onChange={(e) => setLabel(e.currentTarget.value)}
          error={issue.error?.message}
        />
        <Button
          loading={issue.isPending}
          onClick={() =>
            issue.mutate(label, {
              onSuccess: (data) => {
                setIssued(data.token);
                setLabel('');
              },
            })
          }
        >
          {m.driversIssueDeviceToken()}
        </Button>
      </Group>
      {tokens.isError && <Text c="red">{tokens.error.message}</Text>}
      {tokens.isPending && (
        <Spinner label={m.driversLoadingSection({ section: m.driversSectionDevices() })} size="sm" />
      )}
      {tokens.data && tokens.data.length === 0 && <Text c="dimmed">{m.driversNoDeviceTokens()}</Text>}
      {tokens.data && tokens.data.length > 0 && (
        // Cards on a phone, each value named, rather than a table scrolled sideways.
        <ListTable
          label={m.driversSectionDevices()}
          columns={[m.driversDevice(), m.driversIssued(), m.driversLastReport(), m.driversStatus()]}
        >
          {tokens.data.map((token) => (
            <tr key={token.id} role="row">
              <Cell label={m.driversDevice()}>{token.label}</Cell>
              <Cell label={m.driversIssued()}>{dateTime(token.createdAt)}</Cell>
              <Cell label={m.driversLastReport()}>{dateTime(token.lastUsedAt)}</Cell>
              <Cell label={m.driversStatus()}>
                {token.revokedAt ? (
                  <Text size="sm" c="dimmed">
                    {m.driversRevokedAt({ date: dateTime(token.revokedAt) })}
                  </Text>
                ) : (
                  <Button
                    size="xs"
                    color="red"
                    variant="light"
                    loading={revoke.isPending && revoke.variables === token.id}
                    onClick={() =>
                      revoke.mutate(token.id, {
                        onSuccess: () =>
                          showNotification({
                            color: 'teal',
                            message: m.driversDeviceRevoked({ device: token.label }),
                          }),
                        onError: (error) => showNotification({ color: 'red', message: error.message }),
                      })
                    }
                  >
                    {m.driversRevoke()}
                  </Button>
                )}
              </Cell>
            </tr>
          ))}
        </ListTable>
      )}
      <Modal
        opened={issued !== null}
        onClose={() => setIssued(null)}
        title={m.driversDeviceTokenIssued()}
        closeButtonProps={{ 'aria-label': m.close() }}
      >
        <Stack>
          <Alert color="yellow">{m.driversCopyTokenNow()}</Alert>
          <Code block data-testid="issued-device-token">
            {issued}
          </Code>
          <CopyButton value={issued ?? ''}>
            {({ copied, copy }) => (
              <Button onClick={copy}>{copied ? m.driversCopied() : m.driversCopyToken()}</Button>
            )}
          </CopyButton>
        </Stack>
      </Modal>
    </Stack>
  );
}
