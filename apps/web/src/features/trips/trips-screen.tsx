import { Group, NativeSelect, Text } from '@mantine/core';
import { lazy, useMemo, useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import type { CarType, TripStatus } from '@bmet/shared/constants';
import { CAR_TYPES, TRIP_STATUSES } from '@bmet/shared/constants';
import { m } from '@bmet/shared/paraglide/messages';
import type { Trip } from '@bmet/shared/schemas/trip';
import { DateField } from '../../components/date-field';
import { Filters } from '../../components/filters';
import { ErrorAlert } from '../../components/error-alert';
import { ExportButton } from '../../components/export-button';
import { ListLoader } from '../../components/list-loader';
import { Cell, ListTable, listTableClasses } from '../../components/list-table';
import { RowButton, Tag, type TagColor } from '../../components/row-parts';
import { LoadMoreButton } from '../../components/load-more-button';
import { Page } from '../../components/page';
import { SearchInput } from '../../components/search-input';
import { pagedRows } from '../../lib/paged-rows';
import { useSession } from '../../lib/session-context';
import { useSearch } from '../../lib/use-search';
import { readTripListAddress } from '../../lib/trip-list-address';
import { LinkedFilterButtons, type LinkedFilters } from './linked-filters';
import { useTripList, type TripFilters } from './api';
import { OnDemand } from '../../components/on-demand';
import { carTypeLabel } from '@bmet/shared/labels';

const TripDetailDrawer = lazy(() =>
  import('./trip-detail-panel').then((m) => ({ default: m.TripDetailDrawer })),
);

const STATUS_COLORS: Record<TripStatus, TagColor> = {
  requested: 'gray',
  assigned: 'blue',
  started: 'cyan',
  completed: 'teal',
  cancelled: 'red',
};
const STATUS_LABELS: Record<TripStatus, () => string> = {
  requested: m.tripsStatusRequested,
  assigned: m.tripsStatusAssigned,
  started: m.tripsStatusStarted,
  completed: m.tripsStatusCompleted,
  cancelled: m.tripsStatusCancelled,
};
const label = (status: TripStatus) => STATUS_LABELS[status]();
const any = () => ({ value: '', label: m.tripsFilterAny() });

function Badges({ trip, first }: { trip: Trip; first: boolean }) {
  if (first)
    return (
      <Tag color="grape" variant="filled">
        {m.mostRecentTrip()}
      </Tag>
    );
  if (!trip.paid && !trip.completed) return null;
  return (
    <span className={listTableClasses.cellGroup}>
      {trip.paid && <Tag color="green">{m.tripsPaid()}</Tag>}
      {trip.completed && <Tag color="teal">{m.tripsStatusCompleted()}</Tag>}
    </span>
  );
}

/** The spec's trip list: searched and filtered on the server, newest first, paged. */
export function TripsScreen() {
  const { session } = useSession();
  const { tripId } = useParams();
  const navigate = useNavigate();
  // The filters a link opened the list with (a dashboard bar): read once, then the screen's own.
  const [address] = useSearchParams();
  const [opened] = useState(() => readTripListAddress(address));
  const { search, setSearch, q } = useSearch(150, opened.q);
  const [status, setStatus] = useState<string | null>(opened.status ?? null);
  const [paid, setPaid] = useState<string | null>(
    opened.paid === undefined ? null : opened.paid ? 'paid' : 'unpaid',
  );
  const [carType, setCarType] = useState<string | null>(opened.carType ?? null);
  const [from, setFrom] = useState(opened.from ?? '');
  const [to, setTo] = useState(opened.to ?? '');
  const [linked, setLinked] = useState<LinkedFilters>(() => ({
    franchiseId: opened.franchiseId,
    franchiseName: opened.franchiseName,
    state: opened.state,
    hour: opened.hour,
  }));
  const filters: TripFilters = useMemo(
    () => ({
      q,
      status: (status as TripStatus | null) ?? undefined,
      paid: paid === null ? undefined : paid === 'paid',
      carType: (carType as CarType | null) ?? undefined,
      from: from || undefined,
      to: to || undefined,
      franchiseId: linked.franchiseId,
      state: linked.state,
      hour: linked.hour,
    }),
    [q, status, paid, carType, from, to, linked],
  );
  const list = useTripList(session!.role, filters);
  const { rows: trips } = pagedRows(list.data);

  if (list.isError && !list.data) {
    return (
      <Page title={m.listOfTrips()}>
        <ErrorAlert error={list.error} />
      </Page>
    );
  }

  const table = (
    <ListTable
      label={m.listOfTrips()}
      columns={[
        m.tripsColumnTitle(),
        m.tripsPickUpLocation(),
        m.tripsDestinationLocation(),
        m.tripsStatus(),
        m.tripsColumnActions(),
      ]}
    >
      {trips.map((trip, index) => (
        <tr key={trip.id} role="row" data-selected={trip.id === tripId || undefined}>
          <Cell label="">
            <div className={listTableClasses.title}>{trip.title}</div>
            <Badges trip={trip} first={index === 0} />
          </Cell>
          <Cell label={m.tripsPickUpLocation()}>{trip['pick-up'].location ?? '-'}</Cell>
          <Cell label={m.tripsDestinationLocation()}>{trip.destination.location ?? '-'}</Cell>
          <Cell label={m.tripsStatus()}>
            <Tag color={STATUS_COLORS[trip.status]} variant="outline">
              {label(trip.status)}
            </Tag>
          </Cell>
          <Cell label="">
            <RowButton onClick={() => navigate(`/trips/${trip.id}`)}>{m.tripsViewDetails()}</RowButton>
          </Cell>
        </tr>
      ))}
    </ListTable>
  );

  return (
    <Page title={m.listOfTrips()} actions={<ExportButton path="/trips/export.csv" query={filters} />}>
      <Group align="end" gap="sm" wrap="wrap">
        <SearchInput
          label={m.tripsSearchLabel()}
          placeholder={m.searchTrips()}
          value={search}
          onChange={setSearch}
          width={260}
        />
        <Filters active={[status, paid, carType, from, to].filter(Boolean).length}>
          {/* Native selects: the phone's own picker, and no dropdown code to load. */}
          <NativeSelect
            label={m.tripsStatus()}
            value={status ?? ''}
            onChange={(e) => setStatus(e.currentTarget.value || null)}
            data={[any(), ...TRIP_STATUSES.map((s) => ({ value: s, label: label(s) }))]}
            w={140}
          />
          <NativeSelect
            label={m.tripsFilterPayment()}
            value={paid ?? ''}
            onChange={(e) => setPaid(e.currentTarget.value || null)}
            data={[
              any(),
              { value: 'paid', label: m.tripsPaid() },
              { value: 'unpaid', label: m.tripsUnpaid() },
            ]}
            w={120}
          />
          <NativeSelect
            label={m.tripsFilterCarType()}
            value={carType ?? ''}
            onChange={(e) => setCarType(e.currentTarget.value || null)}
            data={[any(), ...CAR_TYPES.map((c) => ({ value: c, label: carTypeLabel(c) }))]}
            w={140}
          />
          <DateField label={m.tripsFilterFrom()} value={from} onChange={setFrom} w={150} />
          <DateField label={m.tripsFilterTo()} value={to} onChange={setTo} w={150} />
        </Filters>
      </Group>
      <LinkedFilterButtons filters={linked} onChange={setLinked} />
      {list.isPending ? (
        <ListLoader label={m.tripsLoading()} />
      ) : (
        <>
          {trips.length === 0 ? <Text c="dimmed">{m.tripsNoneMatch()}</Text> : table}
          <LoadMoreButton query={list} mt="sm">
            {m.tripsLoadMore()}
          </LoadMoreButton>
        </>
      )}
      {/* Its code loads with the first trip opened (from a row or from the address). */}
      <OnDemand open={Boolean(tripId)}>
        <TripDetailDrawer tripId={tripId} onClose={() => navigate('/trips')} />
      </OnDemand>
    </Page>
  );
}
