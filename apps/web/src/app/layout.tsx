import { ActionIcon, Burger, Button, Group, Title, UnstyledButton } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconBolt, IconHelp, IconLogout, IconMail } from '@tabler/icons-react';
import { Fragment, lazy, Suspense, useState } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { can } from '@bmet/shared/permissions';
import { m } from '@bmet/shared/paraglide/messages';
import { FullPageSpinner } from '../components/full-page-spinner';
import { apiRequest } from '../lib/api-client';
import { useSession } from '../lib/session-context';
import { rememberAccountLanguage } from '../lib/account-language';
import { ColorSchemeButton } from './color-scheme-button';
import { LanguageSwitch } from './language-switch';
import classes from './layout.module.css';
import type { HelpTopic } from './help-dialog';
import { NAV_ITEMS } from './routes';

const HelpDialog = lazy(() => import('./help-dialog').then((m) => ({ default: m.HelpDialog })));
// The account button needs the data layer (the user's name): it comes after the first paint.
const AccountButton = lazy(() => import('./account-button').then((m) => ({ default: m.AccountButton })));

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
    { key: 'help' as const, label: m.help(), Icon: IconHelp },
    { key: 'contact' as const, label: m.contactUs(), Icon: IconMail },
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

/** Header with the product title, Help and Contact Us; the navigation bar when signed in. */
export function Layout() {
  const { session, endSession } = useSession();
  const [opened, { toggle, close }] = useDisclosure();
  const location = useLocation();
  const items = session
    ? NAV_ITEMS.filter((item) => can(session.role, item.permission[1] as never, item.permission[0]))
    : [];

  return (
    <>
      <a className={classes.skipLink} href="#content">
        {m.appSkipToContent()}
      </a>
      <header className={classes.header}>
        <Group gap="xs" wrap="nowrap">
          {session && (
            <Burger
              opened={opened}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label={m.appToggleNavigation()}
            />
          )}
          <IconBolt size={24} color="var(--mantine-color-teal-6)" className={classes.logo} aria-hidden />
          <Title order={1} size="h3" className={classes.title}>
            {m.productTitle()}
          </Title>
        </Group>
        <Group gap="xs" wrap="nowrap">
          <LanguageSwitch onChange={session ? rememberAccountLanguage : undefined} />
          <Group gap={0} wrap="nowrap">
            <ColorSchemeButton />
            <HelpDialogs />
          </Group>
          {session && (
            <Suspense fallback={null}>
              <AccountButton onLogout={logout} />
            </Suspense>
          )}
        </Group>
      </header>
      {session && (
        <nav className={classes.navbar} data-opened={opened || undefined} aria-label={m.appMainNavigation()}>
          <div className={classes.navLinks}>
            {items.map((item) => (
              <UnstyledButton
                key={item.to}
                component={Link}
                to={item.to}
                className={classes.navLink}
                data-active={location.pathname.toLowerCase() === item.to.toLowerCase() || undefined}
                aria-current={location.pathname.toLowerCase() === item.to.toLowerCase() ? 'page' : undefined}
                onClick={close}
              >
                {item.label()}
              </UnstyledButton>
            ))}
          </div>
          <UnstyledButton className={classes.navLink} data-danger onClick={() => void logout(endSession)}>
            <IconLogout size={16} aria-hidden />
            {m.logout()}
          </UnstyledButton>
        </nav>
      )}
      <main id="content" tabIndex={-1} className={classes.main} data-with-navbar={session ? true : undefined}>
        <Suspense fallback={<FullPageSpinner />}>
          <Outlet />
        </Suspense>
      </main>
    </>
  );
}
