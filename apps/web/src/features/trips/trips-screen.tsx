import { Group, NativeSelect, Stack, Text } from '@mantine/core';
import { lazy, useMemo } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import type { TripStatus } from '@bmet/shared/constants';
import { CAR_TYPES, TRIP_STATUSES } from '@bmet/shared/constants';
import { m } from '@bmet/shared/paraglide/messages';
import { DEFAULT_ORDERS, TRIP_SORTS } from '@bmet/shared/schemas/sort';
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
import { SortSelect, type SortOption } from '../../components/sort-select';
import { pagedRows } from '../../lib/paged-rows';
import { useSession } from '../../lib/session-context';
import { readTripListAddress } from '../../lib/trip-list-address';
import { useListParams, type SortSpec } from '../../lib/use-list-params';
import { LinkedFilterButtons, type LinkedFilters } from './linked-filters';
import type { TripSort } from '@bmet/shared/schemas/sort';
import type { TripListFilters } from '@bmet/shared/schemas/trip';
import { normalisePhone } from '@bmet/shared/search-terms';
import { useTripCount, useTripList } from './api';
import { OnDemand } from '../../components/on-demand';
import { carTypeLabel } from '@bmet/shared/labels';
import { ListSummary } from '../../components/list-summary';
import { formatDate, formatRupees, formatTime } from '../../lib/format';

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
/** A trip's short id: the last 6 characters of its id. */
const shortId = (id: string) => id.slice(-6);
const any = () => ({ value: '', label: m.tripsFilterAny() });

const SORT: SortSpec<TripSort> = { fields: TRIP_SORTS, defaultOrder: DEFAULT_ORDERS.trips };

const sortOptions = (): SortOption<TripSort>[] => [
  { field: 'createdAt', order: 'desc', label: m.sortNewestFirst() },
  { field: 'createdAt', order: 'asc', label: m.sortOldestFirst() },
  { field: 'price', order: 'asc', label: m.sortPriceAsc() },
  { field: 'price', order: 'desc', label: m.sortPriceDesc() },
  { field: 'status', order: 'asc', label: m.sortStatusAsc() },
  { field: 'status', order: 'desc', label: m.sortStatusDesc() },
];

/** The payment filter's choices as the address writes them (`paid=true|false`). */
const PAID_CHOICES = { paid: 'true', unpaid: 'false' } as const;

/** 'Most Recent Trip' on the first row when the list is newest first, else Paid and Completed. */
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

/**
 * The spec's trip list: searched and filtered on the server, newest first unless sorted otherwise,
 * paged. Its search, filters and sort live in the address (the dashboard links to it with filters),
 * and an open trip is `/trips/:tripId` with the same query.
 */
export function TripsScreen() {
  const { session } = useSession();
  const { tripId } = useParams();
  const navigate = useNavigate();
  const { search: query } = useLocation();
  const { params, update, search, setSearch, q, sort, setSort, sortQuery } = useListParams({ sort: SORT });
  const address = useMemo(() => readTripListAddress(params), [params]);
  const filters: TripListFilters = useMemo(
    () => ({
      q,
      status: address.status,
      paid: address.paid,
      carType: address.carType,
      from: address.from,
      to: address.to,
      franchiseId: address.franchiseId,
      state: address.state,
      hour: address.hour,
      ...sortQuery,
    }),
    [q, address, sortQuery],
  );
  const linked: LinkedFilters = {
    franchiseId: address.franchiseId,
    franchiseName: address.franchiseName,
    state: address.state,
    hour: address.hour,
  };
  const paid = address.paid === undefined ? '' : address.paid ? 'paid' : 'unpaid';
  const list = useTripList(session!.role, filters);
  const { rows: trips } = pagedRows(list.data);
  const count = useTripCount(filters, Boolean(list.data));

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
      sorting={{ ...sort, onSort: setSort }}
      columns={[
        m.tripsColumnTitle(),
        { label: m.tripsColumnWhen(), sort: 'createdAt' },
        m.tripsPickUpLocation(),
        m.tripsDestinationLocation(),
        m.tripsColumnDriver(),
        m.tripsColumnCarType(),
        { label: m.tripsColumnFare(), sort: 'price' },
        { label: m.tripsStatus(), sort: 'status' },
        m.tripsColumnShortId(),
        m.tripsColumnActions(),
      ]}
    >
      {trips.map((trip, index) => (
        <tr key={trip.id} role="row" data-selected={trip.id === tripId || undefined}>
          <Cell label="">
            <div className={listTableClasses.title}>{trip.title}</div>
            <Badges trip={trip} first={index === 0 && sort.isDefault} />
          </Cell>
          <Cell label={m.tripsColumnWhen()}>
            {/* The day over the time where the column is narrow (ten columns on a laptop). */}
            <span className={listTableClasses.nowrap}>{formatDate(trip.createdAt)},</span>{' '}
            <span className={listTableClasses.nowrap}>{formatTime(trip.createdAt)}</span>
          </Cell>
          <Cell label={m.tripsPickUpLocation()}>
            <span className={listTableClasses.wholeWords}>{trip['pick-up'].location ?? '-'}</span>
          </Cell>
          <Cell label={m.tripsDestinationLocation()}>
            <span className={listTableClasses.wholeWords}>{trip.destination.location ?? '-'}</span>
          </Cell>
          <Cell label={m.tripsColumnDriver()}>
            <span className={listTableClasses.words}>{trip.driver_info?.name ?? '-'}</span>
          </Cell>
          <Cell label={m.tripsColumnCarType()}>
            <span className={listTableClasses.words}>{trip.carType ? carTypeLabel(trip.carType) : '-'}</span>
          </Cell>
          <Cell label={m.tripsColumnFare()}>
            <span className={listTableClasses.nowrap}>
              {trip.price === null ? '-' : formatRupees(trip.price)}
            </span>
          </Cell>
          <Cell label={m.tripsStatus()}>
            <Tag color={STATUS_COLORS[trip.status]} variant="outline">
              {label(trip.status)}
            </Tag>
          </Cell>
          <Cell label={m.tripsColumnShortId()}>
            {/* The last 6 characters, which the search finds a trip by. */}
            <code
              className={listTableClasses.nowrap}
              aria-label={m.tripsShortIdLabel({ id: shortId(trip.id) })}
            >
              {shortId(trip.id)}
            </code>
          </Cell>
          <Cell label="">
            <RowButton onClick={() => navigate(`/trips/${trip.id}${query}`)}>
              {m.tripsViewDetails()}
            </RowButton>
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
        <SortSelect options={sortOptions()} sort={sort} onChange={setSort} />
        <Filters
          active={[address.status, paid, address.carType, address.from, address.to].filter(Boolean).length}
        >
          {/* Native selects: the phone's own picker, and no dropdown code to load. */}
          <NativeSelect
            label={m.tripsStatus()}
            value={address.status ?? ''}
            onChange={(e) => update({ status: e.currentTarget.value })}
            data={[any(), ...TRIP_STATUSES.map((s) => ({ value: s, label: label(s) }))]}
            w={140}
          />
          <NativeSelect
            label={m.tripsFilterPayment()}
            value={paid}
            onChange={(e) =>
              update({ paid: PAID_CHOICES[e.currentTarget.value as keyof typeof PAID_CHOICES] })
            }
            data={[
              any(),
              { value: 'paid', label: m.tripsPaid() },
              { value: 'unpaid', label: m.tripsUnpaid() },
            ]}
            w={120}
          />
          <NativeSelect
            label={m.tripsFilterCarType()}
            value={address.carType ?? ''}
            onChange={(e) => update({ carType: e.currentTarget.value })}
            data={[any(), ...CAR_TYPES.map((c) => ({ value: c, label: carTypeLabel(c) }))]}
            w={140}
          />
          <DateField
            label={m.tripsFilterFrom()}
            value={address.from ?? ''}
            onChange={(from) => update({ from })}
            w={150}
          />
          <DateField
            label={m.tripsFilterTo()}
            value={address.to ?? ''}
            onChange={(to) => update({ to })}
            w={150}
          />
        </Filters>
      </Group>
      <LinkedFilterButtons
        filters={linked}
        onChange={(remaining) =>
          update({
            franchiseId: remaining.franchiseId,
            franchiseName: remaining.franchiseName,
            state: remaining.state,
            hour: remaining.hour?.toString(),
          })
        }
      />
      {list.isPending ? (
        <ListLoader label={m.tripsLoading()} />
      ) : (
        <>
          {trips.length === 0 ? (
            <Stack gap={4}>
              <Text c="dimmed">{m.tripsNoneMatch()}</Text>
              {q && (
                // What was searched, and what else a caller can give.
                <Text size="sm" c="dimmed">
                  {normalisePhone(q)
                    ? `${m.tripsSearchedForPhone({ q })} ${m.tripsSearchTryPhone()}`
                    : `${m.tripsSearchedFor({ q })} ${m.tripsSearchTry()}`}
                </Text>
              )}
            </Stack>
          ) : (
            <>
              {count.data && (
                <ListSummary
                  shown={trips.length}
                  total={count.data.total}
                  totalCapped={count.data.totalCapped}
                  noun={m.tripsNoun()}
                  query={q}
                  empty={null}
                />
              )}
              {table}
            </>
          )}
          <LoadMoreButton query={list} mt="sm">
            {m.tripsLoadMore()}
          </LoadMoreButton>
        </>
      )}
      {/* Its code loads with the first trip opened (from a row or from the address). */}
      <OnDemand open={Boolean(tripId)}>
        <TripDetailDrawer tripId={tripId} onClose={() => navigate(`/trips${query}`)} />
      </OnDemand>
    </Page>
  );
}
