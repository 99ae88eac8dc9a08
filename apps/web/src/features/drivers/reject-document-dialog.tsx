import { Button, Group, Modal, Stack, Textarea } from '@mantine/core';
import { useState } from 'react';
import { documentLabel } from '@bmet/shared/labels';
import { m } from '@bmet/shared/paraglide/messages';
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
          showNotification({
            color: 'teal',
            message: m.driversDocumentRejected({ document: documentLabel(document.key) }),
          });
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
      title={m.driversRejectTitle({ document: document ? documentLabel(document.key) : '' })}
      closeButtonProps={{ 'aria-label': m.close() }}
    >
      <Stack>
        <Textarea
          label={m.driversReason()}
          description={m.driversReasonDescription()}
          value={reason}
          onChange={(event) => setReason(event.currentTarget.value)}
          error={review.error?.message}
          autosize
          minRows={2}
          data-autofocus
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {m.driversCancel()}
          </Button>
          <Button color="red" onClick={submit} loading={review.isPending}>
            {m.driversRejectDocument()}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** The ten documents with their images and a review stored on the server. */
