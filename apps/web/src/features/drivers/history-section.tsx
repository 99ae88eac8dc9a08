import { Table, Text } from '@mantine/core';
import { MESSAGES } from '@bmet/shared/messages';
import { LoadMoreButton } from '../../components/load-more-button';
import { formatDateTime, formatRupees } from '../../lib/format';
import { useHistory } from './api';

const dash = (value: string | number | null | undefined) =>
  value === null || value === undefined || value === '' ? '-' : value;
const rupees = (value: number | null) => (value === null ? '-' : formatRupees(value));

/** The driver's bookings, newest first, paged. */
export function HistorySection({ driverId }: { driverId: string }) {
  const history = useHistory(driverId);
  if (history.isPending) return <Text c="dimmed">{MESSAGES.loadingBookingHistory}</Text>;
  if (history.isError) return <Text c="red">{history.error.message}</Text>;
  const entries = history.data.pages.flatMap((page) => page.data);
  if (entries.length === 0) return <Text c="dimmed">{MESSAGES.noBookingHistory}</Text>;
  return (
    <>
      <Table.ScrollContainer minWidth={760}>
        <Table striped verticalSpacing="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Customer Name</Table.Th>
              <Table.Th>Pickup Location</Table.Th>
              <Table.Th>Destination Location</Table.Th>
              <Table.Th>Distance (km)</Table.Th>
              <Table.Th>Price</Table.Th>
              <Table.Th>Date and Time</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {entries.map((entry) => (
              <Table.Tr key={entry.id}>
                <Table.Td>{dash(entry.customerName)}</Table.Td>
                <Table.Td>{dash(entry.pickUpLocation)}</Table.Td>
                <Table.Td>{dash(entry.destinationLocation)}</Table.Td>
                <Table.Td>{dash(entry.distance)}</Table.Td>
                <Table.Td>{rupees(entry.price)}</Table.Td>
                <Table.Td>{formatDateTime(entry.dateTime)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <LoadMoreButton query={history} size="xs">
        Load more bookings
      </LoadMoreButton>
    </>
  );
}
