import { Alert, Button, Group, Stack, Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { ApiError } from '../lib/api-client';
import { formatCalendarDate } from '../lib/format';
import { DateField } from './date-field';

/**
 * The parts of a state's settings that take effect from a day on (the check figures, the grievance
 * and SOS rules): the values as a table of two columns, those in effect and those saved for later
 * days, and the end of the form that saves them from a day.
 */

export type SettingRow = { key: string; name: string; value: string };

/** Settings as a table of two columns: what, and how much. */
export function SettingsTable({ label, rows }: { label: string; rows: SettingRow[] }) {
  return (
    <Table.ScrollContainer minWidth={280}>
      <Table aria-label={label} striped>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.key}>
              <Table.Th scope="row" fw={500}>
                {row.name}
              </Table.Th>
              <Table.Td>{row.value}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/**
 * What is in effect (since a day, or the defaults), its table, the tables of each later day, and
 * the form that changes them.
 */
export function DatedSettings<T>({
  effectiveFrom,
  sinceText,
  defaultsText,
  current,
  currentLabel,
  scheduled,
  laterLabel,
  rowsOf,
  children,
}: {
  effectiveFrom: string | null;
  sinceText: (date: string) => string;
  defaultsText: string;
  current: T;
  currentLabel: string;
  scheduled: { effectiveFrom: string; value: T }[];
  laterLabel: (date: string) => string;
  rowsOf: (value: T) => SettingRow[];
  children: ReactNode;
}) {
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        {effectiveFrom ? sinceText(formatCalendarDate(effectiveFrom)) : defaultsText}
      </Text>
      <SettingsTable label={currentLabel} rows={rowsOf(current)} />
      {scheduled.map((later) => {
        const label = laterLabel(formatCalendarDate(later.effectiveFrom));
        return (
          <Stack key={later.effectiveFrom} gap={4}>
            <Text size="sm" fw={500}>
              {label}
            </Text>
            <SettingsTable label={label} rows={rowsOf(later.value)} />
          </Stack>
        );
      })}
      {children}
    </Stack>
  );
}

/**
 * The end of a form that saves settings from a day on: the day, what went wrong that belongs to no
 * field, what was saved, and the button.
 */
export function SaveFromDay({
  dateLabel,
  effectiveFrom,
  onEffectiveFrom,
  error,
  done,
  saveLabel,
  saving,
}: {
  dateLabel: string;
  effectiveFrom: string;
  onEffectiveFrom: (date: string) => void;
  error: Error | null;
  done: string | null;
  saveLabel: string;
  saving: boolean;
}) {
  const fieldErrors = error instanceof ApiError ? error.body.fieldErrors : undefined;
  return (
    <>
      <DateField
        label={dateLabel}
        value={effectiveFrom}
        onChange={onEffectiveFrom}
        error={fieldErrors?.effectiveFrom?.[0]}
        maw={240}
      />
      {error && !fieldErrors && (
        <Alert color="red" role="alert">
          {error.message}
        </Alert>
      )}
      {done && (
        <Alert color="teal" role="status">
          {done}
        </Alert>
      )}
      <Group>
        <Button type="submit" loading={saving}>
          {saveLabel}
        </Button>
      </Group>
    </>
  );
}
