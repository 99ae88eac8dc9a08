import { Button, Text } from '@mantine/core';
import { useState } from 'react';
import { m } from '@bmet/shared/paraglide/messages';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { formatCount } from '../../lib/format';
import { showNotification } from '../../lib/notify';
import { useNewRecoveryCodes } from './api';
import { Section } from './section';

/** How many recovery codes are left, and ten new ones in place of the old. */
export function RecoveryCodesSection({
  enrolled,
  left,
  onCodes,
}: {
  enrolled: boolean;
  left: number;
  onCodes: (codes: string[]) => void;
}) {
  const issue = useNewRecoveryCodes();
  const [confirming, setConfirming] = useState(false);

  return (
    <Section title={m.recoveryCodesSection()}>
      {enrolled ? (
        <>
          <Text size="sm" fw={600}>
            {m.recoveryCodesLeft({ count: formatCount(left) })}
          </Text>
          <Text size="sm">{m.recoveryCodesWhat()}</Text>
          <Button variant="default" onClick={() => setConfirming(true)} style={{ alignSelf: 'flex-start' }}>
            {m.recoveryCodesNew()}
          </Button>
        </>
      ) : (
        <Text size="sm" c="dimmed">
          {m.recoveryCodesNone()}
        </Text>
      )}
      <ConfirmDialog
        opened={confirming}
        title={m.recoveryCodesNewTitle()}
        confirmLabel={m.recoveryCodesNew()}
        loading={issue.isPending}
        onClose={() => setConfirming(false)}
        onConfirm={() =>
          issue.mutate(undefined, {
            onSuccess: onCodes,
            onError: (error) => showNotification({ color: 'red', message: error.message }),
            onSettled: () => setConfirming(false),
          })
        }
      >
        {m.recoveryCodesNewText()}
      </ConfirmDialog>
    </Section>
  );
}
