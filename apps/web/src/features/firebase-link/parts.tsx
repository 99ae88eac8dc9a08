import { Badge, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useId, type ReactNode } from 'react';

/** A part of the screen: a titled panel, named by its title for screen readers. */
export function Section({
  title,
  badge,
  children,
}: {
  title: string;
  badge?: { label: string; color: string };
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
        </Group>
        {children}
      </Stack>
    </Paper>
  );
}

/** One figure: its name, its value and a line on what it counts. */
export function Figure({
  label,
  value,
  hint,
  testId,
}: {
  label: string;
  value: ReactNode;
  hint?: ReactNode;
  testId: string;
}) {
  return (
    <Paper withBorder p="md" radius="md" h="100%" data-testid={testId}>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fw={700} fz="xl" data-testid={`${testId}-value`}>
        {value}
      </Text>
      {hint && (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      )}
    </Paper>
  );
}
