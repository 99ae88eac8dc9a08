import {
  ActionIcon,
  Anchor,
  Badge,
  Group,
  Loader,
  NativeSelect,
  Paper,
  Text,
  TextInput,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { IconCurrentLocation, IconSearch } from '@tabler/icons-react';
import { lazy, Suspense, useCallback, useId, useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { CAR_TYPES, type CarType, type Role } from '@bmet/shared/constants';
import { carTypeLabel } from '@bmet/shared/labels';
import { m } from '@bmet/shared/paraglide/messages';
import { can } from '@bmet/shared/permissions';
import { ErrorAlert } from '../../components/error-alert';
import { Filters } from '../../components/filters';
import { Page } from '../../components/page';
import { formatCount } from '../../lib/format';
import { useSearch } from '../../lib/use-search';
import { useSession } from '../../lib/session-context';
import { useDriverSearch } from './api';
import { FleetStore, type FleetCar } from './fleet-store';
import { carFilter, carSummary, useFleetSummary, type FleetSummary, type ViewBounds } from './fleet-view';
import {
  FRESHNESS,
  FRESHNESS_COLORS,
  freshnessLabel,
  freshnessOf,
  type Freshness,
} from '../../lib/freshness';
import { useFleetFeed, type FleetFeed } from './use-fleet-feed';
import classes from './fleet.module.css';
import { Spinner } from '../../components/spinner';

// Leaflet, the canvas layer and the clustering index load with this screen's map, not before.
const FleetMap = lazy(() => import('./fleet-map').then((module) => ({ default: module.FleetMap })));
// The searchable dropdown's code (a fifth of the screen) comes after the first paint.
const FranchiseFilter = lazy(() =>
  import('./franchise-filter').then((module) => ({ default: module.FranchiseFilter })),
);

const any = () => ({ value: '', label: m.fleetFilterAny() });

function ModeBadge({ mode }: { mode: FleetFeed['mode'] }) {
  return (
    <Badge variant="dot" color={mode === 'live' ? 'teal' : 'gray'} data-testid="fleet-mode">
      {mode === 'live'
        ? m.fleetModeLive()
        : mode === 'polling'
          ? m.fleetModePolling()
          : m.fleetModeConnecting()}
    </Badge>
  );
}

/** Finds a driver on the server by name or vehicle number; picking one flies the map to the car. */
function CarSearch({ role, onPick }: { role: Role; onPick: (id: string, name: string) => void }) {
  const { search, setSearch, q } = useSearch(250);
  const results = useDriverSearch(role, q);
  const found = q && search.trim() ? (results.data ?? []) : [];
  const listId = useId();
  const pick = (id: string, name: string) => {
    setSearch('');
    onPick(id, name);
  };
  return (
    <div className={classes.search}>
      <TextInput
        aria-label={m.fleetSearchLabel()}
        placeholder={m.fleetSearchPlaceholder()}
        leftSection={<IconSearch size={16} />}
        value={search}
        onChange={(event) => setSearch(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && found[0]) pick(found[0].id, found[0].name);
          if (event.key === 'Escape') setSearch('');
        }}
        aria-controls={q ? listId : undefined}
      />
      {q && search.trim() && (
        <Paper className={classes.results} withBorder shadow="md" id={listId}>
          {found.length === 0 ? (
            <Text size="sm" c="dimmed" p="xs" role="status">
              {results.isFetching ? m.fleetSearchSearching() : m.fleetSearchNoMatch()}
            </Text>
          ) : (
            <ul className={classes.resultList} aria-label={m.fleetSearchResults()}>
              {found.map((driver) => (
                <li key={driver.id}>
                  <UnstyledButton className={classes.result} onClick={() => pick(driver.id, driver.name)}>
                    <Text size="sm" fw={500} span>
                      {driver.name}
                    </Text>
                    {driver.vehicleNumber && (
                      <Text size="xs" c="dimmed" span>
                        {driver.vehicleNumber}
                      </Text>
                    )}
                  </UnstyledButton>
                </li>
              ))}
            </ul>
          )}
        </Paper>
      )}
    </div>
  );
}

function Legend({ summary }: { summary: FleetSummary }) {
  return (
    <div>
      <Group gap="md" role="group" aria-label={m.fleetLegendLabel()}>
        {FRESHNESS.map((freshness) => (
          <Group key={freshness} gap={6} wrap="nowrap">
            <span className={classes.dot} style={{ background: FRESHNESS_COLORS[freshness] }} aria-hidden />
            <Text size="sm">{freshnessLabel(freshness)}</Text>
            <Text size="sm" fw={600} data-testid={`fleet-count-${freshness}`}>
              {formatCount(summary.counts[freshness])}
            </Text>
          </Group>
        ))}
        {summary.shown !== summary.total && (
          <Text size="sm" c="dimmed">
            {m.fleetShownOfTotal({ shown: formatCount(summary.shown), total: formatCount(summary.total) })}
          </Text>
        )}
      </Group>
      <Text size="xs" c="dimmed" mt={4}>
        {m.fleetLegendHelp()}
      </Text>
    </div>
  );
}

/** The cars in view, by name: each opens its dashboard, or shows where it is. */
function InView({ summary, onShow }: { summary: FleetSummary; onShow: (car: FleetCar) => void }) {
  const headingId = useId();
  const { now } = summary;
  const more = summary.inViewCount - summary.inView.length;
  return (
    <section className={classes.side} aria-labelledby={headingId}>
      <Title order={3} size="h5" id={headingId} mb="xs">
        {m.fleetInView({ count: formatCount(summary.inViewCount) })}
      </Title>
      {summary.inViewCount === 0 ? (
        <Text size="sm" c="dimmed">
          {m.fleetNoneInView()}
        </Text>
      ) : (
        <ul className={classes.list}>
          {summary.inView.map((car) => (
            <li key={car.id} className={classes.item}>
              <span
                className={classes.dot}
                style={{ background: FRESHNESS_COLORS[freshnessOf(car.at, now)] }}
                aria-hidden
              />
              <div className={classes.itemText}>
                <Anchor component={Link} to={`/drivers/${car.id}`} size="sm" fw={500}>
                  {car.name}
                </Anchor>
                <Text size="xs" c="dimmed">
                  {carSummary(car, now, false)}
                </Text>
              </div>
              <ActionIcon
                variant="subtle"
                color="gray"
                aria-label={m.fleetShowOnMap({ name: car.name })}
                onClick={() => onShow(car)}
              >
                <IconCurrentLocation size={18} aria-hidden />
              </ActionIcon>
            </li>
          ))}
        </ul>
      )}
      {more > 0 && (
        <Text size="sm" c="dimmed" mt="xs">
          {m.fleetInViewMore({ count: formatCount(more) })}
        </Text>
      )}
    </section>
  );
}

/**
 * The live fleet map: every car in the caller's scope with a known position, clustered when
 * zoomed out, coloured by how recent its last report is, kept current by the server's push.
 */
export function FleetScreen() {
  const { session } = useSession();
  const role = session!.role;
  const navigate = useNavigate();
  const [store] = useState(() => new FleetStore());
  const feed = useFleetFeed(store);
  const [carType, setCarType] = useState<CarType | null>(null);
  const [franchiseId, setFranchiseId] = useState<string | null>(null);
  const [freshness, setFreshness] = useState<Freshness | null>(null);
  const filter = useMemo(
    () => carFilter({ carType, franchiseId, freshness }),
    [carType, franchiseId, freshness],
  );
  const [view, setView] = useState<ViewBounds | null>(null);
  const summary = useFleetSummary(store, filter, view);
  const [focus, setFocus] = useState<{ id: string } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const openDashboard = useCallback((car: FleetCar) => navigate(`/drivers/${car.id}`), [navigate]);
  const closeFocus = useCallback(() => setFocus(null), []);
  const show = (id: string, name: string) => {
    if (store.cars.has(id)) {
      setNotice(null);
      setFocus({ id });
    } else setNotice(m.fleetNoPosition({ name }));
  };
  const byFranchise = can(role, ['franchises', 'list']);

  return (
    <Page title={m.fleetTitle()} actions={<ModeBadge mode={feed.mode} />}>
      <Group align="end" gap="sm" wrap="wrap">
        <CarSearch role={role} onPick={show} />
        <Filters active={[carType, franchiseId, freshness].filter(Boolean).length}>
          {/* Native selects: the phone's own picker, and no dropdown code to load. */}
          <NativeSelect
            label={m.fleetFilterCarType()}
            value={carType ?? ''}
            onChange={(event) => setCarType((event.currentTarget.value || null) as CarType | null)}
            data={[any(), ...CAR_TYPES.map((type) => ({ value: type, label: carTypeLabel(type) }))]}
            w={{ base: '100%', sm: 150 }}
          />
          {byFranchise && (
            <Suspense
              fallback={
                <TextInput
                  label={m.fleetFilterFranchise()}
                  placeholder={m.fleetFranchiseSearch()}
                  disabled
                  w={{ base: '100%', sm: 220 }}
                />
              }
            >
              <FranchiseFilter value={franchiseId} onChange={setFranchiseId} />
            </Suspense>
          )}
          <NativeSelect
            label={m.fleetFilterFreshness()}
            value={freshness ?? ''}
            onChange={(event) => setFreshness((event.currentTarget.value || null) as Freshness | null)}
            data={[any(), ...FRESHNESS.map((f) => ({ value: f, label: freshnessLabel(f) }))]}
            w={{ base: '100%', sm: 150 }}
          />
        </Filters>
      </Group>
      {notice && (
        <Text size="sm" role="status">
          {notice}
        </Text>
      )}
      {feed.error && !feed.loaded && <ErrorAlert error={feed.error} />}
      <Legend summary={summary} />
      {feed.loaded && summary.total === 0 && <Text c="dimmed">{m.fleetEmpty()}</Text>}
      <div className={classes.layout}>
        <div className={classes.map} data-fleet-loaded={feed.loaded || undefined}>
          <Suspense fallback={<Spinner label={m.fleetLoading()} className={classes.overlay} />}>
            <FleetMap
              store={store}
              filter={filter}
              focus={focus}
              onCloseFocus={closeFocus}
              onOpen={openDashboard}
              onView={setView}
            />
          </Suspense>
          {!feed.loaded && !feed.error && (
            <div className={classes.overlay} role="status">
              <Loader size="sm" aria-hidden />
              <Text size="sm">{m.fleetLoading()}</Text>
            </div>
          )}
        </div>
        <InView summary={summary} onShow={(car) => show(car.id, car.name)} />
      </div>
    </Page>
  );
}
