import { Button, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link, Navigate, useLocation } from 'react-router';
import { can } from '@bmet/shared/permissions';
import { m } from '@bmet/shared/paraglide/messages';
import { useSession } from '../lib/session-context';
import type { RouteAccess } from './routes';

export function NotAllowed() {
  return (
    <Stack align="center" mt="xl" gap="sm" ta="center">
      <Title order={2}>{m.appNotAllowedTitle()}</Title>
      <Text>{m.notAllowed()}</Text>
      <Button component={Link} to="/welcome" variant="light">
        {m.commonBackToWelcome()}
      </Button>
    </Stack>
  );
}

export function NotFound() {
  return (
    <Stack align="center" mt="xl" gap="sm" ta="center">
      <Title order={2}>{m.appPageNotFound()}</Title>
      <Text>{m.notFoundPage()}</Text>
      <Button component={Link} to="/welcome" variant="light">
        {m.commonBackToWelcome()}
      </Button>
    </Stack>
  );
}

/** Signed-out visitors go to the sign-in screen; a role without the permission sees NotAllowed. */
export function RequireAccess({ permission, children }: { permission: RouteAccess; children: ReactNode }) {
  const { session } = useSession();
  const location = useLocation();
  if (!session) return <Navigate to="/admin" replace state={{ from: location.pathname }} />;
  if (permission !== 'signed-in' && !can(session.role, permission)) return <NotAllowed />;
  return children;
}
