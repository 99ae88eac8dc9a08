import { Alert, Box, Button, Code, CopyButton, Group, Stack, Text, TextInput } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { m } from '@bmet/shared/paraglide/messages';
import { ApiError } from '../lib/api-client';
import { cleanCode, confirmTotpEnrolment, isTotpCode, type EnrolmentDone } from '../lib/second-factor';

const QR_SIZE = 176;

/** The otpauth:// address as a QR code image (a data: address, which the CSP's img-src allows). */
function QrCode({ uri }: { uri: string }) {
  const [source, setSource] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    // The QR code's library loads with the first setup, never with a screen.
    void import('qrcode')
      .then((qrcode) => qrcode.toDataURL(uri, { margin: 1, width: QR_SIZE * 2, errorCorrectionLevel: 'M' }))
      .then((url) => current && setSource(url))
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [uri]);
  // Dark on white in both colour schemes: scanners read it best that way.
  return (
    <Box bg="white" p={6} w={QR_SIZE + 12} h={QR_SIZE + 12} style={{ borderRadius: 8, flex: 'none' }}>
      {source && <img src={source} alt={m.totpSetupQrAlt()} width={QR_SIZE} height={QR_SIZE} />}
    </Box>
  );
}

/** The secret in groups of four, as people type it. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret;

/**
 * Setting up an authenticator app after its secret was issued: the QR code and the key to type,
 * then the first code, which turns it on. During a sign-in that must enrol, `challenge` names it.
 */
export function TotpSetup({
  enrolment,
  challenge,
  remember,
  onDone,
  onError,
  onCancel,
  beforeActions,
}: {
  enrolment: { secret: string; uri: string };
  challenge?: string;
  remember?: boolean;
  onDone: (done: EnrolmentDone) => void;
  /** Failures the caller handles itself (a sign-in that expired); true when it did. */
  onError?: (error: ApiError) => boolean;
  onCancel?: () => void;
  /** Shown above the buttons (a sign-in's "Remember this browser"). */
  beforeActions?: ReactNode;
}) {
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!isTotpCode(code)) {
      setCodeError(m.secondFactorEnterCode());
      return;
    }
    setPending(true);
    setProblem(null);
    confirmTotpEnrolment({ code: cleanCode(code), challenge, remember: remember ?? false })
      .then(onDone, (error: unknown) => {
        const failure = error instanceof ApiError ? error : null;
        if (failure && onError?.(failure)) return;
        const fieldError = failure?.body.fieldErrors?.code?.[0];
        if (fieldError) setCodeError(fieldError);
        else setProblem(failure?.message ?? m.internal());
        setCode('');
      })
      .finally(() => setPending(false));
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Text size="sm">{m.totpSetupScan()}</Text>
        <Group align="flex-start" gap="md" wrap="wrap">
          <QrCode uri={enrolment.uri} />
          <Stack gap={6} style={{ flex: '1 1 12rem', minWidth: 0 }}>
            <Text size="sm" c="dimmed">
              {m.totpSetupKeyLabel()}
            </Text>
            <Code
              fz="sm"
              ff="monospace"
              data-testid="totp-secret"
              style={{ wordBreak: 'break-word', whiteSpace: 'normal' }}
            >
              {grouped(enrolment.secret)}
            </Code>
            <CopyButton value={enrolment.secret}>
              {({ copied, copy }) => (
                <Button
                  variant="default"
                  size="xs"
                  onClick={copy}
                  style={{ alignSelf: 'flex-start' }}
                  leftSection={
                    copied ? <IconCheck size={14} aria-hidden /> : <IconCopy size={14} aria-hidden />
                  }
                >
                  {copied ? m.secondFactorCopied() : m.totpSetupCopyKey()}
                </Button>
              )}
            </CopyButton>
          </Stack>
        </Group>
        {problem && (
          <Alert color="red" role="alert">
            {problem}
          </Alert>
        )}
        <TextInput
          label={m.secondFactorCodeLabel()}
          description={m.secondFactorCodeHint()}
          value={code}
          onChange={(e) => {
            setCode(e.currentTarget.value);
            setCodeError(null);
          }}
          error={codeError}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={9}
          styles={{ input: { fontFamily: 'monospace', letterSpacing: '0.2em' } }}
        />
        {beforeActions}
        <Group justify="flex-end" gap="xs">
          {onCancel && (
            <Button variant="default" onClick={onCancel}>
              {m.commonCancel()}
            </Button>
          )}
          <Button type="submit" loading={pending}>
            {m.totpSetupTurnOn()}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
