import { Anchor, Button, FileButton, Group, Stack, Text } from '@mantine/core';
import { IconPaperclip } from '@tabler/icons-react';
import { m } from '@bmet/shared/paraglide/messages';
import { GRIEVANCE_ATTACHMENT_TYPES, GRIEVANCE_ATTACHMENTS_MAX } from '@bmet/shared/grievance-rules';
import type { GrievanceAttachment } from '@bmet/shared/schemas/grievance';
import { formatDateTime } from '../../lib/format';
import { showNotification } from '../../lib/notify';
import { useAttachmentDownload, useUploadAttachment } from './api';

/** A file's size as staff read it: 840 KB, 2.4 MB. */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * The files the complainant sent (images, PDFs): each opened or saved through the API with the
 * bearer token, and a button to attach another (checked on the server as document images are).
 */
export function GrievanceAttachments({
  grievanceId,
  attachments,
}: {
  grievanceId: string;
  attachments: GrievanceAttachment[];
}) {
  const upload = useUploadAttachment(grievanceId);
  const open = useAttachmentDownload(grievanceId);
  const attach = (file: File | null) => {
    if (!file) return;
    upload.mutate(file, {
      onSuccess: (added) =>
        showNotification({ color: 'green', message: m.grievanceAttachmentAdded({ name: added.fileName }) }),
      onError: (error) => showNotification({ color: 'red', message: error.message }),
    });
  };
  const full = attachments.length >= GRIEVANCE_ATTACHMENTS_MAX;
  return (
    <Stack gap="xs">
      {attachments.length === 0 ? (
        <Text size="sm" c="dimmed">
          {m.grievanceAttachmentsNone()}
        </Text>
      ) : (
        <Stack gap={4} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {attachments.map((file) => (
            <li key={file.id}>
              <Anchor
                component="button"
                type="button"
                size="sm"
                onClick={() => open(file)}
                style={{ overflowWrap: 'anywhere' }}
              >
                {file.fileName}
              </Anchor>
              <Text span size="xs" c="dimmed">
                {' '}
                {m.grievanceAttachmentMeta({
                  size: formatFileSize(file.size),
                  by: file.uploadedByName ?? '—',
                  at: formatDateTime(file.uploadedAt),
                })}
              </Text>
            </li>
          ))}
        </Stack>
      )}
      <Group data-print="hide">
        <FileButton
          onChange={attach}
          accept={GRIEVANCE_ATTACHMENT_TYPES.join(',')}
          disabled={full || upload.isPending}
        >
          {(props) => (
            <Button
              {...props}
              disabled={full}
              variant="default"
              size="xs"
              loading={upload.isPending}
              leftSection={<IconPaperclip size={14} aria-hidden />}
            >
              {m.grievanceAttachmentAdd()}
            </Button>
          )}
        </FileButton>
        <Text size="xs" c="dimmed">
          {full
            ? m.grievanceAttachmentsFull({ max: GRIEVANCE_ATTACHMENTS_MAX })
            : m.grievanceAttachmentHint()}
        </Text>
      </Group>
    </Stack>
  );
}
