import { Button, Group } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import type { State } from '@bmet/shared/constants';
import { m } from '@bmet/shared/paraglide/messages';
import { formatHour, stateLabel } from '../../lib/format';

/** The filters only a link can set (from the dashboard): a franchise, a state, an hour of the day. */
export type LinkedFilters = { franchiseId?: string; franchiseName?: string; state?: State; hour?: number };

/**
 * The linked filters in force, each named on a button that removes it: a list narrowed by a
 * dashboard bar says so, and can be widened again.
 */
export function LinkedFilterButtons({
  filters,
  onChange,
}: {
  filters: LinkedFilters;
  onChange: (filters: LinkedFilters) => void;
}) {
  const shown = [
    filters.franchiseId
      ? {
          key: 'franchise',
          text: m.tripsFilterFranchiseChip({ name: filters.franchiseName ?? '-' }),
          without: { ...filters, franchiseId: undefined, franchiseName: undefined },
        }
      : null,
    filters.state
      ? {
          key: 'state',
          text: m.tripsFilterStateChip({ state: stateLabel(filters.state) }),
          without: { ...filters, state: undefined },
        }
      : null,
    filters.hour === undefined
      ? null
      : {
          key: 'hour',
          text: m.tripsFilterHourChip({
            hour: m.dashboardHourRange({
              from: formatHour(filters.hour),
              to: formatHour((filters.hour + 1) % 24),
            }),
          }),
          without: { ...filters, hour: undefined },
        },
  ].filter((item) => item !== null);
  if (shown.length === 0) return null;
  return (
    <Group gap="xs" data-testid="linked-filters">
      {shown.map(({ key, text, without }) => (
        <Button
          key={key}
          variant="light"
          size="compact-sm"
          rightSection={<IconX size={14} aria-hidden />}
          aria-label={m.tripsFilterRemove({ filter: text })}
          onClick={() => onChange(without)}
        >
          {text}
        </Button>
      ))}
    </Group>
  );
}
