import { Paper, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** One figure of a screen's summary: what it counts, the figure, and a line saying more. */
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
