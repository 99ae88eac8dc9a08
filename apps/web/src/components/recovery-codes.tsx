import { Alert, Button, Code, CopyButton, Group, SimpleGrid, Stack } from '@mantine/core';
import { IconCheck, IconCopy, IconDownload } from '@tabler/icons-react';
import { m } from '@bmet/shared/paraglide/messages';

/** Saves the codes as a text file through the browser's download. */
function download(codes: string[]) {
  const text = `${m.recoveryCodesFileTitle()}\n\n${codes.join('\n')}\n`;
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = 'book-my-etaxi-recovery-codes.txt';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * Recovery codes, shown once when they are issued: to copy or download before going on. The
 * server keeps only their hashes, so nothing can show them again.
 */
export function RecoveryCodes({
  codes,
  onSaved,
  savedLabel = m.recoveryCodesSaved(),
}: {
  codes: string[];
  onSaved: () => void;
  savedLabel?: string;
}) {
  return (
    <Stack gap="sm">
      <Alert color="yellow">{m.recoveryCodesIntro()}</Alert>
      <SimpleGrid cols={2} spacing="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
        {codes.map((code) => (
          <li key={code}>
            <Code fz="md" ff="monospace" style={{ display: 'block', textAlign: 'center' }}>
              {code}
            </Code>
          </li>
        ))}
      </SimpleGrid>
      <Group gap="xs" grow preventGrowOverflow={false} wrap="wrap">
        <CopyButton value={codes.join('\n')}>
          {({ copied, copy }) => (
            <Button
              variant="default"
              onClick={copy}
              leftSection={copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />}
            >
              {copied ? m.secondFactorCopied() : m.recoveryCodesCopy()}
            </Button>
          )}
        </CopyButton>
        <Button
          variant="default"
          onClick={() => download(codes)}
          leftSection={<IconDownload size={16} aria-hidden />}
        >
          {m.recoveryCodesDownload()}
        </Button>
      </Group>
      <Button onClick={onSaved} fullWidth>
        {savedLabel}
      </Button>
    </Stack>
  );
}
