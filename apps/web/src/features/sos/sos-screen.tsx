import {
  Anchor,
  Badge,
  Button,
  Group,
  NativeSelect,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState } from 'react';
import { Link } from 'react-router';
import { m } from '@bmet/shared/paraglide/messages';
import type { SosAlert } from '@bmet/shared/schemas/sos';
import {
  sosEscalationLabel,
  sosOutcomeLabel,
  sosPersonLabel,
  sosSourceLabel,
  sosStatusLabel,
} from '@bmet/shared/sos-labels';
import { SOS_OUTCOMES, type SosOutcome, type SosStatus } from '@bmet/shared/sos-rules';
import { DateField } from '../../components/date-field';
import { ErrorAlert } from '../../components/error-alert';
import { ExportButton } from '../../components/export-button';
import { ListSummary } from '../../components/list-summary';
import { LoadMoreButton } from '../../components/load-more-button';
import { Page } from '../../components/page';
import { PhoneLinks } from '../../components/phone-links';
import { listenToTabStream, tabStreamStatus } from '../../lib/tab-stream';
import { formatDateTime } from '../../lib/format';
import { pagedRows } from '../../lib/paged-rows';
import { SOS_KEY, useOpenAlerts, useSosHistory, type SosHistoryFilters } from './api';
import { alertClockText, oldestFirst } from './sos-logic';
import { SosSteps } from './sos-steps';

// The form's pickers (a searched select in a dialog) load on the first click.
const LogSosDialog = lazy(() =>
  import('./log-sos-dialog').then((module) => ({ default: module.LogSosDialog })),
);
const SosMap = lazy(() => import('./sos-map').then((module) => ({ default: module.SosMap })));

const STATUS_COLOR: Record<SosStatus, string> = {
  // Dark shades: white text on them passes contrast in both schemes.
  open: 'red.9',
  acknowledged: 'blue.9',
  escalated: 'grape.8',
  resolved: 'teal.9',
};

/**
 * Every change pushed by the stream loads the lists again, so that the room is always current; so
 * does the stream opened again (an alert's map joining it, a dropped connection), which may have
 * missed changes meanwhile.
 */
function useLiveRefresh() {
  const client = useQueryClient();
  useEffect(() => {
    let streamOpened = tabStreamStatus() === 'live';
    return listenToTabStream((event) => {
      const reopened = event.event === 'open' && streamOpened;
      if (event.event === 'open') streamOpened = true;
      if (event.event === 'sos' || reopened) void client.invalidateQueries({ queryKey: SOS_KEY });
    });
  }, [client]);
}

function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

function AlertFacts({ alert }: { alert: SosAlert }) {
  return (
    <Stack gap={4}>
      <Text size="sm">{m.sosDriverLine({ name: alert.driverName ?? m.sosUnknownDriver() })}</Text>
      {alert.driverPhone && (
        <Text size="sm" component="div">
          <PhoneLinks phone={alert.driverPhone} />
        </Text>
      )}
      {alert.vehicleNumber && <Text size="sm">{m.sosVehicleLine({ number: alert.vehicleNumber })}</Text>}
      {alert.franchiseName && <Text size="sm">{m.sosFranchiseLine({ name: alert.franchiseName })}</Text>}
      {alert.customerName && <Text size="sm">{m.sosCustomerLine({ name: alert.customerName })}</Text>}
      {alert.customerPhone && (
        <Text size="sm" component="div">
          <PhoneLinks phone={alert.customerPhone} />
        </Text>
      )}
      {alert.tripId && (
        <Anchor component={Link} to={`/trips/${alert.tripId}`} size="sm" underline="always">
          {m.sosTripLink()}
        </Anchor>
      )}
      <Text size="sm" c="dimmed">
        {sosSourceLabel(alert.source)}
        {alert.raisedByName ? ` · ${m.sosByName({ name: alert.raisedByName })}` : ''}
        {' · '}
        {m.sosRaisedAt({ at: formatDateTime(alert.raisedAt) })}
      </Text>
      {alert.note && <Text size="sm">{alert.note}</Text>}
      {alert.escalations.map((escalation) => (
        <Text size="sm" key={escalation.at}>
          {m.sosEscalatedTo({ to: sosEscalationLabel(escalation.to), at: formatDateTime(escalation.at) })}
          {escalation.byName ? ` · ${m.sosByName({ name: escalation.byName })}` : ''}
          {escalation.note ? ` · ${escalation.note}` : ''}
        </Text>
      ))}
      {alert.outcome && (
        <Text size="sm" fw={600}>
          {m.sosOutcomeLine({ outcome: sosOutcomeLabel(alert.outcome) })}
          {alert.outcomeNote ? ` · ${alert.outcomeNote}` : ''}
        </Text>
      )}
      {alert.resolvedAt && (
        <Text size="sm" c="dimmed">
          {m.sosResolvedAt({ at: formatDateTime(alert.resolvedAt) })}
          {alert.resolvedByName ? ` · ${m.sosByName({ name: alert.resolvedByName })}` : ''}
        </Text>
      )}
    </Stack>
  );
}

function AlertHeader({ alert, now }: { alert: SosAlert; now: number }) {
  return (
    <Group justify="space-between" gap="xs" wrap="wrap">
      <Group gap="xs">
        <Title order={3} size="h4">
          {alert.number}
        </Title>
        <Badge color={STATUS_COLOR[alert.status]} variant="filled">
          {sosStatusLabel(alert.status)}
        </Badge>
        <Text fw={600} size="sm">
          {sosPersonLabel(alert.person)}
        </Text>
      </Group>
      {alert.status !== 'resolved' && (
        <Text fw={700} c={alert.acknowledgedAt ? undefined : 'red'} size="sm" aria-live="off">
          {alertClockText(alert, now)}
        </Text>
      )}
      {alert.status === 'resolved' && alert.acknowledgedAt && (
        <Text size="sm">{alertClockText(alert, now)}</Text>
      )}
    </Group>
  );
}

/** An open alert: its clock, who and where, a map, and the steps allowed now. */
function OpenAlertCard({ alert, now }: { alert: SosAlert; now: number }) {
  const hasPosition = alert.lat !== null && alert.long !== null;
  return (
    <Paper withBorder p="md" component="article" aria-label={alert.number}>
      <Stack gap="sm">
        <AlertHeader alert={alert} now={now} />
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
          <Stack gap="sm">
            <AlertFacts alert={alert} />
            <SosSteps alert={alert} />
          </Stack>
          {hasPosition || alert.driverId ? (
            <Suspense fallback={null}>
              <SosMap alert={alert} />
              {!hasPosition && (
                <Text size="sm" c="dimmed">
                  {m.sosNoPosition()}
                </Text>
              )}
            </Suspense>
          ) : (
            <Text size="sm" c="dimmed">
              {m.sosNoPosition()}
            </Text>
          )}
        </SimpleGrid>
      </Stack>
    </Paper>
  );
}

function OpenAlerts({ now }: { now: number }) {
  const query = useOpenAlerts();
  const { rows } = pagedRows(query.data);
  return (
    <Stack gap="sm" component="section" aria-labelledby="sos-open-heading">
      <Title order={2} size="h3" id="sos-open-heading">
        {m.sosOpenHeading()}
      </Title>
      {query.error && <ErrorAlert error={query.error} />}
      {query.isSuccess && rows.length === 0 && <Text c="dimmed">{m.sosOpenNone()}</Text>}
      {oldestFirst(rows).map((alert) => (
        <OpenAlertCard key={alert.id} alert={alert} now={now} />
      ))}
      <LoadMoreButton query={query}>{m.sosLoadMore()}</LoadMoreButton>
    </Stack>
  );
}

function History({ now }: { now: number }) {
  const [filters, setFilters] = useState<SosHistoryFilters>({});
  const query = useSosHistory(filters);
  const { rows, total, totalCapped } = pagedRows(query.data);
  return (
    <Stack gap="sm" component="section" aria-labelledby="sos-history-heading">
      <Group justify="space-between" gap="xs">
        <Title order={2} size="h3" id="sos-history-heading">
          {m.sosHistoryHeading()}
        </Title>
        <ExportButton
          path="/sos/export.csv"
          query={{ status: 'resolved', ...filters }}
          label={m.sosExportCsv()}
        />
      </Group>
      <Group gap="sm" align="flex-end" wrap="wrap">
        <NativeSelect
          label={m.sosFilterOutcome()}
          value={filters.outcome ?? ''}
          onChange={(event) => {
            // Read now: React clears currentTarget before the updater runs.
            const outcome = (event.currentTarget.value || undefined) as SosOutcome | undefined;
            setFilters((f) => ({ ...f, outcome }));
          }}
          data={[
            { value: '', label: m.sosFilterAnyOutcome() },
            ...SOS_OUTCOMES.map((value) => ({ value, label: sosOutcomeLabel(value) })),
          ]}
        />
        <DateField
          label={m.sosFilterFrom()}
          value={filters.from ?? ''}
          onChange={(from) => setFilters((f) => ({ ...f, from: from || undefined }))}
        />
        <DateField
          label={m.sosFilterTo()}
          value={filters.to ?? ''}
          onChange={(to) => setFilters((f) => ({ ...f, to: to || undefined }))}
        />
      </Group>
      {query.error && <ErrorAlert error={query.error} />}
      <ListSummary
        shown={rows.length}
        total={total}
        totalCapped={totalCapped}
        noun={m.sosHistoryNoun()}
        query=""
        empty={query.isSuccess ? m.sosHistoryEmpty() : null}
      />
      {rows.map((alert) => (
        <Paper withBorder p="sm" key={alert.id} component="article" aria-label={alert.number}>
          <Stack gap="xs">
            <AlertHeader alert={alert} now={now} />
            <AlertFacts alert={alert} />
          </Stack>
        </Paper>
      ))}
      <LoadMoreButton query={query}>{m.sosLoadMore()}</LoadMoreButton>
    </Stack>
  );
}

/** `/sos`: the control room. Open alerts first (oldest on top), then the history. */
export function SosScreen() {
  useLiveRefresh();
  const now = useNow();
  const [logging, setLogging] = useState(false);
  const [wanted, setWanted] = useState(false);
  return (
    <Page
      title={m.sosScreenTitle()}
      actions={
        <Button
          color="red"
          onClick={() => {
            setWanted(true);
            setLogging(true);
          }}
        >
          {m.sosLogButton()}
        </Button>
      }
    >
      <Text size="sm" c="dimmed">
        {m.sosScreenIntro()}
      </Text>
      <OpenAlerts now={now} />
      <History now={now} />
      {wanted && (
        <Suspense fallback={null}>
          <LogSosDialog opened={logging} onClose={() => setLogging(false)} />
        </Suspense>
      )}
    </Page>
  );
}
