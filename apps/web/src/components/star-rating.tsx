import { Group, Text } from '@mantine/core';
import { IconStar, IconStarFilled } from '@tabler/icons-react';
import { m } from '@bmet/shared/paraglide/messages';

/** 1 to 5 stars, or 'Not rated' when an entry has no rating (never invented stars). */
export function StarRating({ value, size = 16 }: { value: number | null; size?: number }) {
  if (value === null) {
    return (
      <Text size="sm" c="dimmed" fs="italic">
        {m.notRated()}
      </Text>
    );
  }
  const rounded = Math.round(value);
  return (
    <Group gap={2} wrap="nowrap" role="img" aria-label={m.commonStarRating({ value })}>
      {[1, 2, 3, 4, 5].map((star) =>
        star <= rounded ? (
          <IconStarFilled key={star} size={size} color="var(--mantine-color-yellow-6)" aria-hidden />
        ) : (
          <IconStar key={star} size={size} color="var(--mantine-color-gray-4)" aria-hidden />
        ),
      )}
    </Group>
  );
}
