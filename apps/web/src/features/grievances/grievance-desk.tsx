import { Anchor, Button, Group, NativeSelect, Stack, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { lazy, Suspense, useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import {
  complainantKindLabel,
  grievanceCategoryLabel,
  grievanceClockLabel,
  grievancePriorityLabel,
  grievanceStatusLabel,
} from '@bmet/shared/grievance-labels';
import {
  GRIEVANCE_CATEGORIES,
  GRIEVANCE_CLOCKS,
  GRIEVANCE_PRIORITIES,
  GRIEVANCE_STATUSES,
  type GrievanceCategory,
  type GrievanceClock,
  type GrievancePriority,
} from '@bmet/shared/grievance-rules';
import { m } from '@bmet/shared/paraglide/messages';
import { can } from '@bmet/shared/permissions';
import type { Grievance } from '@bmet/shared/schemas/grievance';
import { ErrorAlert } from '../../components/error-alert';
import { ExportButton } from '../../components/export-button';
import { Filters } from '../../components/filters';
import { ListLoader } from '../../components/list-loader';
import { ListSummary } from '../../components/list-summary';
import { Cell, ListTable, listTableClasses } from '../../components/list-table';
import { LoadMoreButton } from '../../components/load-more-button';
import { Page } from '../../components/page';
import { SearchInput } from '../../components/search-input';
import { SortSelect, type SortOption } from '../../components/sort-select';
import { formatDateTime } from '../../lib/format';
import { pagedRows } from '../../lib/paged-rows';
import { isUuid, oneOf } from '../../lib/param-checks';
import { useSession } from '../../lib/session-context';
import { useListParams, type SortSpec } from '../../lib/use-list-params';
import { useGrievanceList, type GrievanceSort, type GrievanceStatusFilter } from './api';
import {
  GrievanceClockBadge,
  GrievancePriorityBadge,
  GrievanceResolvedTag,
  GrievanceStatusBadge,
  shortTripId,
} from './grievance-parts';

const GrievanceForm = lazy(() => import('./grievance-form').then((m) => ({ default: m.GrievanceForm })));

// The contract's sorts, written here: its schema file builds zod schemas the browser need not load.
const SORT: SortSpec<GrievanceSort> = { fields: ['dueAt', 'receivedAt'], defaultOrder: 'asc' };

/** The status filter: none in the address is the desk's own view, those not yet resolved. */
const ALL_STATUSES = 'all';
const PARAMS = {
  status: oneOf([...GRIEVANCE_STATUSES, ALL_STATUSES]),
  category: oneOf(GRIEVANCE_CATEGORIES),
  priority: oneOf(GRIEVANCE_PRIORITIES),
  clock: oneOf(GRIEVANCE_CLOCKS),
  // From a trip's or a driver's page: the form opens about it.
  tripId: isUuid,
  driverId: isUuid,
};

const sortOptions = (): SortOption<GrievanceSort>[] => [
  { field: 'dueAt', order: 'asc', label: m.grievanceSortDueSoonest() },
  { field: 'dueAt', order: 'desc', label: m.grievanceSortDueLatest() },
  { field: 'receivedAt', order: 'desc', label: m.grievanceSortNewest() },
  { field: 'receivedAt', order: 'asc', label: m.grievanceSortOldest() },
];

const options = <T extends string>(values: readonly T[], label: (value: T) => string) => [
  { value: '', label: m.grievanceFilterAny() },
  ...values.map((value) => ({ value, label: label(value) })),
];

/** The time now, again every minute: the clocks of the rows move on while the desk stays open. */
function useMinuteClock(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(new Date()), 60_000);
    return () => window.clearInterval(timer);
  }, []);
  return now;
}

/** What a grievance is about: its driver, its trip (a link) and its customer, one a line. */
function About({ grievance }: { grievance: Grievance }) {
  const parts = [
    grievance.driverName && <span key="driver">{grievance.driverName}</span>,
    grievance.tripId && (
      <Anchor
        key="trip"
        component={Link}
        to={`/trips/${grievance.tripId}`}
        size="sm"
        onClick={(event) => event.stopPropagation()}
        onKeyDown={(event) => event.stopPropagation()}
      >
        {m.grievanceTripLink({ id: shortTripId(grievance.tripId) })}
      </Anchor>
    ),
    grievance.customerName && (
      <span key="customer">{m.grievanceCustomerName({ name: grievance.customerName })}</span>
    ),
  ].filter(Boolean);
  if (parts.length === 0)
    return (
      <Text size="sm" c="dimmed">
        {m.grievanceNothingNamed()}
      </Text>
    );
  return (
    <Stack gap={0} align="flex-start">
      {parts}
    </Stack>
  );
}

/**
 * `/grievances`: the desk. Complaints in the caller's scope, those not yet resolved first and the
 * soonest deadline on top, each with where it stands against its deadline; searched, filtered,
 * sorted and paged on the server, with the view in the address. A row opens the grievance.
 */
export function GrievanceDesk() {
  const navigate = useNavigate();
  const { session } = useSession();
  const now = useMinuteClock();
  const { values, update, search, setSearch, q, sort, setSort, sortQuery } = useListParams({
    params: PARAMS,
    sort: SORT,
  });
  const [adding, setAdding] = useState(() => Boolean(values.tripId || values.driverId));
  const statusParam = values.status;
  const status: GrievanceStatusFilter | undefined =
    statusParam === ALL_STATUSES ? undefined : ((statusParam as GrievanceStatusFilter) ?? 'unresolved');
  const category = values.category as GrievanceCategory | undefined;
  const priority = values.priority as GrievancePriority | undefined;
  const clock = values.clock as GrievanceClock | undefined;
  const query = { q, status, category, priority, clock, ...sortQuery };
  const list = useGrievanceList(query);
  const { rows: grievances, total, totalCapped } = pagedRows(list.data);
  const open = (id: string) => navigate(`/grievances/${id}`);
  const active = [statusParam, category, priority, clock].filter(Boolean).length;
  const closeForm = () => {
    setAdding(false);
    if (values.tripId || values.driverId)
      update({ tripId: undefined, driverId: undefined }, { replace: true });
  };

  return (
    <Page
      title={m.grievancesTitle()}
      actions={
        <Group gap="sm">
          <Button component={Link} to="/grievances/report" variant="subtle">
            {m.grievanceReportLink()}
          </Button>
          {can(session, ['holidays', 'create']) && (
            <Button component={Link} to="/grievances/settings" variant="subtle">
              {m.grievanceSettingsLink()}
            </Button>
          )}
          <ExportButton path="/grievances/export.csv" query={query} />
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setAdding(true)}>
            {m.grievanceLogButton()}
          </Button>
        </Group>
      }
    >
      <Group align="end" gap="sm" wrap="wrap">
        <SearchInput
          label={m.grievanceSearchLabel()}
          placeholder={m.grievanceSearchPlaceholder()}
          value={search}
          onChange={setSearch}
          width={320}
        />
        <SortSelect options={sortOptions()} sort={sort} onChange={setSort} />
        <Filters active={active}>
          <NativeSelect
            label={m.grievanceStatus()}
            value={statusParam ?? ''}
            onChange={(event) => update({ status: event.currentTarget.value })}
            data={[
              { value: '', label: m.grievanceStatusUnresolved() },
              { value: ALL_STATUSES, label: m.grievanceFilterAllStatuses() },
              ...GRIEVANCE_STATUSES.map((value) => ({ value, label: grievanceStatusLabel(value) })),
            ]}
            w={{ base: '100%', xs: 200 }}
          />
          <NativeSelect
            label={m.grievanceCategory()}
            value={category ?? ''}
            onChange={(event) => update({ category: event.currentTarget.value })}
            data={options(GRIEVANCE_CATEGORIES, grievanceCategoryLabel)}
            w={{ base: '100%', xs: 150 }}
          />
          <NativeSelect
            label={m.grievancePriority()}
            value={priority ?? ''}
            onChange={(event) => update({ priority: event.currentTarget.value })}
            data={options(GRIEVANCE_PRIORITIES, grievancePriorityLabel)}
            w={{ base: '100%', xs: 130 }}
          />
          <NativeSelect
            label={m.grievanceDeadline()}
            value={clock ?? ''}
            onChange={(event) => update({ clock: event.currentTarget.value })}
            data={options(GRIEVANCE_CLOCKS, grievanceClockLabel)}
            w={{ base: '100%', xs: 170 }}
          />
        </Filters>
      </Group>
      {list.isError && !list.data ? (
        <ErrorAlert error={list.error} />
      ) : list.isPending ? (
        <ListLoader label={m.grievanceLoading()} />
      ) : (
        <>
          <ListSummary
            shown={grievances.length}
            total={total}
            totalCapped={totalCapped}
            noun={m.grievanceNoun()}
            query={q}
            empty={m.grievanceEmpty()}
          />
          {grievances.length > 0 && (
            <ListTable
              label={m.grievancesTitle()}
              sorting={{ ...sort, onSort: setSort }}
              columns={[
                m.grievanceNumber(),
                { label: m.grievanceReceived(), sort: 'receivedAt' },
                m.grievanceComplainant(),
                m.grievanceAbout(),
                m.grievanceCategory(),
                m.grievancePriority(),
                m.grievanceStatus(),
                { label: m.grievanceDeadline(), sort: 'dueAt' },
              ]}
            >
              {grievances.map((grievance) => (
                <tr
                  key={grievance.id}
                  role="row"
                  data-clickable
                  onClick={() => open(grievance.id)}
                  onKeyDown={(event) => (event.key === 'Enter' || event.key === ' ') && open(grievance.id)}
                  tabIndex={0}
                  aria-label={m.grievanceOpenRow({ number: grievance.number })}
                >
                  <Cell label="">
                    <span className={listTableClasses.title}>{grievance.number}</span>
                  </Cell>
                  <Cell label={m.grievanceReceived()}>{formatDateTime(grievance.receivedAt)}</Cell>
                  <Cell label={m.grievanceComplainant()}>
                    <Stack gap={0} align="flex-start">
                      <span>{grievance.complainant.name}</span>
                      <Text size="xs" c="dimmed">
                        {complainantKindLabel(grievance.complainant.kind)}
                      </Text>
                    </Stack>
                  </Cell>
                  <Cell label={m.grievanceAbout()}>
                    <About grievance={grievance} />
                  </Cell>
                  <Cell label={m.grievanceCategory()}>{grievanceCategoryLabel(grievance.category)}</Cell>
                  <Cell label={m.grievancePriority()}>
                    <GrievancePriorityBadge priority={grievance.priority} />
                  </Cell>
                  <Cell label={m.grievanceStatus()}>
                    <GrievanceStatusBadge status={grievance.status} />
                  </Cell>
                  <Cell label={m.grievanceDeadline()}>
                    <Stack gap={4} align="flex-start">
                      <span className={listTableClasses.nowrap}>{formatDateTime(grievance.dueAt)}</span>
                      <GrievanceClockBadge clock={grievance.clock} dueAt={grievance.dueAt} now={now} />
                      <GrievanceResolvedTag inTime={grievance.resolvedInTime} />
                    </Stack>
                  </Cell>
                </tr>
              ))}
            </ListTable>
          )}
          <LoadMoreButton query={list}>{m.grievanceLoadMore()}</LoadMoreButton>
        </>
      )}
      {adding && (
        <Suspense fallback={null}>
          <GrievanceForm
            tripId={values.tripId ?? null}
            driverId={values.driverId ?? null}
            onClose={closeForm}
            onCreated={(grievance) => open(grievance.id)}
          />
        </Suspense>
      )}
    </Page>
  );
}
