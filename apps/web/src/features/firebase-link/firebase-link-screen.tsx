import { Alert, Code, SimpleGrid, Stack, Text } from '@mantine/core';
import { m } from '@bmet/shared/paraglide/messages';
import { ErrorAlert } from '../../components/error-alert';
import { Page } from '../../components/page';
import { useFirebaseLinkStatus } from './api';
import {
  ActivityFigures,
  AppliedSection,
  ConnectionSection,
  ErrorsSection,
  OutboxSection,
} from './link-status';
import { RereadSection } from './reread-control';
import { Spinner } from '../../components/spinner';

/** The setting that turns the link on: a name to type, the same in every language. */
const SETTING = 'FIREBASE_DATABASE_URL';
// Stands for the setting's name in the explanation, which then falls in two around it.
const SETTING_MARK = '\u0000';

/** The link is off: what that means, and how to turn it on. */
function NotConfigured() {
  const [before, after] = m.firebaseLinkOffHow({ setting: SETTING_MARK }).split(SETTING_MARK);
  return (
    <Alert color="gray" title={m.firebaseLinkOffTitle()} data-testid="firebase-link-off">
      <Stack gap="xs">
        <Text size="sm">{m.firebaseLinkOffText()}</Text>
        <Text size="sm">
          {before}
          <Code>{SETTING}</Code>
          {after}
        </Text>
      </Stack>
    </Alert>
  );
}

/**
 * `/firebase-link` (admins): the link that follows the apps' Firebase database. Whether it is
 * connected, what it applies, the changes waiting to go back to Firebase, its last errors, and a
 * re-read of one kind of record on request; loaded again every 5 s while the screen is open.
 */
export function FirebaseLinkScreen() {
  const status = useFirebaseLinkStatus();
  return (
    <Page title={m.firebaseLinkTitle()}>
      <Text c="dimmed" size="sm">
        {m.firebaseLinkIntro()}
      </Text>
      {status.isPending ? (
        <Spinner label={m.firebaseLinkLoading()} size="sm" />
      ) : status.isError && status.data === undefined ? (
        <ErrorAlert error={status.error} />
      ) : status.data === null ? (
        <NotConfigured />
      ) : (
        <>
          {/* A failed refresh leaves the last figures shown, and says so. */}
          {status.isError && <ErrorAlert error={status.error} />}
          <ConnectionSection status={status.data} />
          <ActivityFigures status={status.data} />
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md" style={{ alignItems: 'start' }}>
            <AppliedSection applied={status.data.applied} />
            <OutboxSection status={status.data} />
            <RereadSection status={status.data} />
            <ErrorsSection errors={status.data.lastErrors} />
          </SimpleGrid>
        </>
      )}
    </Page>
  );
}
