import { Center, Loader, Paper, Stack, Text, Timeline, Title } from '@mantine/core';
import { RATE_FIELDS, type State } from '@bmet/shared/constants';
import type { RateHistoryEntry } from '@bmet/shared/schemas/car-rate';
import { LoadMoreButton } from '../../components/load-more-button';
import { formatDateTime, stateLabel } from '../../lib/format';
import { useRateHistory } from './api';
import { carTypeLabel } from '@bmet/shared/labels';
import { m } from '@bmet/shared/paraglide/messages';
import { rateFieldLabel } from '../../lib/rate-fields';

const shown = (value: number | null) => (value === null ? m.ratesHistoryBlank() : String(value));

/** The fields a change touched, as 'basePrice 70 → 75'; every field for a car type just added. */
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
    default:
      return m.ratesHistoryUpdated({ type });
  }
}

/** Who changed the state's rates, when, and from what to what; newest first. */
export function RateHistory({ state }: { state: State }) {
  const history = useRateHistory(state);
  const entries = history.data?.pages.flatMap((page) => page.data) ?? [];

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="rate-history-title">
      <Stack gap="sm">
        <Title order={4} id="rate-history-title">
          {m.ratesHistoryTitle()}
        </Title>
        {history.isPending ? (
          <Center>
            <Loader size="sm" aria-label={m.ratesHistoryLoading()} />
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
            {entries.map((entry) => (
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
              </Timeline.Item>
            ))}
          </Timeline>
        )}
        <LoadMoreButton query={history} size="xs">
          {m.ratesHistoryShowOlder()}
        </LoadMoreButton>
      </Stack>
    </Paper>
  );
}
