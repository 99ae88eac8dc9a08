import { Anchor, Modal, Stack, Text } from '@mantine/core';
import { m } from '@bmet/shared/paraglide/messages';

export type HelpTopic = 'help' | 'contact';

// Stands for the address in the Contact Us text, which then falls in two around the link.
const EMAIL_MARK = '\u0000';

/** The Help and Contact Us dialogs of the header, loaded when one is first opened. */
export function HelpDialog({ open, onClose }: { open: HelpTopic | null; onClose: () => void }) {
  const [beforeEmail, afterEmail] = m.appContactText({ email: EMAIL_MARK }).split(EMAIL_MARK);
  return (
    <>
      <Modal
        opened={open === 'help'}
        onClose={onClose}
        title={m.help()}
        closeButtonProps={{ 'aria-label': m.close() }}
      >
        <Stack gap="xs">
          <Text size="sm">{m.appHelpNavigation()}</Text>
          <Text size="sm">{m.appHelpSession()}</Text>
        </Stack>
      </Modal>
      <Modal
        opened={open === 'contact'}
        onClose={onClose}
        title={m.contactUs()}
        closeButtonProps={{ 'aria-label': m.close() }}
      >
        <Text size="sm">
          {beforeEmail}
          <Anchor href="mailto:support@bookmyetaxi.in">support@bookmyetaxi.in</Anchor>
          {afterEmail}
        </Text>
      </Modal>
    </>
  );
}
