import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { documentLabel } from '@bmet/shared/labels';
import { m } from '@bmet/shared/paraglide/messages';
import type { DriverDocument } from '@bmet/shared/schemas/driver';
import { DateField } from '../../components/date-field';
import { showNotification } from '../../lib/notify';
import { useReviewDocument } from './api';

/**
 * Approves a document that expires with its expiry date, or corrects the date of one already
 * approved (its code loads with the first use). The server refuses a date that is not real or
 * has passed, and the message shows under the field.
 */
export function ExpiryDialog({
  driverId,
  document,
  onClose,
}: {
  driverId: string;
  document: DriverDocument | null;
  onClose: () => void;
}) {
  const review = useReviewDocument(driverId);
  const [expiresOn, setExpiresOn] = useState(document?.expiresOn ?? '');
  const label = document ? documentLabel(document.key) : '';
  const correcting = document?.status === 'approved';
  const submit = () => {
    if (!document) return;
    review.mutate(
      { key: document.key, decision: { status: 'approved', ...(expiresOn ? { expiresOn } : {}) } },
      {
        onSuccess: () => {
          showNotification({
            color: 'teal',
            message: correcting
              ? m.documentExpirySaved({ document: label })
              : m.driversDocumentApproved({ document: label }),
          });
          onClose();
        },
      },
    );
  };
  return (
    <Modal
      opened={document !== null}
      onClose={onClose}
      title={
        correcting
          ? m.documentExpiryTitleCorrect({ document: label })
          : m.documentExpiryTitleApprove({ document: label })
      }
      closeButtonProps={{ 'aria-label': m.close() }}
    >
      <Stack>
        <DateField
          label={m.documentExpiryLabel()}
          description={m.documentExpiryHelp()}
          value={expiresOn}
          onChange={setExpiresOn}
          data-autofocus
        />
        {review.error && (
          <Text size="sm" c="red" role="alert">
            {review.error.message}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {m.driversCancel()}
          </Button>
          <Button color="teal" onClick={submit} loading={review.isPending}>
            {correcting ? m.documentSaveExpiry() : m.driversApprove()}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
