import {
  Alert,
  Button,
  Center,
  Group,
  Loader,
  Modal,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { Page } from '../../components/page';
import { StarRating } from '../../components/star-rating';
import { useCustomer, useCustomerList } from './api';

function CustomerPopup({ id, onClose }: { id: string | null; onClose: () => void }) {
  const customer = useCustomer(id);
  const c = customer.data;
  return (
    <Modal
      opened={id !== null}
      onClose={onClose}
      title={c?.name ?? 'Customer'}
      withCloseButton={false}
      size="lg"
    >
      {customer.isPending && <Loader aria-label="Loading customer" />}
      {customer.isError && <Text c="red">{customer.error.message}</Text>}
      {c && (
        <Stack gap="sm">
          <Text size="sm">
            <b>Name:</b> {c.name}
          </Text>
          <Text size="sm">
            <b>Email:</b> {c.email ?? '-'}
          </Text>
          <Text size="sm">
            <b>Phone Number:</b> {c.phoneNumber ?? '-'}
          </Text>
          <Group gap="xs">
            <Text fw={600}>Ratings</Text>
            {c.rating.average !== null && (
              <Text size="sm" c="dimmed">
                {c.rating.average.toFixed(1)} average from {c.rating.count}
              </Text>
            )}
          </Group>
          {c.ratings.length === 0 ? (
            <Text size="sm" c="dimmed">
              No ratings yet.
            </Text>
          ) : (
            <Stack gap="xs" role="list" aria-label="Ratings">
              {c.ratings.map((entry) => (
                <Paper key={entry.id} withBorder p="xs" role="listitem">
                  <Group justify="space-between" wrap="wrap">
                    <Text size="sm" fw={500}>
                      {entry.customerName ?? '-'}
                    </Text>
                    <StarRating value={entry.rating} />
                  </Group>
                  {entry.description && (
                    <Text size="sm" c="dimmed">
                      {entry.description}
                    </Text>
                  )}
                </Paper>
              ))}
            </Stack>
          )}
          <Group justify="flex-end">
            <Button onClick={onClose}>Close</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

/** Customers (admins only): searched and paged on the server; a row opens its ratings. */
export function CustomersScreen() {
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 300);
  const [selected, setSelected] = useState<string | null>(null);
  const list = useCustomerList(q);
  const customers = list.data?.pages.flatMap((page) => Object.values(page.data)) ?? [];
  const total = list.data?.pages[0]?.total ?? 0;

  return (
    <Page title="Customers">
      <TextInput
        aria-label="Search customers"
        placeholder="Search by name, email or phone"
        leftSection={<IconSearch size={16} />}
        value={search}
        onChange={(event) => setSearch(event.currentTarget.value)}
        w={{ base: '100%', sm: 380 }}
      />
      {list.isError && !list.data ? (
        <Alert color="red" role="alert">
          {list.error.message}
        </Alert>
      ) : list.isPending ? (
        <Center py="xl">
          <Loader aria-label="Loading customers" />
        </Center>
      ) : (
        <>
          <Text size="sm" c="dimmed" aria-live="polite">
            {total === 0
              ? q
                ? `No customers match “${q}”.`
                : 'No customers yet.'
              : `Showing ${customers.length} of ${total.toLocaleString('en-IN')} customers`}
          </Text>
          {customers.length > 0 && (
            <Table.ScrollContainer minWidth={560}>
              <Table striped highlightOnHover verticalSpacing="xs">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Name</Table.Th>
                    <Table.Th>Email</Table.Th>
                    <Table.Th>Phone Number</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {customers.map((customer) => (
                    <Table.Tr
                      key={customer.id}
                      onClick={() => setSelected(customer.id)}
                      onKeyDown={(event) =>
                        (event.key === 'Enter' || event.key === ' ') && setSelected(customer.id)
                      }
                      tabIndex={0}
                      style={{ cursor: 'pointer' }}
                      aria-label={`Open ${customer.name}`}
                    >
                      <Table.Td>{customer.name}</Table.Td>
                      <Table.Td>{customer.email ?? '-'}</Table.Td>
                      <Table.Td>{customer.phoneNumber ?? '-'}</Table.Td>
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
                Load more customers
              </Button>
            </Center>
          )}
        </>
      )}
      <CustomerPopup id={selected} onClose={() => setSelected(null)} />
    </Page>
  );
}
