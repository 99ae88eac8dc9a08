import { Paper, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { m } from '@bmet/shared/paraglide/messages';
import type { tripMessagesResponseSchema } from '@bmet/shared/schemas/trip-message';
import { apiRequest } from '../../lib/api-client';

/** The chat between the trip's customer and its driver, oldest first; nothing when there was none. */
export function TripMessages({ tripId }: { tripId: string }) {
  const messages = useQuery({
    queryKey: ['trips', 'messages', tripId],
    queryFn: ({ signal }) =>
      apiRequest<typeof tripMessagesResponseSchema>('GET', `/trips/${tripId}/messages`, { signal }),
  });
  if (messages.isError) return <Text c="red">{messages.error.message}</Text>;
  const list = messages.data?.data ?? [];
  if (list.length === 0) return null;
  return (
    <Stack gap={6} component="section" aria-label={m.tripMessagesTitle()}>
      <Text fw={600} size="sm" component="h3">
        {m.tripMessagesTitle()}
      </Text>
      {list.map((entry) => {
        const fromDriver = entry.sender === 'driver';
        return (
          <Paper
            key={entry.id}
            withBorder
            p="xs"
            maw="85%"
            ml={fromDriver ? 'auto' : 0}
            bg={fromDriver ? 'var(--mantine-color-default-hover)' : undefined}
          >
            <Text size="xs" c="dimmed">
              {fromDriver ? m.tripMessageFromDriver() : m.tripMessageFromCustomer()}
            </Text>
            <Text size="sm">{entry.message}</Text>
          </Paper>
        );
      })}
    </Stack>
  );
}
