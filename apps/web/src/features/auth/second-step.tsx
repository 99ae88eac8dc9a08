import { Alert, Anchor, Button, Checkbox, Divider, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconAlertCircle, IconKey } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { m } from '@bmet/shared/paraglide/messages';
import { ApiError } from '../../lib/api-client';
import {
  cleanCode,
  isRecoveryCode,
  isTotpCode,
  passkeyProblem,
  proveSecondFactor,
  proveWithPasskey,
} from '../../lib/second-factor';
import { EnrolStep } from './enrol-step';
import { endsTheSignIn, type SecondStepProps } from './second-step-props';

/**
 * The second step of a sign-in, after a right password (or a password reset): the account proves
 * its second factor, or sets one up when its role requires one it does not have yet.
 */
export function SecondStep(props: SecondStepProps) {
  return props.step.methods.includes('enrol') ? <EnrolStep {...props} /> : <ProveStep {...props} />;
}

type Mode = 'totp' | 'recovery' | 'passkey';

function ProveStep({ step, after, headingOrder, onSignedIn, onRestart }: SecondStepProps) {
  const hasTotp = step.methods.includes('totp');
  const hasPasskey = step.methods.includes('passkey');
  const hasRecovery = step.methods.includes('recovery');
  const [mode, setMode] = useState<Mode>(hasTotp ? 'totp' : hasPasskey ? 'passkey' : 'recovery');
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [remember, setRemember] = useState(false);
  const [pending, setPending] = useState<'code' | 'passkey' | null>(null);

  const fail = (error: unknown) => {
    if (error instanceof ApiError && endsTheSignIn(error)) {
      onRestart(error.message);
      return;
    }
    const fields = error instanceof ApiError ? error.body.fieldErrors : undefined;
    const fieldError = (fields?.code ?? fields?.recoveryCode)?.[0];
    if (fieldError) {
      setCodeError(fieldError);
      setCode('');
    } else {
      setProblem(passkeyProblem(error));
    }
  };

  const choose = (next: Mode) => {
    setMode(next);
    setCode('');
    setCodeError(null);
    setProblem(null);
  };

  const submitCode = (event: FormEvent) => {
    event.preventDefault();
    if (mode === 'passkey') return;
    const right = mode === 'totp' ? isTotpCode(code) : isRecoveryCode(code);
    if (!right) {
      setCodeError(mode === 'totp' ? m.secondFactorEnterCode() : m.secondFactorEnterRecoveryCode());
      return;
    }
    setPending('code');
    setProblem(null);
    const proof = mode === 'totp' ? { code: cleanCode(code) } : { recoveryCode: code.trim() };
    proveSecondFactor({ challenge: step.challenge, remember, ...proof })
      .then(onSignedIn, fail)
      .finally(() => setPending(null));
  };

  const usePasskey = () => {
    setPending('passkey');
    setProblem(null);
    setCodeError(null);
    proveWithPasskey(step.challenge, remember)
      .then(onSignedIn, fail)
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

  return (
    <Stack gap="sm">
      <Title order={headingOrder} size="h4">
        {m.secondFactorStepTitle()}
      </Title>
      <Text size="sm">{after === 'reset' ? m.secondFactorAfterReset() : m.secondFactorStepIntro()}</Text>
      {problem && (
        <Alert color="red" icon={<IconAlertCircle size={16} aria-hidden />} role="alert">
          {problem}
        </Alert>
      )}
      {mode === 'passkey' ? (
        <>
          <Text size="sm" c="dimmed">
            {m.secondFactorPasskeyHint()}
          </Text>
          {rememberBox}
          <Button
            onClick={usePasskey}
            loading={pending === 'passkey'}
            disabled={pending === 'code'}
            leftSection={<IconKey size={16} aria-hidden />}
            fullWidth
          >
            {m.secondFactorUsePasskey()}
          </Button>
        </>
      ) : (
        <form onSubmit={submitCode} noValidate>
          <Stack gap="sm">
            <TextInput
              key={mode}
              label={mode === 'totp' ? m.secondFactorCodeLabel() : m.secondFactorRecoveryCodeLabel()}
              description={mode === 'totp' ? m.secondFactorCodeHint() : m.secondFactorRecoveryCodeHint()}
              value={code}
              onChange={(e) => {
                setCode(e.currentTarget.value);
                setCodeError(null);
              }}
              error={codeError}
              inputMode={mode === 'totp' ? 'numeric' : 'text'}
              autoComplete={mode === 'totp' ? 'one-time-code' : 'off'}
              autoCapitalize="off"
              spellCheck={false}
              maxLength={mode === 'totp' ? 9 : 40}
              styles={{ input: { fontFamily: 'monospace', letterSpacing: '0.15em' } }}
              data-autofocus
              autoFocus
            />
            {rememberBox}
            <Button type="submit" loading={pending === 'code'} disabled={pending === 'passkey'} fullWidth>
              {m.secondFactorVerify()}
            </Button>
          </Stack>
        </form>
      )}
      {mode === 'totp' && hasPasskey && (
        <>
          <Divider label={m.signInOr()} labelPosition="center" />
          <Button
            variant="default"
            onClick={usePasskey}
            loading={pending === 'passkey'}
            disabled={pending === 'code'}
            leftSection={<IconKey size={16} aria-hidden />}
            fullWidth
          >
            {m.secondFactorUsePasskey()}
          </Button>
        </>
      )}
      <Stack gap={6} align="center">
        {mode !== 'recovery' && hasRecovery && (
          <Anchor component="button" type="button" size="sm" onClick={() => choose('recovery')}>
            {m.secondFactorUseRecoveryCode()}
          </Anchor>
        )}
        {mode !== 'totp' && hasTotp && (
          <Anchor component="button" type="button" size="sm" onClick={() => choose('totp')}>
            {m.secondFactorUseAuthenticator()}
          </Anchor>
        )}
        {mode === 'recovery' && !hasTotp && hasPasskey && (
          <Anchor component="button" type="button" size="sm" onClick={() => choose('passkey')}>
            {m.secondFactorUsePasskeyInstead()}
          </Anchor>
        )}
        <Anchor component="button" type="button" size="sm" onClick={() => onRestart()}>
          {m.commonBackToSignIn()}
        </Anchor>
      </Stack>
    </Stack>
  );
}
