import { Stack, Title } from '@mantine/core';
import { useEffect, type ReactNode } from 'react';

/** A screen with its title, also shown in the browser tab. */
export function Page({
  title,
  actions,
  children,
}: {
  title: string;
  actions?: ReactNode;
  children?: ReactNode;
}) {
  useEffect(() => {
    document.title = `${title} · Book-My-ETaxi`;
  }, [title]);
  return (
    <Stack gap="md">
      <Stack
        gap="xs"
        style={{
          flexDirection: 'row',
          justifyContent: 'space-between',
          alignItems: 'center',
          flexWrap: 'wrap',
        }}
      >
        <Title order={2}>{title}</Title>
        {actions}
      </Stack>
      {children}
    </Stack>
  );
}
