import { Box, Group, Text } from '@mantine/core';
import { IconChevronDown, IconUser } from '@tabler/icons-react';

/** What the account menu's button shows: the user's name between an icon and a chevron (a phone shows the icon). */
export function AccountMenuLabel({ name }: { name: string }) {
  return (
    <Group gap={4} wrap="nowrap">
      <IconUser size={18} />
      <Text size="sm" visibleFrom="sm" truncate maw={200}>
        {name}
      </Text>
      {/* Not on a phone: the header's every button must fit its width. */}
      <Box visibleFrom="xs" display="flex">
        <IconChevronDown size={14} />
      </Box>
    </Group>
  );
}
