import { ActionIcon, AppShell, Burger, Button, Group, NavLink, Title, UnstyledButton } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconBolt, IconHelp, IconLogout, IconMail } from '@tabler/icons-react';
import { Fragment, lazy, Suspense, useState } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { can } from '@bmet/shared/permissions';
import { MESSAGES } from '@bmet/shared/messages';
import { ROLE_LABELS } from '@bmet/shared/constants';
import { FullPageSpinner } from '../components/full-page-spinner';
import { apiRequest } from '../lib/api-client';
import { useCurrentUser } from '../lib/current-user';
import { useSession } from '../lib/session-context';
import { AccountMenuLabel } from './account-menu-label';
import type { HelpTopic } from './help-dialog';
import { NAV_ITEMS } from './routes';

const HelpDialog = lazy(() => import('./help-dialog').then((m) => ({ default: m.HelpDialog })));
const AccountMenu = lazy(() => import('./account-menu').then((m) => ({ default: m.AccountMenu })));

/** Ends the session on the server, then clears it here and goes to '/' as the spec says. */
async function logout(endSession: () => void) {
  await apiRequest('POST', '/auth/sign-out').catch(() => undefined);
  endSession();
  window.location.assign('/');
}

/** Help and Contact Us: words where there is room, icons with the same names on a phone. */
function HelpDialogs() {
  const [open, setOpen] = useState<HelpTopic | null>(null);
  // The dialogs' code loads on the first click: the sign-in screen does not carry it.
  const [wanted, setWanted] = useState(false);
  const buttons = [
    { key: 'help' as const, label: MESSAGES.help, Icon: IconHelp },
    { key: 'contact' as const, label: MESSAGES.contactUs, Icon: IconMail },
  ];
  const show = (key: HelpTopic) => {
    setWanted(true);
    setOpen(key);
  };
  return (
    <>
      {buttons.map(({ key, label, Icon }) => (
        <Fragment key={key}>
          <Button variant="subtle" color="gray" size="compact-sm" visibleFrom="xs" onClick={() => show(key)}>
            {label}
          </Button>
          <ActionIcon
            variant="subtle"
            color="gray"
            hiddenFrom="xs"
            aria-label={label}
            onClick={() => show(key)}
          >
            <Icon size={18} />
          </ActionIcon>
        </Fragment>
      ))}
      {wanted && (
        <Suspense fallback={null}>
          <HelpDialog open={open} onClose={() => setOpen(null)} />
        </Suspense>
      )}
    </>
  );
}

/** The signed-in user's name; the menu (profile, logout) loads when first asked for. */
function UserMenu() {
  const { session } = useSession();
  const { data: user } = useCurrentUser();
  const [wanted, setWanted] = useState(false);
  if (!session) return null;
  const name = user?.displayName || user?.email || ROLE_LABELS[session.role];
  const trigger = (
    <UnstyledButton aria-label="Account menu" aria-haspopup="menu" onClick={() => setWanted(true)}>
      <AccountMenuLabel name={name} />
    </UnstyledButton>
  );
  if (!wanted) return trigger;
  return (
    <Suspense fallback={trigger}>
      <AccountMenu name={name} role={session.role} onLogout={logout} />
    </Suspense>
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
