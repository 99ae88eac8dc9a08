import { Button, Center, Code, Stack, Text, Title } from '@mantine/core';
import { m } from '@bmet/shared/paraglide/messages';

/** The router's error page, with the spec's text. */
export function ErrorPage({ error }: { error: unknown }) {
  const detail = error instanceof Error ? error.message : null;
  return (
    <Center mih="100dvh" p="md">
      <Stack align="center" gap="sm" maw={560} w="100%" ta="center">
        <Title order={1} size="h2">
          {m.unexpectedError()}
        </Title>
        <Text c="dimmed">{m.appErrorDetail()}</Text>
        {/* A long detail (a script's address) wraps rather than widening the page past a phone. */}
        {detail && (
          <Code block w="100%" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {detail}
          </Code>
        )}
        <Button onClick={() => window.location.assign('/welcome')}>{m.appGoToWelcome()}</Button>
      </Stack>
    </Center>
  );
}
