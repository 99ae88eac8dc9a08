import { Alert, Badge, Button, Center, Loader, Table, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { MESSAGES } from '@bmet/shared/messages';
import { Page } from '../../components/page';
import { useFranchiseList } from './api';
import { FranchisePopup } from './franchise-popup';
import { stateLabel } from './format';

/**
 * The spec's franchise list (admins: all; a city dealer: its own): newest first, searched and
 * paged on the server. The first row carries the spec's 'New Dealer: {name}' notice.
 */
export function FranchisesScreen() {
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 300);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const list = useFranchiseList(q);
  const franchises = list.data?.pages.flatMap((page) => Object.values(page.data)) ?? [];
  const total = list.data?.pages[0]?.total ?? 0;
  // The popup shows the row as last loaded, so that an edit shows at once.
  const selected = franchises.find((franchise) => franchise.id === selectedId) ?? null;

  return (
    <Page title="Franchises">
      <TextInput
        aria-label="Search franchises"
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
          <Loader aria-label="Loading franchises" />
        </Center>
      ) : total === 0 ? (
        <Text c="dimmed">{q ? `No franchises match “${q}”.` : MESSAGES.noDealers}</Text>
      ) : (
        <>
          <Text size="sm" c="dimmed" aria-live="polite">
            {`Showing ${franchises.length} of ${total.toLocaleString('en-IN')} franchises, newest first`}
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
                {franchises.map((franchise, index) => (
                  <Table.Tr
                    key={franchise.id}
                    onClick={() => setSelectedId(franchise.id)}
                    onKeyDown={(event) =>
                      (event.key === 'Enter' || event.key === ' ') && setSelectedId(franchise.id)
                    }
                    tabIndex={0}
                    style={{ cursor: 'pointer' }}
                    aria-label={`Open ${franchise.name || franchise.email}`}
                  >
                    <Table.Td>
                      {franchise.name || '-'}
                      {franchise.disabled && (
                        <Badge ml="xs" size="xs" color="gray" variant="light">
                          Disabled
                        </Badge>
                      )}
                    </Table.Td>
                    <Table.Td>{franchise.email}</Table.Td>
                    <Table.Td>{stateLabel(franchise.state)}</Table.Td>
                    <Table.Td>
                      {index === 0 && (
                        <Badge variant="light" color="teal" style={{ textTransform: 'none' }}>
                          {MESSAGES.newDealer(franchise.name || franchise.email)}
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
                Load more franchises
              </Button>
            </Center>
          )}
        </>
      )}
      <FranchisePopup franchise={selected} onClose={() => setSelectedId(null)} />
    </Page>
  );
}
