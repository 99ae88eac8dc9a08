import { Alert, Anchor, Badge, Box, Button, Grid, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import {
  createContext,
  lazy,
  Suspense,
  useContext,
  useDeferredValue,
  useEffect,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { flushSync } from 'react-dom';
import { Link, useParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { DEFAULT_LOCATION } from '@bmet/shared/constants';
import { m } from '@bmet/shared/paraglide/messages';
import { can } from '@bmet/shared/permissions';
import type { Driver } from '@bmet/shared/schemas/driver';
import { HistoryLink } from '../../components/history-link';
import { complianceReasons } from './compliance-badge';
import { Page } from '../../components/page';
import { TimeAgo } from '../../components/time-ago';
import { useSession } from '../../lib/session-context';
import {
  checksQuery,
  devicesQuery,
  documentsQuery,
  historyQuery,
  ratingsQuery,
  SECTION_KEPT_MS,
  useDriver,
  vehicleQuery,
  walletQuery,
} from './api';
import { DocumentsSection } from './documents-section';
import { useLiveLocation } from './use-live-location';
import { carTypeLabel } from '@bmet/shared/labels';
import { stateLabel } from '../../lib/format';
import { PhoneLinks } from '../../components/phone-links';
import { LIVE_WITHIN_MS } from '../../lib/freshness';
import { Spinner } from '../../components/spinner';
import { useNearScreen } from '../../lib/use-near-screen';
import { showNotification } from '../../lib/notify';
import { PartErrorBoundary } from '../../components/part-error-boundary';
import { preloadable } from '../../lib/preloadable';

// The map (Leaflet) and the assignment dialog load after the dashboard has shown its facts, and
// the sections below the first screen's when the browser is idle (usePrefetchSections) or as they
// come near it, whichever is first.
const belowSections = {
  history: preloadable(() => import('./history-section').then((m) => m.HistorySection)),
  ratings: preloadable(() => import('./ratings-section').then((m) => m.RatingsSection)),
  vehicle: preloadable(() => import('./vehicle-section').then((m) => m.VehicleSection)),
  checks: preloadable(() => import('./checks-section').then((m) => m.ChecksSection)),
  wallet: preloadable(() => import('./wallet-section').then((m) => m.WalletSection)),
  devices: preloadable(() => import('./devices-section').then((m) => m.DevicesSection)),
};
const HistorySection = belowSections.history.Component;
const RatingsSection = belowSections.ratings.Component;
const VehicleSection = belowSections.vehicle.Component;
const ChecksSection = belowSections.checks.Component;
const WalletSection = belowSections.wallet.Component;
const DevicesSection = belowSections.devices.Component;
const DriverActionNotice = lazy(() =>
  import('./driver-action-notice').then((m) => ({ default: m.DriverActionNotice })),
);
const DriverMap = lazy(() => import('./driver-map').then((m) => ({ default: m.DriverMap })));
const AssignDriverDialog = lazy(() =>
  import('./assign-driver-dialog').then((m) => ({ default: m.AssignDriverDialog })),
);

/** Runs `run` when the browser is idle (after a fifth of a second where it cannot tell); answers a cancel. */
function whenIdle(run: () => void): () => void {
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(run, { timeout: 5_000 });
    return () => cancelIdleCallback(handle);
  }
  const timer = setTimeout(run, 200);
  return () => clearTimeout(timer);
}

/**
 * Once the driver is shown, each section's code and answer, one after another while the browser
 * is idle: the browser's own Print (its menu, Ctrl+P), which draws every section at once and
 * cannot wait, then prints them whole, and a quick scroll finds them ready. Nothing is drawn
 * until it comes near the screen. Not the documents' images: each fetch of one is recorded as a
 * view of it. Nothing ahead where the browser asks to save data.
 */
function usePrefetchSections(driverId: string | undefined) {
  const client = useQueryClient();
  useEffect(() => {
    // Not where the phone asks to save data: what is never scrolled to is then never fetched.
    const saveData = (navigator as Navigator & { connection?: { saveData?: boolean } }).connection?.saveData;
    if (!driverId || saveData) return;
    // The documents are read again when drawn: fetched ahead only where none are held yet.
    const documentsAhead = (of: 'driver' | 'vehicle') =>
      client.prefetchQuery({ ...documentsQuery(driverId, of), staleTime: Infinity, gcTime: SECTION_KEPT_MS });
    const steps: (() => Promise<unknown>)[] = [
      () => documentsAhead('driver'),
      () =>
        Promise.all([belowSections.history.preload(), client.prefetchInfiniteQuery(historyQuery(driverId))]),
      () =>
        Promise.all([belowSections.ratings.preload(), client.prefetchInfiniteQuery(ratingsQuery(driverId))]),
      async () => {
        await belowSections.vehicle.preload();
        // The vehicle's own documents are read only where the driver drives one.
        if (await client.fetchQuery(vehicleQuery(driverId))) await documentsAhead('vehicle');
      },
      () => Promise.all([belowSections.checks.preload(), client.prefetchQuery(checksQuery(driverId))]),
      () =>
        Promise.all([belowSections.wallet.preload(), client.prefetchInfiniteQuery(walletQuery(driverId))]),
      () => Promise.all([belowSections.devices.preload(), client.prefetchQuery(devicesQuery(driverId))]),
    ];
    let stopped = false;
    let cancel = () => {};
    const next = () => {
      const step = steps.shift();
      if (!step || stopped) return;
      // A step that fails (the connection dropped) leaves its section to ask again when drawn.
      cancel = whenIdle(
        () =>
          void step()
            .catch(() => undefined)
            .then(next),
      );
    };
    next();
    return () => {
      stopped = true;
      cancel();
    };
  }, [client, driverId]);
}

/** Every section drawn, near the screen or not: set for the Print button. */
const EverySection = createContext(false);

/**
 * A section of the file. Its content is drawn when the section comes near the screen (its code
 * and answer are fetched ahead, usePrefetchSections): on a phone the first screen holds the
 * driver's information and map, and drawing the six sections below with it kept a phone's CPU
 * busy for about half a second (Lighthouse's blocking time 913 ms with them, 465 without). Until
 * then, and while its code or answer is still on the way, it holds its title and a loader in
 * about its place.
 */
function Section({ title, children, eager }: { title: string; children: ReactNode; eager?: boolean }) {
  const every = useContext(EverySection);
  const { ref, near } = useNearScreen();
  const shown = eager || every || near;
  // On paper (the browser's own Print, which cannot wait for it) the loader says how to print all.
  const loader = (
    <Box mih={240}>
      <Spinner label={m.driversLoadingSection({ section: title })} size="sm" data-print="hide" />
      <Text size="sm" c="dimmed" data-print="only">
        {m.driversSectionNotPrinted()}
      </Text>
    </Box>
  );
  return (
    <Paper
      withBorder
      p="md"
      component="section"
      aria-label={title}
      ref={ref}
      data-section-pending={shown ? undefined : ''}
    >
      <Title order={3} size="h4" mb="sm">
        {title}
      </Title>
      {shown ? (
        <PartErrorBoundary
          fallback={
            <Alert color="red" variant="light" role="alert">
              {m.driversSectionFailed()}
            </Alert>
          }
        >
          <Suspense fallback={loader}>{children}</Suspense>
        </PartErrorBoundary>
      ) : (
        loader
      )}
    </Paper>
  );
}

/**
 * Resolves once `page` holds no section waiting to be drawn and nothing loading (Spinner and the
 * sections' loading texts carry `data-content-loading`) for three looks in a row, a tenth of a second
 * apart, or after 15 s; answers whether it did.
 */
async function drawnWhole(page: HTMLElement, still: () => boolean) {
  const until = Date.now() + 15_000;
  let quiet = 0;
  while (quiet < 3) {
    if (!still() || Date.now() > until) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
    quiet = page.querySelector('[data-section-pending], [data-content-loading]') ? 0 : quiet + 1;
  }
  return still();
}

/**
 * Prints a driver's whole file: every section drawn, their code and content loaded first. Once at
 * a time; not if the staff member has moved to another driver or page meanwhile.
 */
function usePrintFile(driverId: string) {
  const page = useRef<HTMLDivElement>(null);
  const [everyFor, setEveryFor] = useState<string | null>(null);
  const [printing, setPrinting] = useState(false);
  const current = useRef(driverId);
  useEffect(() => {
    current.current = driverId;
    return () => {
      current.current = '';
    };
  }, [driverId]);
  const printFile = async () => {
    if (printing) return;
    const of = driverId;
    const still = () => current.current === of && page.current !== null;
    setPrinting(true);
    try {
      // Their code first: a section that cannot be fetched leaves the file as it was.
      await Promise.all(Object.values(belowSections).map((section) => section.preload()));
      if (!still()) return;
      flushSync(() => setEveryFor(of));
      if (page.current && (await drawnWhole(page.current, still))) window.print();
    } catch {
      // The sections' code did not arrive (the connection dropped): nothing printed half loaded.
      showNotification({ color: 'red', message: m.driversPrintFailed() });
    } finally {
      if (still()) setPrinting(false);
    }
  };
  return { page, every: everyFor === driverId, printing, printFile };
}

function Field({ label, value }: { label: string; value: ReactNode }) {
  return (
    <Group gap="xs" wrap="nowrap" align="baseline">
      <Text size="sm" c="dimmed" w={110} style={{ flexShrink: 0 }}>
        {label}
      </Text>
      {/* A long email breaks rather than running past the card on a phone. */}
      <Text size="sm" miw={0} style={{ overflowWrap: 'anywhere' }}>
        {value}
      </Text>
    </Group>
  );
}

function DriverInformation({ driver }: { driver: Driver }) {
  const { session } = useSession();
  const [assigning, setAssigning] = useState(false);
  const live = useLiveLocation(driver.id, { position: driver.position, positionAt: driver.positionAt });
  const position = live.position ?? { lat: DEFAULT_LOCATION.lat, long: DEFAULT_LOCATION.long };
  return (
    <Grid>
      <Grid.Col span={{ base: 12, md: 5 }}>
        <Stack gap={6}>
          <Field label={m.driversName()} value={driver.name} />
          <Field label={m.driversEmail()} value={driver.email || m.noInfoDashboard()} />
          <Field
            label={m.driversPhone()}
            value={driver.phoneNumber ? <PhoneLinks phone={driver.phoneNumber} /> : m.noInfoDashboard()}
          />
          <Field
            label={m.driversState()}
            value={
              driver.state ? (
                <span style={{ textTransform: 'capitalize' }}>{stateLabel(driver.state)}</span>
              ) : (
                m.driversNotAssigned()
              )
            }
          />
          <Field label={m.driversFranchise()} value={driver.franchiseName ?? m.driversNotAssigned()} />
          <Field
            label={m.driversVehicle()}
            value={
              [driver.carModel, driver.carType && carTypeLabel(driver.carType), driver.vehicleNumber]
                .filter(Boolean)
                .join(' · ') || '-'
            }
          />
          {session && can(session.role, ['drivers', 'assign']) && (
            <>
              <Button size="xs" variant="light" mt="xs" w="fit-content" onClick={() => setAssigning(true)}>
                {m.driversAssignButton()}
              </Button>
              {assigning && (
                <Suspense fallback={null}>
                  <AssignDriverDialog driver={driver} opened onClose={() => setAssigning(false)} />
                </Suspense>
              )}
            </>
          )}
        </Stack>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 7 }}>
        <Stack gap={6}>
          <Suspense
            fallback={
              <Box
                h={300}
                bg="gray.1"
                style={{ borderRadius: 8 }}
                role="progressbar"
                aria-label={m.driversLoadingMap()}
              />
            }
          >
            <DriverMap position={position} label={driver.name} />
          </Suspense>
          <Group gap="xs" justify="space-between" wrap="wrap">
            {live.position && live.positionAt ? (
              <Text size="sm" data-testid="position-age">
                {m.driversLastPosition()} <TimeAgo iso={live.positionAt} /> ({live.position.lat.toFixed(5)},{' '}
                {live.position.long.toFixed(5)})
              </Text>
            ) : (
              <Text size="sm" c="orange" data-testid="location-unknown">
                {m.driversLocationUnknown()}
              </Text>
            )}
            <FollowBadge mode={live.mode} positionAt={live.positionAt} />
          </Group>
        </Stack>
      </Grid.Col>
    </Grid>
  );
}

/**
 * How the dashboard follows the driver: "Live" only while the stream is open and the last position
 * is within the live threshold (2 minutes, as on the fleet map); an open stream with an older
 * position says it waits for one. Looked at again as the position ages.
 */
function FollowBadge({ mode, positionAt }: { mode: string; positionAt: string | null }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 10_000);
    return () => clearInterval(timer);
  }, []);
  const recent = positionAt !== null && now - Date.parse(positionAt) <= LIVE_WITHIN_MS;
  const label =
    mode === 'live'
      ? recent
        ? m.driversModeLive()
        : m.driversModeWaiting()
      : mode === 'polling'
        ? m.driversModePolling()
        : m.driversModeConnecting();
  return (
    <Badge variant="dot" color={mode === 'live' && recent ? 'teal' : 'gray'} data-testid="follow-mode">
      {label}
    </Badge>
  );
}

/** The driver dashboard behind 'More': information and map, documents, bookings, ratings. */
export function DriverDashboardScreen() {
  const { session } = useSession();
  const { driverId = '' } = useParams();
  const driver = useDriver(driverId);
  const { page, every, printing, printFile } = usePrintFile(driverId);
  // The dashboard is drawn from a deferred value: when the driver arrives, React renders the whole
  // dashboard in the background in slices instead of in one long task (a phone's CPU is slow).
  // Each section draws its own answer so too: a query's answer is rendered at once, in one task,
  // and seven sections arriving one after another blocked a phone in turn.
  const deferred = useDeferredValue(driver.data);
  // Moving to another driver, the deferred value is the last driver's for a moment: not shown.
  const d = deferred?.id === driverId ? deferred : undefined;
  usePrefetchSections(d?.id);

  const back = (
    <Anchor component={Link} to="/drivers" size="sm">
      <Group gap={4}>
        <IconArrowLeft size={14} /> {m.driverList()}
      </Group>
    </Anchor>
  );
  if (driver.isError) {
    return (
      <Stack>
        {back}
        <Alert color="red" role="alert">
          {driver.error.message}
        </Alert>
      </Stack>
    );
  }
  if (!d) return <Spinner label={m.driversLoadingDriver()} />;
  return (
    <Stack ref={page}>
      {back}
      <EverySection value={every}>
        <Page
          title={d.name}
          actions={
            <Group gap="sm">
              <Button
                variant="default"
                size="xs"
                loading={printing}
                onClick={() => void printFile()}
                data-print="hide"
              >
                {m.driversPrint()}
              </Button>
              <HistoryLink recordType="drivers" recordId={d.id} name={d.name} />
              {can(session, ['grievances', 'create']) && (
                <Button
                  component={Link}
                  variant="default"
                  size="xs"
                  to={`/grievances?driverId=${d.id}`}
                  data-print="hide"
                >
                  {m.grievanceLogButton()}
                </Button>
              )}
              {d.rating.average !== null && (
                <Badge size="lg" variant="light" color="yellow">
                  ★ {d.rating.average.toFixed(1)} ({d.rating.count})
                </Badge>
              )}
            </Group>
          }
        >
          {d.compliance && !d.compliance.compliant && (
            <Alert color="red" variant="light" title={m.notCompliant()}>
              {m.complianceReasons({ reasons: complianceReasons(d.compliance) })}
            </Alert>
          )}
          <Suspense fallback={null}>
            <DriverActionNotice driverId={d.id} />
          </Suspense>
          <Section title={m.driversSectionInformation()} eager>
            <DriverInformation driver={d} />
          </Section>
          <Section title={m.driversSectionDocuments()}>
            <DocumentsSection driverId={d.id} />
          </Section>
          <Section title={m.driversSectionBookings()}>
            <HistorySection driverId={d.id} />
          </Section>
          <Section title={m.driversSectionRatings()}>
            <RatingsSection driverId={d.id} />
          </Section>
          {/* After the spec's four sections, in its order. */}
          <Section title={m.driversSectionVehicle()}>
            <VehicleSection driverId={d.id} />
          </Section>
          <Section title={m.driversSectionChecks()}>
            <ChecksSection driverId={d.id} />
          </Section>
          <Section title={m.driversSectionWallet()}>
            <WalletSection driverId={d.id} />
          </Section>
          <Section title={m.driversSectionDevices()}>
            <DevicesSection driverId={d.id} />
          </Section>
        </Page>
      </EverySection>
    </Stack>
  );
}
