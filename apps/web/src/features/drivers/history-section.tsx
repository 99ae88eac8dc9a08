import { Text } from '@mantine/core';
import { m } from '@bmet/shared/paraglide/messages';
import { Cell, ListTable } from '../../components/list-table';
import { LoadMoreButton } from '../../components/load-more-button';
import { formatDateTime, formatRupees } from '../../lib/format';
import { useHistory } from './api';

const dash = (value: string | number | null | undefined) =>
  value === null || value === undefined || value === '' ? '-' : value;
const rupees = (value: number | null) => (value === null ? '-' : formatRupees(value));

/** The driver's bookings, newest first, paged. */
export function HistorySection({ driverId }: { driverId: string }) {
  const history = useHistory(driverId);
  if (history.isPending) return <Text c="dimmed">{m.loadingBookingHistory()}</Text>;
  if (history.isError) return <Text c="red">{history.error.message}</Text>;
  const entries = history.data.pages.flatMap((page) => page.data);
  if (entries.length === 0) return <Text c="dimmed">{m.noBookingHistory()}</Text>;
  return (
    <>
      <ListTable
        label="Booking history"
        columns={[
          'Customer Name',
          'Pickup Location',
          'Destination Location',
          'Distance (km)',
          'Price',
          'Date and Time',
        ]}
      >
        {entries.map((entry) => (
          <tr key={entry.id} role="row">
            <Cell label="Customer Name">{dash(entry.customerName)}</Cell>
            <Cell label="Pickup Location">{dash(entry.pickUpLocation)}</Cell>
            <Cell label="Destination Location">{dash(entry.destinationLocation)}</Cell>
            <Cell label="Distance (km)">{dash(entry.distance)}</Cell>
            <Cell label="Price">{rupees(entry.price)}</Cell>
            <Cell label="Date and Time">{formatDateTime(entry.dateTime)}</Cell>
          </tr>
        ))}
      </ListTable>
      <LoadMoreButton query={history} size="xs">
        Load more bookings
      </LoadMoreButton>
    </>
  );
}
