import {
  Anchor,
  Button,
  Center,
  Group,
  Loader,
  Paper,
  PasswordInput,
  Stack,
  Tabs,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { lazy, Suspense, useState, type FormEvent } from 'react';
import { Link, Navigate, useNavigate } from 'react-router';
import type { Role } from '@bmet/shared/constants';
import { ROLES } from '@bmet/shared/constants';
import { m } from '@bmet/shared/paraglide/messages';
import { passkeysSupported } from '../../lib/passkey-support';
import type { SecondFactorChallenge, SignedIn } from '../../lib/second-factor';
import { rememberAccountLanguage } from '../../lib/account-language';
import { useLanguage } from '../../lib/language';
import { useSession } from '../../lib/session-context';
import { usePasskeySignIn, useSignIn } from './api';
import { preloadStaffRoutes } from '../../app/load-staff-routes';
import { roleLabel } from '@bmet/shared/role-label';

// Only accounts with a second factor meet the second step: its code stays out of the first load.
const SecondStep = lazy(() => import('./second-step').then((module) => ({ default: module.SecondStep })));

/**
 * The sign-in screen: one tab per role; the chosen tab must match the account's role. After a
 * right password, an account with a second factor takes a second step; a passkey alone also signs in.
 */
export function SignInScreen() {
  const { session, startSession } = useSession();
  const { language, changeLanguage } = useLanguage();
  const navigate = useNavigate();
  const signIn = useSignIn();
  const passkey = usePasskeySignIn();
  const [role, setRole] = useState<Role>('admin');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [step, setStep] = useState<SecondFactorChallenge | null>(null);
  // Why the second step sent the user back here (it expired), until the next attempt.
  const [notice, setNotice] = useState<string | null>(null);

  if (session) return <Navigate to="/welcome" replace />;

  /** Opens the session, whichever way it came (password, second step, passkey, enrolment). */
  const finishSignIn = (data: SignedIn) => {
    startSession({ idToken: data.idToken, expirationTime: data.expirationTime, role: data.role });
    // The account's language wins; an account that never chose one keeps the one in use here.
    if (!data.language) rememberAccountLanguage(language);
    else if (data.language !== language) changeLanguage(data.language);
    navigate('/welcome');
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setNotice(null);
    passkey.reset();
    // The signed-in routes load while the server answers, not after it.
    preloadStaffRoutes();
    signIn.mutate(
      { email, password, role },
      {
        onSuccess: (data) => {
          if ('secondFactor' in data) setStep(data.secondFactor);
          else finishSignIn(data);
        },
      },
    );
  };

  const signInWithPasskey = () => {
    setNotice(null);
    signIn.reset();
    preloadStaffRoutes();
    passkey.mutate(role, { onSuccess: finishSignIn });
  };

  const problem = notice ?? signIn.error?.message ?? passkey.error?.message;

  if (step) {
    return (
      <Center mih="calc(100dvh - 100px)">
        <Paper withBorder shadow="sm" p="lg" w="100%" maw={420}>
          <Stack gap="sm">
            <Title order={2} size="h3">
              {m.signInHeading({ role: roleLabel(role) })}
            </Title>
            <Suspense
              fallback={
                <Center role="status" aria-label={m.commonLoading()} py="md">
                  <Loader size="sm" />
                </Center>
              }
            >
              <SecondStep
                step={step}
                after="password"
                headingOrder={3}
                onSignedIn={finishSignIn}
                onRestart={(message) => {
                  setStep(null);
                  setPassword('');
                  setNotice(message ?? null);
                }}
              />
            </Suspense>
          </Stack>
        </Paper>
      </Center>
    );
  }

  return (
    <Center mih="calc(100dvh - 100px)">
      <Paper withBorder shadow="sm" p="lg" w="100%" maw={420}>
        <Tabs
          value={role}
          onChange={(value) => {
            setRole((value as Role) ?? 'admin');
            signIn.reset();
            passkey.reset();
            setNotice(null);
          }}
        >
          <Tabs.List grow mb="md">
            {ROLES.map((r) => (
              <Tabs.Tab key={r} value={r}>
                {roleLabel(r)}
              </Tabs.Tab>
            ))}
          </Tabs.List>
        </Tabs>
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            <Title order={2} size="h3">
              {m.signInHeading({ role: roleLabel(role) })}
            </Title>
            {problem && (
              <Group gap="xs" wrap="nowrap" align="flex-start" c="red.8" role="alert">
                <IconAlertCircle size={18} aria-hidden style={{ flex: 'none', marginTop: 2 }} />
                <Text size="sm">{problem}</Text>
              </Group>
            )}
            <TextInput
              label={m.commonEmail()}
              type="email"
              autoComplete="username"
              value={email}
              onChange={(e) => setEmail(e.currentTarget.value)}
              required
            />
            <PasswordInput
              label={m.commonPassword()}
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
              required
            />
            <Button type="submit" loading={signIn.isPending} disabled={passkey.isPending} fullWidth>
              {m.signInButton()}
            </Button>
            {passkeysSupported() && (
              <Button
                variant="default"
                onClick={signInWithPasskey}
                loading={passkey.isPending}
                disabled={signIn.isPending}
                fullWidth
              >
                {m.signInWithPasskey()}
              </Button>
            )}
            {role === 'admin' && (
              <Anchor component={Link} to="/reset-password-admin" size="sm" ta="center">
                {m.forgotPasswordLink()}
              </Anchor>
            )}
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
