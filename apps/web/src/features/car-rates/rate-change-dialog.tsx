import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { CSSProperties, ReactNode } from 'react';
import type { RateField } from '@bmet/shared/constants';
import { isNightHour } from '@bmet/shared/fare';
import { m } from '@bmet/shared/paraglide/messages';
import type { RateValues } from '@bmet/shared/schemas/car-rate';
import { formatRupees } from '../../lib/format';
import { rateFieldLabel } from '../../lib/rate-fields';
import { changedRateFields, SAMPLE_TRIPS, sampleFare, type SampleTrip } from './rate-changes';

const hourLabel = (hour: number) => `${String(hour).padStart(2, '0')}:00`;

/** A field's value as the grid means it: rupees, except the rush hour multiplier. */
const shownValue = (field: RateField, value: number | null) =>
  value === null ? m.ratesHistoryBlank() : field === 'rushHour' ? String(value) : formatRupees(value);

const shownFare = (fare: number | null) => (fare === null ? m.ratesNoFare() : formatRupees(fare));

const tripLabel = (trip: SampleTrip) =>
  (isNightHour(trip.hour) ? m.ratesSampleNightTrip : m.ratesSampleDayTrip)({
    km: trip.km,
    hour: hourLabel(trip.hour),
  });

// Plain table elements: Mantine's Table would be one more module shared with other screens, and
// every screen's first load pays a few bytes for each such module.
const BORDER = '1px solid var(--mantine-color-default-border)';
const TABLE: CSSProperties = {
  width: '100%',
  borderCollapse: 'collapse',
  tableLayout: 'fixed',
  border: BORDER,
  fontSize: 'var(--mantine-font-size-sm)',
};
const CAPTION: CSSProperties = { captionSide: 'top', paddingBottom: 8, color: 'var(--mantine-color-dimmed)' };
const CELL: CSSProperties = { padding: '6px 10px', borderBottom: BORDER, textAlign: 'start' };

/** A small table of three columns: a name, the value before and the value after. */
function BeforeAfterTable({
  caption,
  nameHeader,
  rows,
}: {
  caption: string;
  nameHeader: string;
  rows: { key: string; name: string; before: string; after: string }[];
}) {
  return (
    <table style={TABLE}>
      <caption style={CAPTION}>{caption}</caption>
      <thead>
        <tr>
          <th scope="col" style={CELL}>
            {nameHeader}
          </th>
          <th scope="col" style={CELL}>
            {m.auditBefore()}
          </th>
          <th scope="col" style={CELL}>
            {m.auditAfter()}
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.key}>
            <th scope="row" style={{ ...CELL, fontWeight: 500 }}>
              {row.name}
            </th>
            <td style={CELL}>{row.before}</td>
            <td style={{ ...CELL, fontWeight: 700 }}>{row.after}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * What a save or a restore changes, shown before anything is saved: each changed field before and
 * after, and the fare of a few sample trips with the rates before and after. Nothing happens until
 * the confirm button; Cancel, Escape and the close button change nothing.
 */
export function RateChangeDialog({
  opened,
  title,
  intro,
  before,
  after,
  confirmLabel,
  onConfirm,
  onCancel,
  confirming,
  children,
}: {
  opened: boolean;
  title: string;
  intro: string;
  /** The stored values now; null for a car type not stored yet. */
  before: RateValues | null;
  after: RateValues;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  confirming: boolean;
  /** What the server answered to a confirmed change that failed. */
  children?: ReactNode;
}) {
  const changes = changedRateFields(before, after);
  return (
    <Modal
      opened={opened}
      onClose={onCancel}
      title={title}
      size="lg"
      closeButtonProps={{ 'aria-label': m.close() }}
    >
      <Stack gap="md">
        <Text size="sm">{intro}</Text>
        <BeforeAfterTable
          caption={m.ratesChangesCaption()}
          nameHeader={m.auditField()}
          rows={changes.map(({ field, before: old, after: next }) => ({
            key: field,
            name: rateFieldLabel(field),
            before: shownValue(field, old),
            after: shownValue(field, next),
          }))}
        />
        <BeforeAfterTable
          caption={m.ratesSampleCaption()}
          nameHeader={m.ratesSampleTrip()}
          rows={SAMPLE_TRIPS.map((trip) => ({
            key: `${trip.km}-${trip.hour}`,
            name: tripLabel(trip),
            before: shownFare(sampleFare(before, trip)),
            after: shownFare(sampleFare(after, trip)),
          }))}
        />
        <Text size="xs" c="dimmed">
          {m.ratesSampleNote()}
        </Text>
        {children}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} data-autofocus>
            {m.ratesCopyCancel()}
          </Button>
          <Button loading={confirming} onClick={onConfirm}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
