import {
  ActionIcon,
  Anchor,
  AppShell,
  Burger,
  Button,
  Group,
  Menu,
  Modal,
  NavLink,
  Stack,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconBolt, IconChevronDown, IconHelp, IconLogout, IconMail, IconUser } from '@tabler/icons-react';
import { Fragment, Suspense, useState } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { can } from '@bmet/shared/permissions';
import { MESSAGES } from '@bmet/shared/messages';
import { ROLE_LABELS } from '@bmet/shared/constants';
import { FullPageSpinner } from '../components/full-page-spinner';
import { apiRequest } from '../lib/api-client';
import { useCurrentUser } from '../lib/current-user';
import { useSession } from '../lib/session-context';
import { NAV_ITEMS } from './routes';

/** Ends the session on the server, then clears it here and goes to '/' as the spec says. */
async function logout(endSession: () => void) {
  await apiRequest('POST', '/auth/sign-out', null).catch(() => undefined);
  endSession();
  window.location.assign('/');
}

/** Help and Contact Us: words where there is room, icons with the same names on a phone. */
function HelpDialogs() {
  const [open, setOpen] = useState<'help' | 'contact' | null>(null);
  const buttons = [
    { key: 'help' as const, label: MESSAGES.help, Icon: IconHelp },
    { key: 'contact' as const, label: MESSAGES.contactUs, Icon: IconMail },
  ];
  return (
    <>
      {buttons.map(({ key, label, Icon }) => (
        <Fragment key={key}>
          <Button
            variant="subtle"
            color="gray"
            size="compact-sm"
            visibleFrom="xs"
            onClick={() => setOpen(key)}
          >
            {label}
          </Button>
          <ActionIcon
            variant="subtle"
            color="gray"
            hiddenFrom="xs"
            aria-label={label}
            onClick={() => setOpen(key)}
          >
            <Icon size={18} />
          </ActionIcon>
        </Fragment>
      ))}
      <Modal
        opened={open === 'help'}
        onClose={() => setOpen(null)}
        title={MESSAGES.help}
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        <Stack gap="xs">
          <Text size="sm">
            Use the navigation bar to reach the screens your role can use: drivers and trips for everyone;
            franchises for city dealers; accounts, customers, rates and passwords for admins.
          </Text>
          <Text size="sm">Your session lasts a few hours; when it ends you are asked to sign in again.</Text>
        </Stack>
      </Modal>
      <Modal
        opened={open === 'contact'}
        onClose={() => setOpen(null)}
        title={MESSAGES.contactUs}
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        <Text size="sm">
          Write to <Anchor href="mailto:support@bookmyetaxi.in">support@bookmyetaxi.in</Anchor> and the
          operations team will answer on the next working day.
        </Text>
      </Modal>
    </>
  );
}

function UserMenu() {
  const { session, endSession } = useSession();
  const { data: user } = useCurrentUser();
  if (!session) return null;
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <UnstyledButton aria-label="Account menu">
          <Group gap={4} wrap="nowrap">
            <IconUser size={18} />
            <Text size="sm" visibleFrom="sm" truncate maw={200}>
              {user?.displayName || user?.email || ROLE_LABELS[session.role]}
            </Text>
            <IconChevronDown size={14} />
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{ROLE_LABELS[session.role]}</Menu.Label>
        {can(session.role, 'view', 'profile') && (
          <Menu.Item component={Link} to="/profile" leftSection={<IconUser size={14} />}>
            Profile
          </Menu.Item>
        )}
        <Menu.Item color="red" leftSection={<IconLogout size={14} />} onClick={() => void logout(endSession)}>
          {MESSAGES.logout}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

/** Header with the product title, Help and Contact Us; the navigation bar when signed in. */
export function Layout() {
  const { session, endSession } = useSession();
  const [opened, { toggle, close }] = useDisclosure();
  const location = useLocation();
  const items = session
    ? NAV_ITEMS.filter((item) => can(session.role, item.permission[1] as never, item.permission[0]))
    : [];

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={session ? { width: 230, breakpoint: 'sm', collapsed: { mobile: !opened } } : undefined}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="xs" wrap="nowrap">
            {session && (
              <Burger
                opened={opened}
                onClick={toggle}
                hiddenFrom="sm"
                size="sm"
                aria-label="Toggle navigation"
              />
            )}
            <IconBolt size={24} color="var(--mantine-color-teal-6)" aria-hidden />
            <Title order={1} size="h3" style={{ whiteSpace: 'nowrap' }}>
              {MESSAGES.productTitle}
            </Title>
          </Group>
          <Group gap="xs" wrap="nowrap">
            <Group gap={0} wrap="nowrap">
              <HelpDialogs />
            </Group>
            <UserMenu />
          </Group>
        </Group>
      </AppShell.Header>
      {session && (
        <AppShell.Navbar p="xs" aria-label="Main navigation">
          <AppShell.Section grow>
            {items.map((item) => (
              <NavLink
                key={item.to}
                component={Link}
                to={item.to}
                label={item.label}
                active={location.pathname.toLowerCase() === item.to.toLowerCase()}
                onClick={close}
              />
            ))}
          </AppShell.Section>
          <AppShell.Section>
            <NavLink
              component="button"
              label={MESSAGES.logout}
              leftSection={<IconLogout size={16} />}
              c="red"
              onClick={() => void logout(endSession)}
            />
          </AppShell.Section>
        </AppShell.Navbar>
      )}
      <AppShell.Main>
        <Suspense fallback={<FullPageSpinner />}>
          <Outlet />
        </Suspense>
      </AppShell.Main>
    </AppShell>
  );
}
