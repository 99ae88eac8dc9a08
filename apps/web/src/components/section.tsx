import { Badge, Group, Paper, Stack, Title } from '@mantine/core';
import { useId, type ReactNode } from 'react';

/**
 * A part of the screen: a titled panel, named by its title for screen readers, with a badge or
 * controls beside the title.
 */
export function Section({
  title,
  badge,
  actions,
  children,
}: {
  title: string;
  badge?: { label: string; color: string };
  actions?: ReactNode;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby={id}>
      <Stack gap="sm">
        <Group justify="space-between" gap="xs">
          <Title order={3} size="h4" id={id}>
            {title}
          </Title>
          {badge && (
            <Badge color={badge.color} variant="light" size="lg">
              {badge.label}
            </Badge>
          )}
          {actions}
        </Group>
        {children}
      </Stack>
    </Paper>
  );
}
