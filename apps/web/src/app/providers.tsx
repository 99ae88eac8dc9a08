import { MantineProvider, createTheme } from '@mantine/core';
import { lazy, Suspense, type ReactNode } from 'react';
import { SessionProvider } from '../lib/session-context';

// The notifications' container loads after the first screen; notifications shown before it are kept.
const Notifications = lazy(() =>
  import('@mantine/notifications').then((m) => ({ default: m.Notifications })),
);

export const theme = createTheme({
  primaryColor: 'teal',
  defaultRadius: 'md',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif',
});

export function Providers({ children }: { children: ReactNode }) {
  return (
    <MantineProvider theme={theme} defaultColorScheme="light">
      <Suspense fallback={null}>
        <Notifications position="top-right" />
      </Suspense>
      <SessionProvider>{children}</SessionProvider>
    </MantineProvider>
  );
}
