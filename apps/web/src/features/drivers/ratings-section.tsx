import { Group, Paper, Stack, Text } from '@mantine/core';
import { useDeferredValue } from 'react';
import { m } from '@bmet/shared/paraglide/messages';
import { LoadMoreButton } from '../../components/load-more-button';
import { StarRating } from '../../components/star-rating';
import { useRatings } from './api';

/** The driver's ratings: average and count, then each entry ('Not rated' where none was given). */
export function RatingsSection({ driverId }: { driverId: string }) {
  const ratings = useDeferredValue(useRatings(driverId));
  if (ratings.isPending)
    return (
      <Text c="dimmed" data-content-loading="">
        {m.driversLoadingRatings()}
      </Text>
    );
  if (ratings.isError) return <Text c="red">{ratings.error.message}</Text>;
  const summary = ratings.data.pages[0]!.summary;
  const entries = ratings.data.pages.flatMap((page) => page.data);
  return (
    <Stack gap="sm">
      <Group gap="sm">
        <StarRating value={summary.average} size={20} />
        <Text fw={600}>
          {summary.average === null
            ? m.driversNoRatings()
            : m.driversRatingSummary({ average: summary.average.toFixed(1), count: summary.count })}
        </Text>
      </Group>
      {entries.length === 0 ? (
        <Text c="dimmed">{m.driversNoRatingDetails()}</Text>
      ) : (
        entries.map((entry) => (
          <Paper key={entry.id} withBorder p="sm">
            <Group justify="space-between" wrap="wrap">
              <Text fw={500}>{entry.customerName || m.driversCustomer()}</Text>
              <StarRating value={entry.rating} />
            </Group>
            {entry.description && (
              <Text size="sm" c="dimmed" mt={4}>
                {entry.description}
              </Text>
            )}
          </Paper>
        ))
      )}
      <LoadMoreButton query={ratings} size="xs">
        {m.driversLoadMoreRatings()}
      </LoadMoreButton>
    </Stack>
  );
}
