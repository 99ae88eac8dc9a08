import { Alert, Button, Center, Group, Paper, Stack, Text, Timeline, Title } from '@mantine/core';
import { IconCheck, IconRestore } from '@tabler/icons-react';
import { useState } from 'react';
import { RATE_FIELDS, type CarType, type State } from '@bmet/shared/constants';
import type { RateHistoryEntry, RateValues, StateRates } from '@bmet/shared/schemas/car-rate';
import { LoadMoreButton } from '../../components/load-more-button';
import { ApiError } from '../../lib/api-client';
import { formatDateTime, stateLabel } from '../../lib/format';
import { useRateHistory, useRefreshRates, useRestoreRates } from './api';
import { carTypeLabel } from '@bmet/shared/labels';
import { m } from '@bmet/shared/paraglide/messages';
import { rateFieldLabel } from '../../lib/rate-fields';
import { OVERRIDE_REASON_MIN, OverrideBand } from './override-band';
import { RateChangeDialog } from './rate-change-dialog';
import { changedRateFields } from './rate-changes';
import { Spinner } from '../../components/spinner';

const shown = (value: number | null) => (value === null ? m.ratesHistoryBlank() : String(value));

/** The fields a change touched, as 'Base price 70 → 75'; every field for a car type just added. */
function changedFields(entry: RateHistoryEntry): string[] {
  return RATE_FIELDS.filter((field) => entry.before?.[field] !== entry.after[field]).map((field) =>
    entry.before
      ? `${rateFieldLabel(field)} ${shown(entry.before[field])} → ${shown(entry.after[field])}`
      : `${rateFieldLabel(field)} ${shown(entry.after[field])}`,
  );
}

function summaryOf(entry: RateHistoryEntry): string {
  const type = carTypeLabel(entry.carType);
  switch (entry.action) {
    case 'create':
      return m.ratesHistoryAdded({ type });
    case 'copy':
      return entry.copiedFrom
        ? m.ratesHistoryCopiedFrom({ type, state: stateLabel(entry.copiedFrom) })
        : m.ratesHistoryCopiedFromOther({ type });
    case 'restore':
      return m.ratesHistoryRestored({ type });
    default:
      return m.ratesHistoryUpdated({ type });
  }
}

/** An earlier version of a car type's rates that can be brought back. */
type Restorable = { carType: CarType; version: number; values: RateValues };

/**
 * The versions an entry offers to restore: its own (the values after it) and, when the history
 * holds no change that made the version before it (a set seeded or imported at version 1), that
 * one too. Only earlier versions, with every field filled, that differ from the current values.
 */
function restorableOf(
  entry: RateHistoryEntry,
  entries: RateHistoryEntry[],
  rates: StateRates,
  complete: boolean,
): Restorable[] {
  const current = rates[entry.carType];
  if (!current) return [];
  const candidates: Restorable[] = [{ carType: entry.carType, version: entry.version, values: entry.after }];
  const previous = entry.version - 1;
  const known = entries.some((other) => other.carType === entry.carType && other.version === previous);
  if (entry.before && previous >= 1 && complete && !known) {
    candidates.push({ carType: entry.carType, version: previous, values: entry.before });
  }
  return candidates.filter(
    ({ version, values }) =>
      version < current.version &&
      RATE_FIELDS.every((field) => values[field] !== null) &&
      changedRateFields(current, values).length > 0,
  );
}

type Refusal = { kind: 'error'; detail: string } | { kind: 'out-of-band'; detail: string };

/**
 * Who changed the state's rates, when, and from what to what; newest first. An earlier version can
 * be restored: after a confirmation showing what changes, it is saved as a new version.
 */
export function RateHistory({
  state,
  rates,
  onRestored,
}: {
  state: State;
  rates: StateRates;
  onRestored: (type: CarType, stored: StateRates) => void;
}) {
  const history = useRateHistory(state);
  const restore = useRestoreRates(state);
  const refresh = useRefreshRates(state);
  const entries = history.data?.pages.flatMap((page) => page.data) ?? [];
  const [restoring, setRestoring] = useState<Restorable | null>(null);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const [restored, setRestored] = useState<string | null>(null);

  const open = (target: Restorable) => {
    setRestoring(target);
    setRefusal(null);
    setReason('');
    setReasonError(null);
    setRestored(null);
  };

  const current = restoring ? rates[restoring.carType] : undefined;

  const run = (overrideReason?: string) => {
    if (!restoring || !current) return;
    restore.mutate(
      {
        body: { carType: restoring.carType, restoreVersion: restoring.version, version: current.version },
        overrideReason,
      },
      {
        onSuccess: (stored) => {
          setRestoring(null);
          setRestored(m.ratesRestored({ type: carTypeLabel(restoring.carType), version: restoring.version }));
          onRestored(restoring.carType, stored);
        },
        onError: (error) => {
          const refused = error instanceof ApiError ? error.body.fieldErrors?.overrideReason?.[0] : undefined;
          if (overrideReason !== undefined && refused) return setReasonError(refused);
          if (error instanceof ApiError && error.body.code === 'FARE_OUT_OF_BAND') {
            setReasonError(null);
            return setRefusal({ kind: 'out-of-band', detail: error.message });
          }
          // Stale: the dialog shows the current values once they are read again.
          if (error instanceof ApiError && error.status === 409) void refresh();
          setRefusal({ kind: 'error', detail: error.message });
        },
      },
    );
  };

  const restoreAnyway = () => {
    if (reason.trim().length < OVERRIDE_REASON_MIN) {
      return setReasonError(m.overrideReasonShort({ min: OVERRIDE_REASON_MIN }));
    }
    run(reason.trim());
  };

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="rate-history-title">
      <Stack gap="sm">
        <Title order={4} id="rate-history-title">
          {m.ratesHistoryTitle()}
        </Title>
        {restored && (
          <Alert
            color="teal"
            variant="light"
            role="status"
            icon={<IconCheck size={18} />}
            withCloseButton
            closeButtonLabel={m.ratesCopyDismiss()}
            onClose={() => setRestored(null)}
          >
            {restored}
          </Alert>
        )}
        {history.isPending ? (
          <Center>
            <Spinner label={m.ratesHistoryLoading()} size="sm" />
          </Center>
        ) : history.isError ? (
          <Text c="red" size="sm" role="alert">
            {history.error.message}
          </Text>
        ) : entries.length === 0 ? (
          <Text size="sm" c="dimmed">
            {m.ratesHistoryEmpty({ state: stateLabel(state) })}
          </Text>
        ) : (
          <Timeline
            bulletSize={12}
            lineWidth={2}
            active={entries.length}
            aria-label={m.ratesHistoryListLabel({ state: stateLabel(state) })}
          >
            {entries.map((entry) => {
              const restorable = restorableOf(entry, entries, rates, !history.hasNextPage);
              return (
                <Timeline.Item key={entry.id} title={summaryOf(entry)}>
                  <Text size="xs" c="dimmed">
                    {m.ratesHistoryMeta({
                      name:
                        entry.changedBy?.name ??
                        (entry.source === 'firebase' ? m.changedByFirebase() : m.ratesHistoryUnknownUser()),
                      time: formatDateTime(entry.changedAt),
                      version: entry.version,
                    })}
                  </Text>
                  <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                    {changedFields(entry).join(', ') || m.ratesHistoryNoValuesChanged()}
                  </Text>
                  {restorable.length > 0 && (
                    <Group gap="xs" mt={6}>
                      {restorable.map((target) => (
                        <Button
                          key={target.version}
                          size="compact-sm"
                          variant="light"
                          leftSection={<IconRestore size={14} />}
                          onClick={() => open(target)}
                        >
                          {m.ratesRestoreVersion({
                            type: carTypeLabel(target.carType),
                            version: target.version,
                          })}
                        </Button>
                      ))}
                    </Group>
                  )}
                </Timeline.Item>
              );
            })}
          </Timeline>
        )}
        <LoadMoreButton query={history} size="xs">
          {m.ratesHistoryShowOlder()}
        </LoadMoreButton>
      </Stack>
      {restoring && current && (
        <RateChangeDialog
          opened
          title={m.ratesRestoreTitle()}
          intro={m.ratesRestoreIntro({
            type: carTypeLabel(restoring.carType),
            state: stateLabel(state),
            version: restoring.version,
          })}
          before={current}
          after={restoring.values}
          confirmLabel={m.ratesRestoreVersion({
            type: carTypeLabel(restoring.carType),
            version: restoring.version,
          })}
          onConfirm={() => run()}
          onCancel={() => setRestoring(null)}
          confirming={restore.isPending}
        >
          {refusal?.kind === 'error' && (
            <Alert color="red" variant="light" role="alert" title={m.errorUpdatingRates()}>
              {refusal.detail}
            </Alert>
          )}
          {refusal?.kind === 'out-of-band' && (
            <OverrideBand
              detail={refusal.detail}
              reason={reason}
              error={reasonError}
              onReason={(value) => {
                setReason(value);
                setReasonError(null);
              }}
              onSave={restoreAnyway}
              saving={restore.isPending}
            />
          )}
        </RateChangeDialog>
      )}
    </Paper>
  );
}
