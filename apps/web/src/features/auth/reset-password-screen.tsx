import { Alert, Anchor, Button, Center, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { lazy, Suspense, useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { PASSWORD_MIN_LENGTH } from '@bmet/shared/constants';
import { m } from '@bmet/shared/paraglide/messages';
import type { SecondFactorChallenge, SignedIn } from '../../lib/second-factor';
import { useSession } from '../../lib/session-context';
import { useConfirmPasswordReset } from './password-reset-api';
import { preloadStaffRoutes } from '../../app/load-staff-routes';

// The same chunk as the sign-in screen's second step.
const SecondStep = lazy(() => import('./second-step').then((module) => ({ default: module.SecondStep })));

/**
 * Where the link of a password reset email leads: a new password, typed twice, replaces the old
 * one; every earlier session ends and the user is signed in fresh, after the second step when the
 * account has a second factor.
 */
export function ResetPasswordScreen() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const navigate = useNavigate();
  const { startSession } = useSession();
  const confirm = useConfirmPasswordReset();
  const [password, setPassword] = useState('');
  const [repeated, setRepeated] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [step, setStep] = useState<SecondFactorChallenge | null>(null);
  // The second step ended (expired): the password is saved, the sign-in starts again from /admin.
  const [ended, setEnded] = useState<string | null>(null);

  useEffect(() => {
    document.title = `${m.authChooseNewPassword()} · Book-My-ETaxi`;
  }, []);

  const signIn = (data: SignedIn) => {
    startSession({ idToken: data.idToken, expirationTime: data.expirationTime, role: data.role });
    navigate('/welcome', { replace: true });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const mismatch = !password || !repeated ? m.fillAllFields() : password !== repeated;
    if (mismatch) {
      setProblem(mismatch === true ? m.passwordsDiffer() : mismatch);
      return;
    }
    setProblem(null);
    // The reset signs the user in: the signed-in routes load while the server answers.
    preloadStaffRoutes();
    confirm.mutate(
      { token, password },
      {
        onSuccess: (data) => {
          if ('secondFactor' in data) setStep(data.secondFactor);
          else signIn(data);
        },
      },
    );
  };

  const error = problem ?? (confirm.isError ? confirm.error.message : null);
  const linkIsBad = !token || confirm.error?.message === m.resetLinkInvalid();

  if (step || ended !== null) {
    return (
      <Center mih="calc(100dvh - 100px)">
        <Paper withBorder shadow="sm" p="lg" w="100%" maw={420}>
          {step ? (
            <Suspense fallback={null}>
              <SecondStep
                step={step}
                after="reset"
                headingOrder={2}
                onSignedIn={signIn}
                onRestart={(message) => {
                  if (!message) navigate('/admin');
                  setStep(null);
                  setEnded(message ?? '');
                }}
              />
            </Suspense>
          ) : (
            <Stack gap="sm">
              <Title order={2} size="h3">
                {m.authChooseNewPassword()}
              </Title>
              <Alert color="red" icon={<IconAlertCircle size={16} />} role="alert">
                {ended}
              </Alert>
              <Anchor component={Link} to="/admin" size="sm" ta="center">
                {m.commonBackToSignIn()}
              </Anchor>
            </Stack>
          )}
        </Paper>
      </Center>
    );
  }

  return (
    <Center mih="calc(100dvh - 100px)">
      <Paper withBorder shadow="sm" p="lg" w="100%" maw={420}>
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            <Title order={2} size="h3">
              {m.authChooseNewPassword()}
            </Title>
            {!token ? (
              <Alert color="red" icon={<IconAlertCircle size={16} />} role="alert">
                {m.resetLinkMissing()}
              </Alert>
            ) : (
              <>
                {error && (
                  <Alert color="red" icon={<IconAlertCircle size={16} />} role="alert">
                    {error}
                  </Alert>
                )}
                <Text size="sm" c="dimmed">
                  {m.authResetPasswordRule({ min: PASSWORD_MIN_LENGTH })}
                </Text>
                <PasswordInput
                  label={m.authNewPassword()}
                  autoComplete="new-password"
                  value={password}
                  onChange={(e) => setPassword(e.currentTarget.value)}
                />
                <PasswordInput
                  label={m.authRepeatNewPassword()}
                  autoComplete="new-password"
                  value={repeated}
                  onChange={(e) => setRepeated(e.currentTarget.value)}
                />
                <Button type="submit" loading={confirm.isPending} fullWidth>
                  {m.authSaveNewPassword()}
                </Button>
              </>
            )}
            {linkIsBad && (
              <Anchor component={Link} to="/reset-password-admin" size="sm" ta="center">
                {m.authAskForNewLink()}
              </Anchor>
            )}
            <Anchor component={Link} to="/admin" size="sm" ta="center">
              {m.commonBackToSignIn()}
            </Anchor>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
