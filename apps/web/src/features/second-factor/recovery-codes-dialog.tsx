import { Modal } from '@mantine/core';
import { m } from '@bmet/shared/paraglide/messages';
import { RecoveryCodes } from '../../components/recovery-codes';

/** Recovery codes just issued, shown once; a click outside does not lose them. */
export function RecoveryCodesDialog({ codes, onClose }: { codes: string[] | null; onClose: () => void }) {
  return (
    <Modal
      opened={codes !== null}
      onClose={onClose}
      title={m.recoveryCodesTitle()}
      closeOnClickOutside={false}
    >
      {codes && <RecoveryCodes codes={codes} onSaved={onClose} />}
    </Modal>
  );
}
