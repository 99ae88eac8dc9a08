import { Group, Loader, Paper, SegmentedControl, SimpleGrid, Stack, Text } from '@mantine/core';
import { lazy, Suspense, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { ACTIVE_DRIVER_MINUTES } from '@bmet/shared/constants';
import { can } from '@bmet/shared/permissions';
import { m } from '@bmet/shared/paraglide/messages';
import { cancelReasonLabel } from '@bmet/shared/cancel-reasons';
import { DateField } from '../../components/date-field';
import { ErrorAlert } from '../../components/error-alert';
import { Figure } from '../../components/figure';
import { Page } from '../../components/page';
import { formatCalendarDate, formatCount, formatRupees } from '../../lib/format';
import { useSession } from '../../lib/session-context';
import { useStats, type StatsData } from './api';
import { periodFromSearch, PRESETS, type Period, type Preset } from './period';

// The charts come after the figures, in a chunk of their own that no other screen loads.
const charts = () => import('./charts');
const TripsPerDayChart = lazy(() => charts().then((c) => ({ default: c.TripsPerDayChart })));
const CarTypesChart = lazy(() => charts().then((c) => ({ default: c.CarTypesChart })));
const BusiestHoursChart = lazy(() => charts().then((c) => ({ default: c.BusiestHoursChart })));
const FranchisesChart = lazy(() => charts().then((c) => ({ default: c.FranchisesChart })));
const StatesChart = lazy(() => charts().then((c) => ({ default: c.StatesChart })));

const PRESET_LABELS: Record<Preset, () => string> = {
  today: m.dashboardPeriodToday,
  '7d': m.dashboardPeriod7Days,
  '30d': m.dashboardPeriod30Days,
  custom: m.dashboardPeriodCustom,
};

/** The period chooser: today, 7 or 30 days, or chosen days, kept in the address. */
function PeriodChooser({ preset, period }: { preset: Preset; period: Period }) {
  const [, setSearch] = useSearchParams();
  const choose = (next: Preset) =>
    setSearch(next === 'custom' ? { period: next, ...period } : { period: next }, { replace: true });
  // A bound moved past the other one takes it along: the period never ends before it starts.
  const setBound = (bound: keyof Period) => (date: string) => {
    if (!date) return;
    const next = { ...period, [bound]: date };
    if (next.from > next.to) next[bound === 'from' ? 'to' : 'from'] = date;
    setSearch({ period: 'custom', ...next }, { replace: true });
  };
  return (
    <Stack gap="xs">
      <SegmentedControl
        aria-label={m.dashboardPeriod()}
        value={preset}
        onChange={(value) => choose(value as Preset)}
        data={PRESETS.map((value) => ({ value, label: PRESET_LABELS[value]() }))}
        w={{ base: '100%', xs: 'auto' }}
      />
      {preset === 'custom' && (
        <Group gap="sm" align="end">
          <DateField label={m.dashboardFrom()} value={period.from} onChange={setBound('from')} w={150} />
          <DateField label={m.dashboardTo()} value={period.to} onChange={setBound('to')} w={150} />
        </Group>
      )}
      <Text size="sm" c="dimmed" aria-live="polite">
        {m.dashboardPeriodRange({ from: formatCalendarDate(period.from), to: formatCalendarDate(period.to) })}
      </Text>
    </Stack>
  );
}

/** One figure: its name, its value and a line on what it counts. */

const orDash = (value: number | null, format: (value: number) => string) =>
  value === null ? '-' : format(value);

/** The period's figures, and the drivers' figures of now. */
function Figures({ figures }: { figures: StatsData<'overview'> }) {
  const rate = figures.cancellationRate === null ? null : Math.round(figures.cancellationRate * 1000) / 10;
  return (
    <Stack gap="sm">
      <SimpleGrid
        cols={{ base: 2, sm: 3, lg: 4 }}
        spacing="sm"
        role="list"
        aria-label={m.dashboardFiguresLabel()}
      >
        {[
          <Figure
            key="trips"
            testId="figure-trips"
            label={m.dashboardTrips()}
            value={formatCount(figures.trips)}
          />,
          <Figure
            key="completed"
            testId="figure-completed"
            label={m.dashboardCompleted()}
            value={formatCount(figures.completed)}
          />,
          <Figure
            key="cancelled"
            testId="figure-cancelled"
            label={m.dashboardCancelled()}
            value={formatCount(figures.cancelled)}
            hint={rate === null ? undefined : m.dashboardCancellationRate({ rate: String(rate) })}
          />,
          <Figure
            key="revenue"
            testId="figure-revenue"
            label={m.dashboardRevenue()}
            value={formatRupees(figures.revenue)}
            hint={m.dashboardRevenueHint()}
          />,
          <Figure
            key="fare"
            testId="figure-average-fare"
            label={m.dashboardAverageFare()}
            value={orDash(figures.averageFare, formatRupees)}
            hint={m.dashboardAveragesHint()}
          />,
          <Figure
            key="distance"
            testId="figure-average-distance"
            label={m.dashboardAverageDistance()}
            value={orDash(figures.averageDistanceKm, (km) => m.dashboardDistanceKm({ km: String(km) }))}
            hint={m.dashboardAveragesHint()}
          />,
          <Figure
            key="active"
            testId="figure-active-drivers"
            label={m.dashboardActiveDrivers()}
            value={formatCount(figures.activeDrivers)}
            hint={m.dashboardActiveDriversHint({ minutes: ACTIVE_DRIVER_MINUTES })}
          />,
          <Figure
            key="pending"
            testId="figure-pending-reviews"
            label={m.dashboardPendingReviews()}
            value={formatCount(figures.pendingReviews)}
            hint={m.dashboardPendingReviewsHint()}
          />,
          ...(figures.newCustomers === null
            ? []
            : [
                <Figure
                  key="customers"
                  testId="figure-new-customers"
                  label={m.dashboardNewCustomers()}
                  value={formatCount(figures.newCustomers)}
                />,
              ]),
        ].map((figure) => (
          <div role="listitem" key={figure.key}>
            {figure}
          </div>
        ))}
      </SimpleGrid>
      {figures.cancelReasons.length > 0 && (
        <Paper withBorder p="md" radius="md" component="section" aria-label={m.dashboardTopReasons()}>
          <Text size="sm" c="dimmed" mb={4}>
            {m.dashboardTopReasons()}
          </Text>
          <Stack gap={2} component="ol" m={0} pl="md" data-testid="cancel-reasons">
            {figures.cancelReasons.map(({ reason, trips }) => (
              <Text component="li" size="sm" key={reason}>
                {reason ? cancelReasonLabel(reason) : m.dashboardNoReason()}
                {' · '}
                {formatCount(trips)}
              </Text>
            ))}
          </Stack>
        </Paper>
      )}
    </Stack>
  );
}

/** A figure's loading, failure, or the chart itself once its numbers are in. */
function Loaded<T>({
  query,
  children,
}: {
  query: { data: T | undefined; error: Error | null; isPending: boolean };
  children: (data: T) => ReactNode;
}) {
  if (query.error && query.data === undefined) return <ErrorAlert error={query.error} />;
  if (query.data === undefined) return <Loader size="sm" aria-label={m.dashboardLoading()} />;
  return (
    <Suspense fallback={<Loader size="sm" aria-label={m.dashboardLoading()} />}>
      {children(query.data)}
    </Suspense>
  );
}

/** The operations dashboard: how the period is going in the caller's scope, figures then charts. */
export function DashboardScreen() {
  const { session } = useSession();
  const [search] = useSearchParams();
  const { preset, period } = periodFromSearch(search);
  const role = session!.role;
  const byFranchise = can(role, ['dashboard', 'franchises']);
  const byState = can(role, ['dashboard', 'states']);
  const overview = useStats('overview', period);

  // A period the server refuses (longer than a year) is said once, not under every chart.
  const refused = overview.error && overview.data === undefined;
  return (
    <Page title={m.dashboardTitle()}>
      <PeriodChooser preset={preset} period={period} />
      <Loaded query={overview}>{(figures) => <Figures figures={figures} />}</Loaded>
      {!refused && <Charts period={period} byFranchise={byFranchise} byState={byState} />}
    </Page>
  );
}

/** The charts of the period, each loading on its own. */
function Charts({
  period,
  byFranchise,
  byState,
}: {
  period: Period;
  byFranchise: boolean;
  byState: boolean;
}) {
  const daily = useStats('daily', period);
  const carTypes = useStats('car-types', period);
  const hours = useStats('hours', period);
  const franchises = useStats('franchises', period, byFranchise);
  const states = useStats('states', period, byState);
  return (
    <>
      <Loaded query={daily}>{(days) => <TripsPerDayChart days={days} />}</Loaded>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md" style={{ alignItems: 'start' }}>
        <Loaded query={carTypes}>{(rows) => <CarTypesChart rows={rows} period={period} />}</Loaded>
        <Loaded query={hours}>{(data) => <BusiestHoursChart hours={data} period={period} />}</Loaded>
        {byFranchise && (
          <Loaded query={franchises}>{(data) => <FranchisesChart data={data} period={period} />}</Loaded>
        )}
        {byState && <Loaded query={states}>{(data) => <StatesChart data={data} period={period} />}</Loaded>}
      </SimpleGrid>
    </>
  );
}
