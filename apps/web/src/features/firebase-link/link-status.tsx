import { Alert, Group, Loader, SimpleGrid, Stack, Text } from '@mantine/core';
import { Fragment } from 'react';
import { m } from '@bmet/shared/paraglide/messages';
import type { FirebaseLinkStatus } from '@bmet/shared/schemas/firebase-link';
import { TimeAgo } from '../../components/time-ago';
import { formatCount, formatDateTime } from '../../lib/format';
import { appliedRows } from './labels';
import { Figure } from '../../components/figure';
import { Section } from '../../components/section';
import classes from './firebase-link.module.css';

/** The following server as staff can read it: its host and process (the lease holder is "host pid tag"). */
function serverName(holder: string): string {
  const match = /^(\S+) (\d+) \S+$/.exec(holder);
  return match ? m.firebaseLinkServerProcess({ host: match[1]!, process: match[2]! }) : holder;
}

/** Seconds with at most one decimal: 0.4 s, 12 s. */
const seconds = (value: number) =>
  m.firebaseLinkSeconds({ seconds: formatCount(Math.round(value * 10) / 10) });

/** Connected or not, since when, which server follows, and whether changes go back to Firebase. */
export function ConnectionSection({ status }: { status: FirebaseLinkStatus }) {
  const state = !status.following ? 'off' : status.connectedSince ? 'connected' : 'reconnecting';
  const badge = {
    connected: { label: m.firebaseLinkConnected(), color: 'teal' },
    reconnecting: { label: m.firebaseLinkReconnecting(), color: 'orange' },
    off: { label: m.firebaseLinkNotConnected(), color: 'red' },
  }[state];
  return (
    <Section title={m.firebaseLinkConnection()} badge={badge}>
      <Text size="sm" data-testid="firebase-link-connection">
        {state === 'connected'
          ? m.firebaseLinkConnectedSince({ time: formatDateTime(status.connectedSince!) })
          : state === 'reconnecting'
            ? m.firebaseLinkReconnectingText()
            : m.firebaseLinkNotFollowingText()}
      </Text>
      {status.buildingIndexes && (
        <Group gap="xs" wrap="nowrap" data-testid="firebase-link-building-indexes">
          <Loader size="xs" aria-hidden />
          <Text size="sm">{m.firebaseLinkBuildingIndexes()}</Text>
        </Group>
      )}
      {status.holder && (
        <Text size="sm" c="dimmed" data-testid="firebase-link-server">
          {m.firebaseLinkServer({ server: serverName(status.holder) })}
        </Text>
      )}
      <Stack gap={4}>
        <Group gap="xs">
          <Text size="sm" fw={600}>
            {m.firebaseLinkWriteBack()}
          </Text>
          <Text
            size="sm"
            fw={600}
            c={status.writeBack ? 'var(--mantine-color-teal-text)' : 'dimmed'}
            data-testid="firebase-link-write-back"
          >
            {status.writeBack ? m.firebaseLinkWriteBackOn() : m.firebaseLinkWriteBackOff()}
          </Text>
        </Group>
        <Text size="sm" c="dimmed">
          {status.writeBack ? m.firebaseLinkWriteBackOnText() : m.firebaseLinkWriteBackOffText()}
        </Text>
      </Stack>
    </Section>
  );
}

/** The last change and its age, the pace and delay of the last minute, and counts since the start. */
export function ActivityFigures({ status }: { status: FirebaseLinkStatus }) {
  const figures = [
    <Figure
      key="last"
      testId="figure-last-change"
      label={m.firebaseLinkLastChange()}
      value={status.lastEventAt ? <TimeAgo iso={status.lastEventAt} /> : m.firebaseLinkNoChangeYet()}
      hint={status.lastEventAt ? formatDateTime(status.lastEventAt) : undefined}
    />,
    <Figure
      key="pace"
      testId="figure-changes-per-minute"
      label={m.firebaseLinkChangesPerMinute()}
      value={formatCount(status.eventsPerMinute)}
      hint={m.firebaseLinkChangesPerMinuteHint()}
    />,
    <Figure
      key="delay"
      testId="figure-delay"
      label={m.firebaseLinkDelay()}
      value={status.lagSeconds === null ? '-' : seconds(status.lagSeconds)}
      hint={m.firebaseLinkDelayHint()}
    />,
    <Figure
      key="positions"
      testId="figure-positions"
      label={m.firebaseLinkPositions()}
      value={formatCount(status.positions)}
      hint={m.firebaseLinkSinceStartHint()}
    />,
    <Figure
      key="reconnects"
      testId="figure-reconnects"
      label={m.firebaseLinkReconnects()}
      value={formatCount(status.reconnects)}
      hint={m.firebaseLinkSinceStartHint()}
    />,
    <Figure
      key="skipped"
      testId="figure-skipped"
      label={m.firebaseLinkSkipped()}
      value={formatCount(status.skipped)}
      hint={m.firebaseLinkSkippedHint()}
    />,
  ];
  return (
    <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="sm" role="list" aria-label={m.firebaseLinkFigures()}>
      {figures.map((figure) => (
        <div role="listitem" key={figure.key}>
          {figure}
        </div>
      ))}
    </SimpleGrid>
  );
}

/** Records applied per kind since the following server began. */
export function AppliedSection({ applied }: { applied: Record<string, number> }) {
  return (
    <Section title={m.firebaseLinkApplied()}>
      <Text size="sm" c="dimmed">
        {m.firebaseLinkAppliedHint()}
      </Text>
      <dl className={classes.counts} data-testid="firebase-link-applied">
        {appliedRows(applied).map(({ kind, label, count }) => (
          <Fragment key={kind}>
            <dt>{label}</dt>
            <dd>{formatCount(count)}</dd>
          </Fragment>
        ))}
      </dl>
    </Section>
  );
}

/** The changes made here that wait to be written to Firebase, and why they fail. */
export function OutboxSection({ status }: { status: FirebaseLinkStatus }) {
  const { outbox } = status;
  return (
    <Section title={m.firebaseLinkOutbox()}>
      {outbox.failing > 0 && (
        <Alert color="red" role="alert">
          {m.firebaseLinkOutboxFailingAlert()}
        </Alert>
      )}
      <dl className={classes.counts} data-testid="firebase-link-outbox">
        <dt>{m.firebaseLinkOutboxWaiting()}</dt>
        <dd data-testid="outbox-waiting">{formatCount(outbox.waiting)}</dd>
        <dt>{m.firebaseLinkOutboxOldest()}</dt>
        <dd data-testid="outbox-oldest">
          {outbox.oldestWaitingAt ? (
            <>
              <TimeAgo iso={outbox.oldestWaitingAt} />
              <Text size="xs" c="dimmed" fw={400}>
                {formatDateTime(outbox.oldestWaitingAt)}
              </Text>
            </>
          ) : (
            '-'
          )}
        </dd>
        <dt>
          {m.firebaseLinkOutboxFailing()}
          <Text size="xs" c="dimmed">
            {m.firebaseLinkOutboxFailingHint()}
          </Text>
        </dt>
        <dd data-testid="outbox-failing" data-alert={outbox.failing > 0 || undefined}>
          {formatCount(outbox.failing)}
        </dd>
      </dl>
      {outbox.lastError ? (
        <Stack gap={2}>
          <Text size="sm" fw={600}>
            {m.firebaseLinkOutboxLastError()}
          </Text>
          <Text className={classes.message} data-testid="outbox-last-error">
            {outbox.lastError}
          </Text>
        </Stack>
      ) : (
        outbox.waiting === 0 && (
          <Text size="sm" c="dimmed">
            {status.writeBack ? m.firebaseLinkOutboxEmpty() : m.firebaseLinkOutboxReadOnly()}
          </Text>
        )
      )}
    </Section>
  );
}

/** The link's last errors, newest first, with their time in India. */
export function ErrorsSection({ errors }: { errors: FirebaseLinkStatus['lastErrors'] }) {
  return (
    <Section title={m.firebaseLinkErrors()}>
      {errors.length === 0 ? (
        <Text size="sm" c="dimmed">
          {m.firebaseLinkNoErrors()}
        </Text>
      ) : (
        <ul className={classes.errors} data-testid="firebase-link-errors">
          {errors.map((error, index) => (
            <li key={`${error.at}-${index}`}>
              <Text size="xs" c="dimmed" component="time" dateTime={error.at}>
                {formatDateTime(error.at)}
              </Text>
              <span className={classes.message}>{error.message}</span>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}
