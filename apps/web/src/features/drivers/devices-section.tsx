import { Alert, Button, Code, CopyButton, Group, Modal, Stack, Table, Text, TextInput } from '@mantine/core';
import { showNotification } from '../../lib/notify';
import { useState } from 'react';
import { m } from '@bmet/shared/paraglide/messages';
import { formatDateTime } from '../../lib/format';
import { useDeviceTokens, useIssueDeviceToken, useRevokeDeviceToken } from './api';

const dateTime = (iso: string | null) => (iso ? formatDateTime(iso) : '-');

/** Device tokens with which the driver's phone reports its position: issue (shown once) and revoke. */
export function DevicesSection({ driverId }: { driverId: string }) {
  const tokens = useDeviceTokens(driverId);
  const issue = useIssueDeviceToken(driverId);
  const revoke = useRevokeDeviceToken(driverId);
  const [label, setLabel] = useState('');
  const [issued, setIssued] = useState<string | null>(null);

  return (
    <Stack gap="sm">
      <Group align="end" wrap="wrap">
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
      {tokens.data && tokens.data.length === 0 && <Text c="dimmed">{m.driversNoDeviceTokens()}</Text>}
      {tokens.data && tokens.data.length > 0 && (
        <Table.ScrollContainer minWidth={560}>
          <Table verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{m.driversDevice()}</Table.Th>
                <Table.Th>{m.driversIssued()}</Table.Th>
                <Table.Th>{m.driversLastReport()}</Table.Th>
                <Table.Th>{m.driversStatus()}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {tokens.data.map((token) => (
                <Table.Tr key={token.id}>
                  <Table.Td>{token.label}</Table.Td>
                  <Table.Td>{dateTime(token.createdAt)}</Table.Td>
                  <Table.Td>{dateTime(token.lastUsedAt)}</Table.Td>
                  <Table.Td>
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
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
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
