import { formatCount } from '../lib/format';
import { Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { m } from '@bmet/shared/paraglide/messages';

/**
 * The line over a searched list, read out as it changes: 'Showing 50 of 1,234 drivers' (or '10,000+'), 'No
 * drivers match “x”.' when a search finds nothing, or `empty` when there is nothing at all.
 */
export function ListSummary({
  shown,
  total,
  totalCapped = false,
  noun,
  query,
  empty,
  countedAs = noun,
}: {
  shown: number;
  total: number;
  /** The server stopped counting at `total`: 'Showing 50 of 10,000+ drivers'. */
  totalCapped?: boolean;
  noun: string;
  query: string;
  empty: ReactNode;
  /** How the count names the rows when that says more than `noun`: 'deleted drivers'. */
  countedAs?: string;
}) {
  return (
    <Text size="sm" c="dimmed" aria-live="polite">
      {total === 0
        ? query
          ? noMatchText(noun, query)
          : empty
        : m.listShowing({
            shown,
            total: `${formatCount(total)}${totalCapped ? '+' : ''}`,
            noun: countedAs,
          })}
    </Text>
  );
}

/** What a list says when a search finds nothing: 'No drivers match “x”.' */
export function noMatchText(noun: string, query: string): string {
  return m.listNoMatch({ noun, query });
}
