import { Badge, Group, Paper, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { m } from '@bmet/shared/paraglide/messages';

/** One method of the second factor: its name, whether it is on, and what can be done with it. */
export function Section({ title, on, children }: { title: string; on?: boolean; children: ReactNode }) {
  return (
    <Paper withBorder p="lg" component="section" aria-label={title}>
      <Stack gap="sm">
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Title order={3} size="h4">
            {title}
          </Title>
          {on !== undefined && (
            <Badge color={on ? 'teal' : 'gray'} variant="light">
              {on ? m.secondFactorOn() : m.secondFactorOff()}
            </Badge>
          )}
        </Group>
        {children}
      </Stack>
    </Paper>
  );
}
