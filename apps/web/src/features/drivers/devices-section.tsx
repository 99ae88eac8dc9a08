import { Alert, Button, Code, CopyButton, Group, Modal, Stack, Table, Text, TextInput } from '@mantine/core';
import { showNotification } from '../../lib/notify';
import { useState } from 'react';
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
          label="Device name"
          placeholder="e.g. Driver's Android phone"
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
          Issue device token
        </Button>
      </Group>
      {tokens.isError && <Text c="red">{tokens.error.message}</Text>}
      {tokens.data && tokens.data.length === 0 && <Text c="dimmed">No device tokens issued.</Text>}
      {tokens.data && tokens.data.length > 0 && (
        <Table.ScrollContainer minWidth={560}>
          <Table verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Device</Table.Th>
                <Table.Th>Issued</Table.Th>
                <Table.Th>Last report</Table.Th>
                <Table.Th>Status</Table.Th>
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
                        Revoked {dateTime(token.revokedAt)}
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
                                message: `${token.label} can no longer report positions.`,
                              }),
                            onError: (error) => showNotification({ color: 'red', message: error.message }),
                          })
                        }
                      >
                        Revoke
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
        title="Device token issued"
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        <Stack>
          <Alert color="yellow">Copy it into the driver app now: it is shown only once.</Alert>
          <Code block data-testid="issued-device-token">
            {issued}
          </Code>
          <CopyButton value={issued ?? ''}>
            {({ copied, copy }) => <Button onClick={copy}>{copied ? 'Copied' : 'Copy token'}</Button>}
          </CopyButton>
        </Stack>
      </Modal>
    </Stack>
  );
}
