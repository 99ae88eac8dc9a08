import { Group, Paper, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { lazy, Suspense, useEffect, useId, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { ACTIVE_DRIVER_MINUTES } from '@bmet/shared/constants';
import { can } from '@bmet/shared/permissions';
import { m } from '@bmet/shared/paraglide/messages';
import { cancelReasonLabel } from '@bmet/shared/cancel-reasons';
import { ChoiceGroup } from '../../components/choice-group';
import { DateField } from '../../components/date-field';
import { ErrorAlert } from '../../components/error-alert';
import { Figure } from '../../components/figure';
import { Page } from '../../components/page';
import { formatCalendarDate, formatCount, formatRupees } from '../../lib/format';
import { useSession } from '../../lib/session-context';
import { useStats, type StatsData, type StatsPath } from './api';
import { periodFromSearch, PRESETS, type Period, type Preset } from './period';
import classes from './charts.module.css';
import { Spinner } from '../../components/spinner';
import { useNearScreen } from '../../lib/use-near-screen';

type ChartPath = Exclude<StatsPath, 'overview'>;

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
      <ChoiceGroup
        label={m.dashboardPeriod()}
        value={preset}
        onChange={choose}
        data={PRESETS.map((value) => ({ value, label: PRESET_LABELS[value]() }))}
        fullWidthOnPhone
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

/** A figure's value, or a placeholder of its height while the figures load (nothing moves when they come). */
const valueOf = <T,>(
  figures: StatsData<'overview'> | undefined,
  show: (figures: StatsData<'overview'>) => T,
) => (figures === undefined ? <Skeleton h="1.55em" w="4em" radius="sm" aria-hidden /> : show(figures));

/**
 * The period's figures, and the drivers' figures of now. Their names and notes are shown at once,
 * before their values: the screen does not move when the values arrive.
 */
function Figures({
  figures,
  withCustomers,
}: {
  figures: StatsData<'overview'> | undefined;
  withCustomers: boolean;
}) {
  const rate = figures?.cancellationRate == null ? null : Math.round(figures.cancellationRate * 1000) / 10;
  const value = <T,>(show: (figures: StatsData<'overview'>) => T) => valueOf(figures, show);
  return (
    <Stack gap="sm">
      <SimpleGrid
        cols={{ base: 2, sm: 3, lg: 4 }}
        spacing="sm"
        role="list"
        aria-label={m.dashboardFiguresLabel()}
        aria-busy={figures === undefined}
      >
        {[
          <Figure
            key="trips"
            testId="figure-trips"
            label={m.dashboardTrips()}
            value={value((f) => formatCount(f.trips))}
          />,
          <Figure
            key="completed"
            testId="figure-completed"
            label={m.dashboardCompleted()}
            value={value((f) => formatCount(f.completed))}
          />,
          <Figure
            key="cancelled"
            testId="figure-cancelled"
            label={m.dashboardCancelled()}
            value={value((f) => formatCount(f.cancelled))}
            hint={rate === null ? undefined : m.dashboardCancellationRate({ rate: String(rate) })}
          />,
          <Figure
            key="revenue"
            testId="figure-revenue"
            label={m.dashboardRevenue()}
            value={value((f) => formatRupees(f.revenue))}
            hint={m.dashboardRevenueHint()}
          />,
          <Figure
            key="fare"
            testId="figure-average-fare"
            label={m.dashboardAverageFare()}
            value={value((f) => orDash(f.averageFare, formatRupees))}
            hint={m.dashboardAveragesHint()}
          />,
          <Figure
            key="distance"
            testId="figure-average-distance"
            label={m.dashboardAverageDistance()}
            value={value((f) =>
              orDash(f.averageDistanceKm, (km) => m.dashboardDistanceKm({ km: String(km) })),
            )}
            hint={m.dashboardAveragesHint()}
          />,
          <Figure
            key="active"
            testId="figure-active-drivers"
            label={m.dashboardActiveDrivers()}
            value={value((f) => formatCount(f.activeDrivers))}
            hint={m.dashboardActiveDriversHint({ minutes: ACTIVE_DRIVER_MINUTES })}
          />,
          <Figure
            key="pending"
            testId="figure-pending-reviews"
            label={m.dashboardPendingReviews()}
            value={value((f) => formatCount(f.pendingReviews))}
            hint={m.dashboardPendingReviewsHint()}
          />,
          // Counted for admins only: shown before the figures come when the caller is one.
          ...((figures === undefined ? !withCustomers : figures.newCustomers === null)
            ? []
            : [
                <Figure
                  key="customers"
                  testId="figure-new-customers"
                  label={m.dashboardNewCustomers()}
                  value={value((f) => formatCount(f.newCustomers ?? 0))}
                />,
              ]),
        ].map((figure) => (
          <div role="listitem" key={figure.key}>
            {figure}
          </div>
        ))}
      </SimpleGrid>
      {figures !== undefined && figures.cancelReasons.length > 0 && (
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

/**
 * A chart's card before its chart: its title and a loader, about the chart's height, so the screen
 * keeps its shape while the numbers load.
 */
function ChartPlaceholder({
  title,
  innerRef,
}: {
  title: string;
  innerRef?: (node: HTMLElement | null) => void;
}) {
  const headingId = useId();
  return (
    <Paper
      component="section"
      withBorder
      p="md"
      radius="md"
      mih={240}
      className={classes.card}
      aria-labelledby={headingId}
      aria-busy
      data-chart-pending=""
      ref={innerRef}
    >
      <Title order={3} size="h4" id={headingId}>
        {title}
      </Title>
      <Spinner label={m.dashboardLoading()} size="sm" />
    </Paper>
  );
}

/**
 * A chart whose numbers are asked for, and whose code is loaded, once its card comes near the
 * screen: on a phone the charts lie below the figures, and the first screen is drawn without their
 * work. Until then, and while they load, its card holds its title and a loader in the same place.
 */
function ChartCard<P extends ChartPath>({
  title,
  path,
  period,
  children,
}: {
  title: string;
  path: P;
  period: Period;
  children: (data: StatsData<P>) => ReactNode;
}) {
  const { ref, near } = useNearScreen();
  const query = useStats(path, period, near);
  useEffect(() => {
    if (near) void charts();
  }, [near]);
  const placeholder = <ChartPlaceholder title={title} innerRef={ref} />;
  if (query.error && query.data === undefined) return <ErrorAlert error={query.error} />;
  if (query.data === undefined) return placeholder;
  return <Suspense fallback={placeholder}>{children(query.data)}</Suspense>;
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
      {refused ? (
        <ErrorAlert error={overview.error} />
      ) : (
        <>
          <Figures figures={overview.data} withCustomers={role === 'admin'} />
          <Charts period={period} byFranchise={byFranchise} byState={byState} />
        </>
      )}
    </Page>
  );
}

/** The charts of the period, each asked for and loading on its own. */
function Charts({
  period,
  byFranchise,
  byState,
}: {
  period: Period;
  byFranchise: boolean;
  byState: boolean;
}) {
  return (
    <>
      <ChartCard title={m.dashboardTripsPerDay()} path="daily" period={period}>
        {(days) => <TripsPerDayChart days={days} />}
      </ChartCard>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md" style={{ alignItems: 'start' }}>
        <ChartCard title={m.dashboardRevenueByCarType()} path="car-types" period={period}>
          {(rows) => <CarTypesChart rows={rows} period={period} />}
        </ChartCard>
        <ChartCard title={m.dashboardBusiestHours()} path="hours" period={period}>
          {(data) => <BusiestHoursChart hours={data} period={period} />}
        </ChartCard>
        {byFranchise && (
          <ChartCard title={m.dashboardByFranchise()} path="franchises" period={period}>
            {(data) => <FranchisesChart data={data} period={period} />}
          </ChartCard>
        )}
        {byState && (
          <ChartCard title={m.dashboardByState()} path="states" period={period}>
            {(data) => <StatesChart data={data} period={period} />}
          </ChartCard>
        )}
      </SimpleGrid>
    </>
  );
}
