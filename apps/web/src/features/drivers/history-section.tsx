import { Text } from '@mantine/core';
import { useDeferredValue } from 'react';
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
  const history = useDeferredValue(useHistory(driverId));
  if (history.isPending)
    return (
      <Text c="dimmed" data-content-loading="">
        {m.loadingBookingHistory()}
      </Text>
    );
  if (history.isError) return <Text c="red">{history.error.message}</Text>;
  const entries = history.data.pages.flatMap((page) => page.data);
  if (entries.length === 0) return <Text c="dimmed">{m.noBookingHistory()}</Text>;
  return (
    <>
      <ListTable
        label={m.driversSectionBookings()}
        columns={[
          m.driversCustomerName(),
          m.driversPickupLocation(),
          m.driversDestinationLocation(),
          m.driversDistanceKm(),
          m.driversPrice(),
          m.driversDateAndTime(),
        ]}
      >
        {entries.map((entry) => (
          <tr key={entry.id} role="row">
            <Cell label={m.driversCustomerName()}>{dash(entry.customerName)}</Cell>
            <Cell label={m.driversPickupLocation()}>{dash(entry.pickUpLocation)}</Cell>
            <Cell label={m.driversDestinationLocation()}>{dash(entry.destinationLocation)}</Cell>
            <Cell label={m.driversDistanceKm()}>{dash(entry.distance)}</Cell>
            <Cell label={m.driversPrice()}>{rupees(entry.price)}</Cell>
            <Cell label={m.driversDateAndTime()}>{formatDateTime(entry.dateTime)}</Cell>
          </tr>
        ))}
      </ListTable>
      <LoadMoreButton query={history} size="xs">
        {m.driversLoadMoreBookings()}
      </LoadMoreButton>
    </>
  );
}
