import { Alert, Button, Group, Text } from '@mantine/core';
import { IconDeviceMobile } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { m } from '@bmet/shared/paraglide/messages';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { showNotification } from '../../lib/notify';
import { startTotpEnrolment, type EnrolmentDone } from '../../lib/second-factor';
import { useReloadSecondFactor, useRemoveTotp } from './api';
import { Section } from './section';

// Its code comes with the first setup, which waits for the server's secret anyway.
const TotpSetup = lazy(() =>
  import('../../components/totp-setup').then((module) => ({ default: module.TotpSetup })),
);

/** The authenticator app: set up (again, for a new phone) or removed. */
export function AuthenticatorSection({
  on,
  onCodes,
}: {
  on: boolean;
  /** The recovery codes that came with the account's first method, to show once. */
  onCodes: (codes: string[]) => void;
}) {
  const reload = useReloadSecondFactor();
  const remove = useRemoveTotp();
  const [enrolment, setEnrolment] = useState<{ secret: string; uri: string } | null>(null);
  const [starting, setStarting] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);

  const start = () => {
    setStarting(true);
    setProblem(null);
    startTotpEnrolment()
      .then(setEnrolment, (error: Error) => setProblem(error.message))
      .finally(() => setStarting(false));
  };

  const done = (answer: EnrolmentDone) => {
    setEnrolment(null);
    void reload();
    // The first method's recovery codes say it is on themselves; a notification would cover them.
    if (answer.recoveryCodes?.length) onCodes(answer.recoveryCodes);
    else showNotification({ color: 'teal', message: m.totpTurnedOn() });
  };

  return (
    <Section title={m.secondFactorAuthenticatorApp()} on={on}>
      {enrolment ? (
        <Suspense fallback={null}>
          <TotpSetup enrolment={enrolment} onDone={done} onCancel={() => setEnrolment(null)} />
        </Suspense>
      ) : (
        <>
          <Text size="sm">{on ? m.totpOnText() : m.totpOffText()}</Text>
          {problem && (
            <Alert color="red" role="alert">
              {problem}
            </Alert>
          )}
          <Group gap="xs">
            <Button
              variant={on ? 'default' : 'filled'}
              onClick={start}
              loading={starting}
              leftSection={<IconDeviceMobile size={16} aria-hidden />}
            >
              {on ? m.totpSetUpAgain() : m.secondFactorSetUpAuthenticator()}
            </Button>
            {on && (
              <Button variant="light" color="red" onClick={() => setConfirming(true)}>
                {m.secondFactorRemove()}
              </Button>
            )}
          </Group>
        </>
      )}
      <ConfirmDialog
        opened={confirming}
        title={m.totpRemoveTitle()}
        confirmLabel={m.secondFactorRemove()}
        loading={remove.isPending}
        onClose={() => setConfirming(false)}
        onConfirm={() =>
          remove.mutate(undefined, {
            onSuccess: () => showNotification({ color: 'teal', message: m.totpRemoved() }),
            onError: (error) => showNotification({ color: 'red', message: error.message }),
            onSettled: () => setConfirming(false),
          })
        }
      >
        {m.totpRemoveText()}
      </ConfirmDialog>
    </Section>
  );
}
