import { Button, Group, Modal, Stack, Textarea } from '@mantine/core';
import { useState } from 'react';
import type { DriverDocument } from '@bmet/shared/schemas/driver';
import { showNotification } from '../../lib/notify';
import { useReviewDocument } from './api';

/** Asks for the reason of a rejection (its code loads with the first rejection). */
export function RejectDialog({
  driverId,
  document,
  onClose,
}: {
  driverId: string;
  document: DriverDocument | null;
  onClose: () => void;
}) {
  const review = useReviewDocument(driverId);
  const [reason, setReason] = useState('');
  const submit = () => {
    if (!document) return;
    review.mutate(
      { key: document.key, decision: { status: 'rejected', reason } },
      {
        onSuccess: () => {
          showNotification({ color: 'teal', message: `${document.label} rejected.` });
          setReason('');
          onClose();
        },
      },
    );
  };
  return (
    <Modal
      opened={document !== null}
      onClose={onClose}
      title={`Reject ${document?.label ?? ''}`}
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <Stack>
        <Textarea
          label="Reason"
          description="The driver sees this reason and uploads a new image."
          value={reason}
          onChange={(event) => setReason(event.currentTarget.value)}
          error={review.error?.message}
          autosize
          minRows={2}
          data-autofocus
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button color="red" onClick={submit} loading={review.isPending}>
            Reject document
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** The ten documents with their images and a review stored on the server. */
