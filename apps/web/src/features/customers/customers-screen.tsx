import { Button, Group, Loader, Modal, Paper, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { ErrorAlert } from '../../components/error-alert';
import { ListLoader } from '../../components/list-loader';
import { ListSummary } from '../../components/list-summary';
import { ListTable } from '../../components/list-table';
import { LoadMoreButton } from '../../components/load-more-button';
import { Page } from '../../components/page';
import { SearchInput } from '../../components/search-input';
import { StarRating } from '../../components/star-rating';
import { pagedRows } from '../../lib/paged-rows';
import { useSearch } from '../../lib/use-search';
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
  const { search, setSearch, q } = useSearch();
  const [selected, setSelected] = useState<string | null>(null);
  const list = useCustomerList(q);
  const { rows: customers, total, totalCapped } = pagedRows(list.data);

  return (
    <Page title="Customers">
      <SearchInput
        label="Search customers"
        placeholder="Search by name, email or phone"
        value={search}
        onChange={setSearch}
        width={380}
      />
      {list.isError && !list.data ? (
        <ErrorAlert error={list.error} />
      ) : list.isPending ? (
        <ListLoader label="Loading customers" />
      ) : (
        <>
          <ListSummary
            shown={customers.length}
            total={total}
            totalCapped={totalCapped}
            noun="customers"
            query={q}
            empty="No customers yet."
          />
          {customers.length > 0 && (
            <ListTable minWidth={560} columns={['Name', 'Email', 'Phone Number']}>
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
            </ListTable>
          )}
          <LoadMoreButton query={list}>Load more customers</LoadMoreButton>
        </>
      )}
      <CustomerPopup id={selected} onClose={() => setSelected(null)} />
    </Page>
  );
}
