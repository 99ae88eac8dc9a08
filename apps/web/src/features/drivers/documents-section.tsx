import { Badge, Button, FileButton, Group, Loader, Stack, Text, UnstyledButton } from '@mantine/core';
import { showNotification } from '../../lib/notify';
import { lazy, useState } from 'react';
import { OnDemand } from '../../components/on-demand';
import { Cell, ListTable, listTableClasses } from '../../components/list-table';
import type { DocumentKey, DocumentStatus } from '@bmet/shared/constants';
import { can } from '@bmet/shared/permissions';
import {
  DOCUMENT_IMAGE_MAX_BYTES,
  DOCUMENT_IMAGE_TYPES,
  } from '@bmet/shared/constants';
import type { DriverDocument } from '@bmet/shared/schemas/driver';
import { formatDateTime } from '../../lib/format';
import { useSession } from '../../lib/session-context';
import { useDocumentImage, useDocuments, useReviewDocument, useUploadDocument } from './api';
import { ImageZoom } from './image-zoom';
import { documentStatusLabel } from '@bmet/shared/labels';

const RejectDialog = lazy(() =>
  import('./reject-document-dialog').then((m) => ({ default: m.RejectDialog })),
);

const STATUS_COLORS: Record<DocumentStatus, string> = {
  not_submitted: 'gray',
  submitted: 'yellow',
  approved: 'teal',
  rejected: 'red',
};

function Thumbnail({ driverId, document }: { driverId: string; document: DriverDocument }) {
  const image = useDocumentImage(driverId, document.key, document.hasImage ? document.uploadedAt : null);
  const [zoomed, setZoomed] = useState(false);
  if (!document.hasImage)
    return (
      <Text size="sm" c="dimmed">
        No image
      </Text>
    );
  if (image.isPending) return <Loader size="xs" aria-label={`Loading ${document.label} image`} />;
  if (image.isError || !image.data)
    return (
      <Text size="sm" c="red">
        Image unavailable
      </Text>
    );
  return (
    <>
      <UnstyledButton onClick={() => setZoomed(true)} aria-label={`Enlarge ${document.label} image`}>
        <img
          src={image.data}
          alt={document.label}
          width={72}
          height={45}
          style={{ objectFit: 'cover', borderRadius: 4, display: 'block' }}
        />
      </UnstyledButton>
      {zoomed && <ImageZoom src={image.data} label={document.label} onClose={() => setZoomed(false)} />}
    </>
  );
}

function StatusCell({ document }: { document: DriverDocument }) {
  return (
    <Stack gap={2}>
      <Badge color={STATUS_COLORS[document.status]} variant="light">
        {documentStatusLabel(document.status)}
      </Badge>
      {document.reviewedBy && document.reviewedAt && (
        <Text size="xs" c="dimmed">
          by {document.reviewedBy.name}, {formatDateTime(document.reviewedAt)}
        </Text>
      )}
      {document.status === 'submitted' && document.uploadedAt && (
        <Text size="xs" c="dimmed">
          uploaded {formatDateTime(document.uploadedAt)}, awaiting review
        </Text>
      )}
      {document.rejectionReason && (
        <Text size="xs" c="red">
          Reason: {document.rejectionReason}
        </Text>
      )}
    </Stack>
  );
}

function DocumentActions({
  driverId,
  document,
  onReject,
}: {
  driverId: string;
  document: DriverDocument;
  onReject: (key: DocumentKey) => void;
}) {
  const { session } = useSession();
  const upload = useUploadDocument(driverId);
  const review = useReviewDocument(driverId);
  const mayReview = session && can(session.role, 'review', 'drivers');

  const onFile = (file: File | null) => {
    if (!file) return;
    if (!DOCUMENT_IMAGE_TYPES.includes(file.type as (typeof DOCUMENT_IMAGE_TYPES)[number])) {
      showNotification({ color: 'red', message: 'Choose a JPEG or PNG image.' });
      return;
    }
    if (file.size > DOCUMENT_IMAGE_MAX_BYTES) {
      showNotification({ color: 'red', message: 'The image is larger than 5 MB.' });
      return;
    }
    upload.mutate(
      { key: document.key, file },
      {
        onSuccess: () => showNotification({ color: 'teal', message: `${document.label} uploaded.` }),
        onError: (error) => showNotification({ color: 'red', message: error.message }),
      },
    );
  };

  return (
    <Group gap="xs" wrap="nowrap">
      {mayReview && document.hasImage && document.status !== 'approved' && (
        <Button
          size="xs"
          color="teal"
          variant="light"
          loading={review.isPending}
          onClick={() =>
            review.mutate(
              { key: document.key, decision: { status: 'approved' } },
              {
                onSuccess: () => showNotification({ color: 'teal', message: `${document.label} approved.` }),
                onError: (error) => showNotification({ color: 'red', message: error.message }),
              },
            )
          }
        >
          Approve
        </Button>
      )}
      {mayReview && document.hasImage && document.status !== 'rejected' && (
        <Button size="xs" color="red" variant="light" onClick={() => onReject(document.key)}>
          Reject
        </Button>
      )}
      <FileButton onChange={onFile} accept={DOCUMENT_IMAGE_TYPES.join(',')}>
        {(props) => (
          <Button
            {...props}
            size="xs"
            variant="default"
            loading={upload.isPending}
            aria-label={`${document.hasImage ? 'Replace' : 'Upload'} ${document.label}`}
          >
            {document.hasImage ? 'Replace' : 'Upload'}
          </Button>
        )}
      </FileButton>
    </Group>
  );
}

export function DocumentsSection({ driverId }: { driverId: string }) {
  const documents = useDocuments(driverId);
  const [rejecting, setRejecting] = useState<DocumentKey | null>(null);
  if (documents.isPending) return <Loader aria-label="Loading documents" />;
  if (documents.isError) return <Text c="red">{documents.error.message}</Text>;
  return (
    <>
      <ListTable label="Documents" columns={['Document', 'Image', 'Status', 'Actions']}>
        {documents.data.map((document) => (
          <tr key={document.key} role="row">
            <Cell label="">
              <span className={listTableClasses.title}>{document.label}</span>
            </Cell>
            <Cell label="Image">
              <Thumbnail driverId={driverId} document={document} />
            </Cell>
            <Cell label="Status">
              <StatusCell document={document} />
            </Cell>
            <Cell label="">
              <DocumentActions driverId={driverId} document={document} onReject={setRejecting} />
            </Cell>
          </tr>
        ))}
      </ListTable>
      <OnDemand open={rejecting !== null}>
        <RejectDialog
          driverId={driverId}
          document={documents.data.find((d) => d.key === rejecting) ?? null}
          onClose={() => setRejecting(null)}
        />
      </OnDemand>
    </>
  );
}
