import {
  Alert,
  Button,
  Center,
  Group,
  Loader,
  SegmentedControl,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { DEFAULT_COUNTRY } from '@bmet/shared/constants';
import { MESSAGES } from '@bmet/shared/messages';
import { can } from '@bmet/shared/permissions';
import type { Driver } from '@bmet/shared/schemas/driver';
import { Page } from '../../components/page';
import { useSession } from '../../lib/session-context';
import { useDeleteDriver, useDriverList, useRestoreDriver } from './api';

function RowActions({ driver, deletedView }: { driver: Driver; deletedView: boolean }) {
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const remove = useDeleteDriver();
  const restore = useRestoreDriver();

  if (deletedView) {
    return (
      <Button
        size="xs"
        variant="light"
        loading={restore.isPending}
        onClick={() =>
          restore.mutate(driver.id, {
            onSuccess: () =>
              notifications.show({ color: 'teal', message: `${driver.name} is back in the driver list.` }),
            onError: (error) => notifications.show({ color: 'red', message: error.message }),
          })
        }
      >
        Restore
      </Button>
    );
  }
  return (
    <Group gap="xs" wrap="nowrap">
      {confirming ? (
        <>
          <Button
            size="xs"
            color="red"
            loading={remove.isPending}
            onClick={() =>
              remove.mutate(driver.id, {
                onSuccess: () =>
                  notifications.show({ color: 'teal', message: `${driver.name} was deleted.` }),
                onError: (error) => {
                  setConfirming(false);
                  notifications.show({ color: 'red', message: error.message });
                },
              })
            }
          >
            Confirm
          </Button>
          <Button size="xs" variant="default" onClick={() => setConfirming(false)}>
            Cancel
          </Button>
        </>
      ) : (
        <Button size="xs" color="red" variant="light" onClick={() => setConfirming(true)}>
          {MESSAGES.deleteDriver}
        </Button>
      )}
      <Button size="xs" variant="default" onClick={() => navigate(`/drivers/${driver.id}`)}>
        More
      </Button>
    </Group>
  );
}

/** The spec's 'Driver List': searched and paged on the server, scoped to the caller's drivers. */
export function DriversScreen() {
  const { session } = useSession();
  const role = session!.role;
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 300);
  const [view, setView] = useState<'active' | 'deleted'>('active');
  const deletedView = view === 'deleted';
  const list = useDriverList(role, q, deletedView);

  if (list.isError && !list.data) {
    return (
      <Page title={MESSAGES.driverList}>
        <Alert color="red" role="alert">
          {list.error.message}
        </Alert>
      </Page>
    );
  }

  const drivers = list.data?.pages.flatMap((page) => Object.values(page.data)) ?? [];
  const total = list.data?.pages[0]?.total ?? 0;

  return (
    <Page title={MESSAGES.driverList}>
      <Group justify="space-between" align="end" wrap="wrap">
        <TextInput
          aria-label="Search drivers"
          placeholder="Search by name, email, phone or vehicle number"
          leftSection={<IconSearch size={16} />}
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          w={{ base: '100%', sm: 420 }}
        />
        {can(role, 'restore', 'drivers') && (
          <SegmentedControl
            value={view}
            onChange={(value) => setView(value as 'active' | 'deleted')}
            data={[
              { value: 'active', label: 'Active drivers' },
              { value: 'deleted', label: 'Deleted drivers' },
            ]}
          />
        )}
      </Group>
      {list.isPending ? (
        <Center py="xl">
          <Loader aria-label="Loading drivers" />
        </Center>
      ) : (
        <>
          <Text size="sm" c="dimmed" aria-live="polite">
            {total === 0
              ? q
                ? `No drivers match “${q}”.`
                : deletedView
                  ? 'No deleted drivers.'
                  : 'No drivers yet.'
              : `Showing ${drivers.length} of ${total.toLocaleString('en-IN')} ${deletedView ? 'deleted ' : ''}drivers`}
          </Text>
          {drivers.length > 0 && (
            <Table.ScrollContainer minWidth={760}>
              <Table striped highlightOnHover verticalSpacing="xs">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Name</Table.Th>
                    <Table.Th>Email</Table.Th>
                    <Table.Th>Phone Number</Table.Th>
                    <Table.Th>Country</Table.Th>
                    <Table.Th>Actions</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {drivers.map((driver) => (
                    <Table.Tr key={driver.id}>
                      <Table.Td>{driver.name}</Table.Td>
                      <Table.Td>{driver.email || MESSAGES.noInfo}</Table.Td>
                      <Table.Td>{driver.phoneNumber || MESSAGES.noInfo}</Table.Td>
                      <Table.Td>{driver.country || DEFAULT_COUNTRY}</Table.Td>
                      <Table.Td>
                        <RowActions driver={driver} deletedView={deletedView} />
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
          {list.hasNextPage && (
            <Center>
              <Button
                variant="default"
                loading={list.isFetchingNextPage}
                onClick={() => void list.fetchNextPage()}
              >
                Load more drivers
              </Button>
            </Center>
          )}
        </>
      )}
    </Page>
  );
}
