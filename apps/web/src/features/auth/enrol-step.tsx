import { Alert, Anchor, Button, Checkbox, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle, IconDeviceMobile, IconKey } from '@tabler/icons-react';
import { useState } from 'react';
import { m } from '@bmet/shared/paraglide/messages';
import { RecoveryCodes } from '../../components/recovery-codes';
import { TotpSetup } from '../../components/totp-setup';
import { ApiError } from '../../lib/api-client';
import {
  addPasskey,
  passkeyProblem,
  startTotpEnrolment,
  type EnrolmentDone,
  type SignedIn,
} from '../../lib/second-factor';
import { endsTheSignIn, type SecondStepProps } from './second-step-props';

/**
 * A sign-in whose role requires a second factor the account has not set up: it sets one up here,
 * keeps its recovery codes, and only then is signed in (the session comes with the enrolment).
 */
export function EnrolStep({ step, headingOrder, onSignedIn, onRestart }: SecondStepProps) {
  const [remember, setRemember] = useState(false);
  const [totp, setTotp] = useState<{ secret: string; uri: string } | null>(null);
  const [done, setDone] = useState<{ codes: string[]; signIn: SignedIn } | null>(null);
  const [pending, setPending] = useState<'totp' | 'passkey' | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  /** Handles a failure that ends the sign-in; true when it did. */
  const ended = (error: ApiError) => {
    if (!endsTheSignIn(error)) return false;
    onRestart(error.message);
    return true;
  };

  const fail = (error: unknown) => {
    if (error instanceof ApiError && ended(error)) return;
    setProblem(passkeyProblem(error));
  };

  const finish = (answer: EnrolmentDone) => {
    if (!answer.signIn) {
      onRestart(m.secondFactorSignInAgain());
      return;
    }
    if (answer.recoveryCodes?.length) setDone({ codes: answer.recoveryCodes, signIn: answer.signIn });
    else onSignedIn(answer.signIn);
  };

  const setUpApp = () => {
    setPending('totp');
    setProblem(null);
    startTotpEnrolment(step.challenge)
      .then(setTotp, fail)
      .finally(() => setPending(null));
  };

  const setUpPasskey = () => {
    setPending('passkey');
    setProblem(null);
    addPasskey({ challenge: step.challenge, remember })
      .then(finish, fail)
      .finally(() => setPending(null));
  };

  const rememberBox = (
    <Checkbox
      label={m.secondFactorRemember()}
      description={m.secondFactorRememberHint()}
      checked={remember}
      onChange={(e) => setRemember(e.currentTarget.checked)}
    />
  );

  if (done) {
    return (
      <Stack gap="sm">
        <Title order={headingOrder} size="h4">
          {m.recoveryCodesTitle()}
        </Title>
        <RecoveryCodes codes={done.codes} onSaved={() => onSignedIn(done.signIn)} />
      </Stack>
    );
  }

  return (
    <Stack gap="sm">
      <Title order={headingOrder} size="h4">
        {m.secondFactorEnrolTitle()}
      </Title>
      <Text size="sm">{m.secondFactorEnrolIntro()}</Text>
      {problem && (
        <Alert color="red" icon={<IconAlertCircle size={16} aria-hidden />} role="alert">
          {problem}
        </Alert>
      )}
      {totp ? (
        <TotpSetup
          enrolment={totp}
          challenge={step.challenge}
          remember={remember}
          onDone={finish}
          onError={ended}
          onCancel={() => setTotp(null)}
          beforeActions={rememberBox}
        />
      ) : (
        <>
          {rememberBox}
          <Button
            onClick={setUpApp}
            loading={pending === 'totp'}
            disabled={pending === 'passkey'}
            leftSection={<IconDeviceMobile size={16} aria-hidden />}
            fullWidth
          >
            {m.secondFactorSetUpAuthenticator()}
          </Button>
          <Button
            variant="default"
            onClick={setUpPasskey}
            loading={pending === 'passkey'}
            disabled={pending === 'totp'}
            leftSection={<IconKey size={16} aria-hidden />}
            fullWidth
          >
            {m.secondFactorAddPasskey()}
          </Button>
          <Text size="xs" c="dimmed">
            {m.passkeyAbout()}
          </Text>
        </>
      )}
      <Anchor component="button" type="button" size="sm" ta="center" onClick={() => onRestart()}>
        {m.commonBackToSignIn()}
      </Anchor>
    </Stack>
  );
}
