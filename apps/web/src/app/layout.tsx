import { ActionIcon, Burger, Button, Group, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconBolt, IconHelp, IconMail } from '@tabler/icons-react';
import { Fragment, lazy, Suspense, useState } from 'react';
import { Outlet } from 'react-router';
import { m } from '@bmet/shared/paraglide/messages';
import { FullPageSpinner } from '../components/full-page-spinner';
import { apiRequest } from '../lib/api-client';
import { useSession } from '../lib/session-context';
import { rememberAccountLanguage } from '../lib/account-language';
import { ColorSchemeButton } from './color-scheme-button';
import { LanguageSwitch } from './language-switch';
import classes from './layout.module.css';
import type { HelpTopic } from './help-dialog';

const HelpDialog = lazy(() => import('./help-dialog').then((m) => ({ default: m.HelpDialog })));
// The account button needs the data layer (the user's name): it comes after the first paint.
const AccountButton = lazy(() => import('./account-button').then((m) => ({ default: m.AccountButton })));
const Navigation = lazy(() => import('./navigation').then((m) => ({ default: m.Navigation })));
// The search (a button and its keys) comes after the first paint too, and never on the sign-in screen.
// Loaded after sign-in with the rest of the header: it follows the SOS alerts of the caller's scope.
const SosBanner = lazy(() => import('../features/sos/sos-banner').then((m) => ({ default: m.SosBanner })));
const InboxButton = lazy(() =>
  import('../features/inbox/inbox-button').then((m) => ({ default: m.InboxButton })),
);
const SearchButton = lazy(() =>
  import('../features/search/search-button').then((m) => ({ default: m.SearchButton })),
);

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
          {session && (
            <Suspense fallback={null}>
              <SearchButton />
              <InboxButton />
            </Suspense>
          )}
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
        // Until its code arrives, an empty bar of the same size keeps the page from shifting.
        <Suspense fallback={<nav className={classes.navbar} aria-label={m.appMainNavigation()} />}>
          <Navigation
            role={session.role}
            opened={opened}
            onNavigate={close}
            onLogout={() => void logout(endSession)}
          />
        </Suspense>
      )}
      <main id="content" tabIndex={-1} className={classes.main} data-with-navbar={session ? true : undefined}>
        {session && (
          <Suspense fallback={null}>
            <SosBanner />
          </Suspense>
        )}
        <Suspense fallback={<FullPageSpinner />}>
          <Outlet />
        </Suspense>
      </main>
    </>
  );
}
