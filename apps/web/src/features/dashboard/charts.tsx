import { Button, Paper, Text, Title } from '@mantine/core';
import { useId, useState, type CSSProperties, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { TRIP_STATUSES, type TripStatus } from '@bmet/shared/constants';
import { carTypeLabel, tripStatusLabel } from '@bmet/shared/labels';
import { m } from '@bmet/shared/paraglide/messages';
import { Cell, ListTable } from '../../components/list-table';
import { formatCalendarDate, formatCount, formatHour, formatRupees, stateLabel } from '../../lib/format';
import { tripListPath, type TripListAddress } from '../../lib/trip-list-address';
import type { StatsData } from './api';
import type { Period } from './period';
import classes from './charts.module.css';

/*
 * The dashboard's charts, drawn with plain elements and CSS: lighter than any chart library and
 * loaded with this screen only (a chunk of its own). Each chart is an image to assistive
 * technology, named by its title; its numbers are a table on demand, whose links open the trip
 * list filtered as the bar was. A click on a bar opens that same list.
 */

/**
 * The colour of each status, in the hues of the trip list's tags, in shades far enough apart to
 * tell stacked next to each other (and on either colour scheme).
 */
const STATUS_COLORS: Record<TripStatus, string> = {
  requested: 'var(--mantine-color-gray-5)',
  assigned: 'var(--mantine-color-blue-6)',
  started: 'var(--mantine-color-cyan-4)',
  completed: 'var(--mantine-color-teal-8)',
  cancelled: 'var(--mantine-color-red-6)',
};

const colorOf = (color: string) => ({ '--segment-color': color }) as CSSProperties;
const percent = (value: number, max: number) => `${max > 0 ? (Math.max(0, value) / max) * 100 : 0}%`;
/** 24/11 for an axis under many days. */
const shortDate = (day: string) => formatCalendarDate(day).slice(0, 5);

/** A chart's card: its title, the chart, and the button that shows its numbers as a table. */
function ChartCard({
  title,
  empty,
  chart,
  legend,
  table,
}: {
  title: string;
  empty: boolean;
  chart: ReactNode;
  legend?: ReactNode;
  table: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const headingId = useId();
  const tableId = useId();
  return (
    <Paper
      component="section"
      withBorder
      p="md"
      radius="md"
      className={classes.card}
      aria-labelledby={headingId}
    >
      <div className={classes.header}>
        <Title order={3} size="h4" id={headingId}>
          {title}
        </Title>
        {!empty && (
          <Button
            variant="subtle"
            size="compact-sm"
            aria-expanded={open}
            aria-controls={tableId}
            onClick={() => setOpen(!open)}
          >
            {open ? m.dashboardHideTable() : m.dashboardShowTable()}
          </Button>
        )}
      </div>
      {empty ? (
        <Text c="dimmed" size="sm">
          {m.dashboardNoTrips()}
        </Text>
      ) : (
        <>
          <div role="img" aria-label={m.dashboardChartLabel({ title })}>
            {chart}
          </div>
          {legend}
          <div id={tableId} hidden={!open}>
            {open && table}
          </div>
        </>
      )}
    </Paper>
  );
}

/** A link of a table to the trip list with these filters (or the plain text without them). */
function TripsLink({ to, children }: { to: TripListAddress | null; children: ReactNode }) {
  if (!to) return <>{children}</>;
  return (
    <Link to={tripListPath(to)} className={classes.tableLink}>
      {children}
    </Link>
  );
}

/** Opens the trip list with these filters: the mouse's way in (the table's links are the keyboard's). */
function useOpenTrips() {
  const navigate = useNavigate();
  return (filters: TripListAddress | null) => () => {
    if (filters) void navigate(tripListPath(filters));
  };
}

// ---------------------------------------------------------------------------------------------

type Day = StatsData<'daily'>[number];
const dayTotal = (day: Day) => TRIP_STATUSES.reduce((sum, status) => sum + day[status], 0);

/** Trips per day of the period, each day a column of its statuses. */
export function TripsPerDayChart({ days }: { days: StatsData<'daily'> }) {
  const open = useOpenTrips();
  const max = Math.max(0, ...days.map(dayTotal));
  // About eight dates under the columns, whatever the period's length.
  const labelEvery = Math.max(1, Math.ceil(days.length / 8));
  const chart = (
    <>
      <div className={classes.scale}>
        <span>{formatCount(max)}</span>
      </div>
      <div className={classes.columns}>
        {days.map((day) => (
          <div key={day.day} className={classes.column}>
            {TRIP_STATUSES.map((status) =>
              day[status] > 0 ? (
                <div
                  key={status}
                  className={classes.segment}
                  data-link
                  data-testid={`day-${day.day}-${status}`}
                  style={{ ...colorOf(STATUS_COLORS[status]), height: percent(day[status], max) }}
                  title={`${formatCalendarDate(day.day)} · ${tripStatusLabel(status)}: ${formatCount(day[status])}`}
                  onClick={open({ from: day.day, to: day.day, status })}
                />
              ) : null,
            )}
          </div>
        ))}
      </div>
      <div className={classes.axis} aria-hidden>
        {days.map((day, index) => (
          <span key={day.day}>{index % labelEvery === 0 ? shortDate(day.day) : ''}</span>
        ))}
      </div>
    </>
  );
  const legend = (
    <ul className={classes.legend}>
      {TRIP_STATUSES.map((status) => (
        <li key={status}>
          <span className={classes.swatch} style={colorOf(STATUS_COLORS[status])} aria-hidden />
          {tripStatusLabel(status)}
        </li>
      ))}
    </ul>
  );
  const table = (
    <ListTable
      label={m.dashboardTripsPerDay()}
      columns={[m.dashboardColumnDay(), ...TRIP_STATUSES.map(tripStatusLabel), m.dashboardColumnTotal()]}
    >
      {days.map((day) => (
        <tr key={day.day} role="row">
          <Cell label={m.dashboardColumnDay()}>
            <TripsLink to={{ from: day.day, to: day.day }}>{formatCalendarDate(day.day)}</TripsLink>
          </Cell>
          {TRIP_STATUSES.map((status) => (
            <Cell key={status} label={tripStatusLabel(status)}>
              <TripsLink to={day[status] > 0 ? { from: day.day, to: day.day, status } : null}>
                {formatCount(day[status])}
              </TripsLink>
            </Cell>
          ))}
          <Cell label={m.dashboardColumnTotal()}>{formatCount(dayTotal(day))}</Cell>
        </tr>
      ))}
    </ListTable>
  );
  return (
    <ChartCard
      title={m.dashboardTripsPerDay()}
      empty={max === 0}
      chart={chart}
      legend={legend}
      table={table}
    />
  );
}

/** Trips by the hour of the day they were booked in, 24 columns. */
export function BusiestHoursChart({ hours, period }: { hours: StatsData<'hours'>; period: Period }) {
  const open = useOpenTrips();
  const max = Math.max(0, ...hours.map((hour) => hour.trips));
  const link = (hour: number) => ({ ...period, hour });
  const hourRange = (hour: number) =>
    m.dashboardHourRange({ from: formatHour(hour), to: formatHour((hour + 1) % 24) });
  const chart = (
    <>
      <div className={classes.scale}>
        <span>{formatCount(max)}</span>
      </div>
      <div className={classes.columns}>
        {hours.map(({ hour, trips }) => (
          <div key={hour} className={classes.column}>
            {trips > 0 && (
              <div
                className={classes.segment}
                data-link
                data-testid={`hour-${hour}`}
                style={{ ...colorOf('var(--mantine-color-blue-filled)'), height: percent(trips, max) }}
                title={`${hourRange(hour)}: ${formatCount(trips)}`}
                onClick={open(link(hour))}
              />
            )}
          </div>
        ))}
      </div>
      <div className={classes.axis} aria-hidden>
        {hours.map(({ hour }) => (
          <span key={hour}>{hour % 6 === 0 ? formatHour(hour) : ''}</span>
        ))}
      </div>
    </>
  );
  const table = (
    <ListTable
      label={m.dashboardBusiestHours()}
      columns={[m.dashboardColumnHour(), m.dashboardColumnTrips()]}
    >
      {hours.map(({ hour, trips }) => (
        <tr key={hour} role="row">
          <Cell label={m.dashboardColumnHour()}>
            <TripsLink to={trips > 0 ? link(hour) : null}>{hourRange(hour)}</TripsLink>
          </Cell>
          <Cell label={m.dashboardColumnTrips()}>{formatCount(trips)}</Cell>
        </tr>
      ))}
    </ListTable>
  );
  return <ChartCard title={m.dashboardBusiestHours()} empty={max === 0} chart={chart} table={table} />;
}

// ---------------------------------------------------------------------------------------------

/** One bar of a breakdown: a car type, a franchise or a state, or the others summed. */
type GroupRow = {
  key: string;
  label: string;
  trips: number;
  completed: number;
  revenue: number;
  /** The trip list of this bar; null for a group the list cannot filter by (none, others). */
  to: TripListAddress | null;
};

const tripsAndRevenue = (row: GroupRow) =>
  m.dashboardTripsAndRevenue({
    count: row.trips,
    trips: formatCount(row.trips),
    revenue: formatRupees(row.revenue),
  });

/** Horizontal bars, one per group, measured by trips or by revenue. */
function GroupChart({
  title,
  column,
  rows,
  measure,
}: {
  title: string;
  column: string;
  rows: GroupRow[];
  measure: 'trips' | 'revenue';
}) {
  const open = useOpenTrips();
  const max = Math.max(0, ...rows.map((row) => row[measure]));
  const chart = (
    <div className={classes.bars}>
      {rows.map((row) => (
        <div
          key={row.key}
          className={classes.bar}
          data-link={row.to ? true : undefined}
          data-testid={`bar-${row.key}`}
          onClick={open(row.to)}
        >
          <div className={classes.barText}>
            <span className={classes.barLabel}>{row.label}</span>
            <span className={classes.barValue}>{tripsAndRevenue(row)}</span>
          </div>
          <div className={classes.track}>
            <div className={classes.fill} style={{ width: percent(row[measure], max) }} />
          </div>
        </div>
      ))}
    </div>
  );
  const table = (
    <ListTable
      label={title}
      columns={[column, m.dashboardColumnTrips(), m.dashboardColumnCompleted(), m.dashboardColumnRevenue()]}
    >
      {rows.map((row) => (
        <tr key={row.key} role="row">
          <Cell label={column}>
            <TripsLink to={row.to}>{row.label}</TripsLink>
          </Cell>
          <Cell label={m.dashboardColumnTrips()}>{formatCount(row.trips)}</Cell>
          <Cell label={m.dashboardColumnCompleted()}>{formatCount(row.completed)}</Cell>
          <Cell label={m.dashboardColumnRevenue()}>{formatRupees(row.revenue)}</Cell>
        </tr>
      ))}
    </ListTable>
  );
  return <ChartCard title={title} empty={rows.length === 0} chart={chart} table={table} />;
}

const othersRow = (others: StatsData<'franchises'>['others']): GroupRow[] =>
  others ? [{ key: 'others', label: m.dashboardOthers({ count: others.groups }), ...others, to: null }] : [];

/** Revenue of the completed trips by car type; a bar opens that car type's completed trips. */
export function CarTypesChart({ rows, period }: { rows: StatsData<'car-types'>; period: Period }) {
  return (
    <GroupChart
      title={m.dashboardRevenueByCarType()}
      column={m.dashboardColumnCarType()}
      measure="revenue"
      rows={rows.map((row) => ({
        key: row.carType ?? 'unknown',
        label: row.carType ? carTypeLabel(row.carType) : m.dashboardUnknownCarType(),
        trips: row.trips,
        completed: row.completed,
        revenue: row.revenue,
        to: row.carType ? { ...period, carType: row.carType, status: 'completed' } : null,
      }))}
    />
  );
}

/** Trips and revenue by the drivers' franchise; a bar opens that franchise's trips. */
export function FranchisesChart({ data, period }: { data: StatsData<'franchises'>; period: Period }) {
  return (
    <GroupChart
      title={m.dashboardByFranchise()}
      column={m.dashboardColumnFranchise()}
      measure="trips"
      rows={[
        ...data.rows.map((row) => ({
          key: row.franchiseId ?? 'none',
          label: row.franchiseId ? (row.name ?? '-') : m.dashboardNoFranchise(),
          trips: row.trips,
          completed: row.completed,
          revenue: row.revenue,
          to: row.franchiseId
            ? { ...period, franchiseId: row.franchiseId, franchiseName: row.name ?? undefined }
            : null,
        })),
        ...othersRow(data.others),
      ]}
    />
  );
}

/** Trips and revenue by the drivers' state (admins); a bar opens that state's trips. */
export function StatesChart({ data, period }: { data: StatsData<'states'>; period: Period }) {
  return (
    <GroupChart
      title={m.dashboardByState()}
      column={m.dashboardColumnState()}
      measure="trips"
      rows={[
        ...data.rows.map((row) => ({
          key: row.state ?? 'none',
          label: row.state ? stateLabel(row.state) : m.dashboardNoState(),
          trips: row.trips,
          completed: row.completed,
          revenue: row.revenue,
          to: row.state ? { ...period, state: row.state } : null,
        })),
        ...othersRow(data.others),
      ]}
    />
  );
}
