import { Button, Group, Paper, Stack, Text, Title, Transition } from '@mantine/core';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { WELCOME_ANIMATION_MS } from '@bmet/shared/constants';
import { m } from '@bmet/shared/paraglide/messages';
import { can } from '@bmet/shared/permissions';
import { useCurrentUser } from '../../lib/current-user';
import { useSession } from '../../lib/session-context';
import { FirstTasks } from './first-tasks';
import { Spinner } from '../../components/spinner';

/** The greeting: the display name or else the email; shortcuts appear when the animation is done. */
export function WelcomeScreen() {
  const { session } = useSession();
  const { data: user, isPending } = useCurrentUser();
  const [animationDone, setAnimationDone] = useState(false);

  useEffect(() => {
    document.title = `${m.welcomeTitle()} · Book-My-ETaxi`;
    const timer = setTimeout(() => setAnimationDone(true), WELCOME_ANIMATION_MS);
    return () => clearTimeout(timer);
  }, []);

  if (isPending) return <Spinner label={m.commonLoading()} />;
  const name = user?.displayName || user?.email || '';
  const role = session?.role;

  return (
    <Paper p={{ base: 'lg', sm: 'xl' }} radius="lg" className="welcome-card" mt="md">
      <Stack gap="md" className="welcome-fade-in">
        <Title order={2}>{m.welcomeHeading({ name })}</Title>
        <Text size="lg" c="dimmed">
          {m.welcomeTagline()}
        </Text>
        <Transition mounted={animationDone} transition="fade-up" duration={400}>
          {(styles) => (
            <Group style={styles} gap="sm" data-testid="welcome-shortcuts">
              <Button component={Link} to="/dashboard" variant="white">
                {m.navDashboard()}
              </Button>
              <Button component={Link} to="/drivers" variant="white">
                {m.navDrivers()}
              </Button>
              <Button component={Link} to="/trips" variant="white">
                {m.navTrips()}
              </Button>
              {role && can(role, ['franchises', 'list']) && (
                <Button component={Link} to="/displayFranchise" variant="white">
                  {m.navFranchises()}
                </Button>
              )}
              {role && can(role, ['customers', 'list']) && (
                <Button component={Link} to="/customers" variant="white">
                  {m.navCustomers()}
                </Button>
              )}
            </Group>
          )}
        </Transition>
        <FirstTasks />
      </Stack>
    </Paper>
  );
}
