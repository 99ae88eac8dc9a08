import { Alert, Badge, Button, Center, Loader, Table, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { MESSAGES } from '@bmet/shared/messages';
import { Page } from '../../components/page';
import { useCityDealerList } from './api';
import { CityDealerPopup } from './city-dealer-popup';
import { stateLabel } from './format';

/** The spec's city dealer list (admins): newest first, searched and paged on the server. */
export function CityDealersScreen() {
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 300);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const list = useCityDealerList(q);
  const dealers = list.data?.pages.flatMap((page) => Object.values(page.data)) ?? [];
  const total = list.data?.pages[0]?.total ?? 0;
  // The popup shows the row as last loaded, so that an edit shows at once.
  const selected = dealers.find((dealer) => dealer.id === selectedId) ?? null;

  return (
    <Page title="City Dealers">
      <TextInput
        aria-label="Search city dealers"
        placeholder="Search by name or email"
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
          <Loader aria-label="Loading city dealers" />
        </Center>
      ) : total === 0 ? (
        <Text c="dimmed">{q ? `No city dealers match “${q}”.` : MESSAGES.noDealers}</Text>
      ) : (
        <>
          <Text size="sm" c="dimmed" aria-live="polite">
            {`Showing ${dealers.length} of ${total.toLocaleString('en-IN')} city dealers, newest first`}
          </Text>
          <Table.ScrollContainer minWidth={640}>
            <Table striped highlightOnHover verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Email</Table.Th>
                  <Table.Th>State</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>Notice</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {dealers.map((dealer, index) => (
                  <Table.Tr
                    key={dealer.id}
                    onClick={() => setSelectedId(dealer.id)}
                    onKeyDown={(event) =>
                      (event.key === 'Enter' || event.key === ' ') && setSelectedId(dealer.id)
                    }
                    tabIndex={0}
                    style={{ cursor: 'pointer' }}
                    aria-label={`Open ${dealer.name || dealer.email}`}
                  >
                    <Table.Td>
                      {dealer.name || '-'}
                      {dealer.disabled && (
                        <Badge ml="xs" size="xs" color="gray" variant="light">
                          Disabled
                        </Badge>
                      )}
                    </Table.Td>
                    <Table.Td>{dealer.email}</Table.Td>
                    <Table.Td>{stateLabel(dealer.state)}</Table.Td>
                    <Table.Td>
                      {index === 0 && (
                        <Badge variant="light" color="teal" style={{ textTransform: 'none' }}>
                          {MESSAGES.newDealer(dealer.name || dealer.email)}
                        </Badge>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {list.hasNextPage && (
            <Center>
              <Button
                variant="default"
                loading={list.isFetchingNextPage}
                onClick={() => void list.fetchNextPage()}
              >
                Load more city dealers
              </Button>
            </Center>
          )}
        </>
      )}
      <CityDealerPopup dealer={selected} onClose={() => setSelectedId(null)} />
    </Page>
  );
}
