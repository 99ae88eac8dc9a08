import { Alert, Stack, Text } from '@mantine/core';
import { lazy, useState } from 'react';
import { m } from '@bmet/shared/paraglide/messages';
import { ErrorAlert } from '../../components/error-alert';
import { OnDemand } from '../../components/on-demand';
import { Page } from '../../components/page';
import { useSecondFactorStatus } from './api';
import { AuthenticatorSection } from './authenticator-section';
import { PasskeysSection } from './passkeys-section';
import { RecoveryCodesSection } from './recovery-codes-section';

const RecoveryCodesDialog = lazy(() =>
  import('./recovery-codes-dialog').then((module) => ({ default: module.RecoveryCodesDialog })),
);

/**
 * The signed-in user's second factor: an authenticator app, passkeys, and the recovery codes that
 * stand in for both. Every role has it (the profile screen, admins only, links here).
 */
export function SecondFactorScreen() {
  const status = useSecondFactorStatus();
  // Recovery codes just issued, shown once.
  const [codes, setCodes] = useState<string[] | null>(null);

  return (
    <Page title={m.secondFactorTitle()}>
      <Stack gap="md" maw={640} w="100%">
        <Text size="sm">{m.secondFactorScreenIntro()}</Text>
        {status.isError && <ErrorAlert error={status.error} />}
        {status.isPending && <Text role="status">{m.loading()}</Text>}
        {status.data && (
          <>
            {status.data.required && <Alert color="blue">{m.secondFactorRequiredNote()}</Alert>}
            <AuthenticatorSection on={status.data.totp} onCodes={setCodes} />
            <PasskeysSection passkeys={status.data.passkeys} onCodes={setCodes} />
            <RecoveryCodesSection
              enrolled={status.data.totp || status.data.passkeys.length > 0}
              left={status.data.recoveryCodesLeft}
              onCodes={setCodes}
            />
          </>
        )}
      </Stack>
      <OnDemand open={codes !== null}>
        <RecoveryCodesDialog codes={codes} onClose={() => setCodes(null)} />
      </OnDemand>
    </Page>
  );
}
