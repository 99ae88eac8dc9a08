import { Anchor, Modal, Stack, Text } from '@mantine/core';
import { m } from '@bmet/shared/paraglide/messages';

export type HelpTopic = 'help' | 'contact';

/** The Help and Contact Us dialogs of the header, loaded when one is first opened. */
export function HelpDialog({ open, onClose }: { open: HelpTopic | null; onClose: () => void }) {
  return (
    <>
      <Modal
        opened={open === 'help'}
        onClose={onClose}
        title={m.help()}
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        <Stack gap="xs">
          <Text size="sm">
            Use the navigation bar to reach the screens your role can use: drivers and trips for everyone;
            franchises for city dealers; accounts, customers, rates and passwords for admins.
          </Text>
          <Text size="sm">Your session lasts a few hours; when it ends you are asked to sign in again.</Text>
        </Stack>
      </Modal>
      <Modal
        opened={open === 'contact'}
        onClose={onClose}
        title={m.contactUs()}
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        <Text size="sm">
          Write to <Anchor href="mailto:support@bookmyetaxi.in">support@bookmyetaxi.in</Anchor> and the
          operations team will answer on the next working day.
        </Text>
      </Modal>
    </>
  );
}
