import { Badge, Button, FileButton, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import { showNotification } from '../../lib/notify';
import { lazy, useDeferredValue, useState } from 'react';
import { OnDemand } from '../../components/on-demand';
import { Cell, ListTable, listTableClasses } from '../../components/list-table';
import type { DocumentKey } from '@bmet/shared/constants';
import { DOCUMENT_STATUS_COLORS } from '../../lib/document-status';
import { can } from '@bmet/shared/permissions';
import { DOCUMENT_IMAGE_MAX_BYTES, DOCUMENT_IMAGE_TYPES } from '@bmet/shared/constants';
import type { DriverDocument } from '@bmet/shared/schemas/driver';
import { formatCalendarDate, formatDateTime, INDIA_TIME_ZONE } from '../../lib/format';
import { useSession } from '../../lib/session-context';
import { useDocumentImage, useDocuments, useReviewDocument, useUploadDocument } from './api';
import { ImageZoom } from './image-zoom';
import { DocumentViewsButton } from './document-views-button';
import { documentLabel, documentStatusLabel } from '@bmet/shared/labels';
import { m } from '@bmet/shared/paraglide/messages';
import { Spinner } from '../../components/spinner';

const RejectDialog = lazy(() =>
  import('./reject-document-dialog').then((m) => ({ default: m.RejectDialog })),
);
const ExpiryDialog = lazy(() => import('./expiry-dialog').then((m) => ({ default: m.ExpiryDialog })));

/** Days from today in India to a YYYY-MM-DD date (negative once it has passed). */
function daysUntil(date: string): number {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: INDIA_TIME_ZONE }).format(new Date());
  return Math.round((Date.parse(date) - Date.parse(today)) / 86_400_000);
}

/** A document's expiry: red once passed, orange within 30 days. */
function ExpiryLine({ expiresOn }: { expiresOn: string }) {
  const days = daysUntil(expiresOn);
  const date = formatCalendarDate(expiresOn);
  return (
    <Text size="xs" c={days < 0 ? 'red' : days <= 30 ? 'orange' : 'dimmed'} fw={days <= 30 ? 600 : undefined}>
      {days < 0 ? m.complianceExpiredOn({ date }) : m.documentExpiresOnDate({ date })}
    </Text>
  );
}

function Thumbnail({ driverId, document }: { driverId: string; document: DriverDocument }) {
  const image = useDocumentImage(driverId, document.key, document.hasImage ? document.uploadedAt : null);
  const [zoomed, setZoomed] = useState(false);
  const label = documentLabel(document.key);
  if (!document.hasImage)
    return (
      <Text size="sm" c="dimmed">
        {m.driversNoImage()}
      </Text>
    );
  if (image.isPending) return <Spinner label={m.driversLoadingImage({ document: label })} size="xs" />;
  if (image.isError || !image.data)
    return (
      <Text size="sm" c="red">
        {m.driversImageUnavailable()}
      </Text>
    );
  return (
    <>
      <UnstyledButton onClick={() => setZoomed(true)} aria-label={m.driversEnlargeImage({ document: label })}>
        <img
          src={image.data}
          alt={label}
          width={72}
          height={45}
          style={{ objectFit: 'cover', borderRadius: 4, display: 'block' }}
        />
      </UnstyledButton>
      {zoomed && <ImageZoom src={image.data} label={label} onClose={() => setZoomed(false)} />}
    </>
  );
}

function StatusCell({ document }: { document: DriverDocument }) {
  return (
    <Stack gap={2}>
      <Badge color={DOCUMENT_STATUS_COLORS[document.status]} variant="light">
        {documentStatusLabel(document.status)}
      </Badge>
      {document.reviewedBy && document.reviewedAt && (
        <Text size="xs" c="dimmed">
          {m.driversReviewedBy({ name: document.reviewedBy.name, date: formatDateTime(document.reviewedAt) })}
        </Text>
      )}
      {document.status === 'submitted' && document.uploadedAt && (
        <Text size="xs" c="dimmed">
          {m.driversUploadedAwaitingReview({ date: formatDateTime(document.uploadedAt) })}
        </Text>
      )}
      {document.expires && document.expiresOn && <ExpiryLine expiresOn={document.expiresOn} />}
      {document.rejectionReason && (
        <Text size="xs" c="red">
          {m.driversRejectionReason({ reason: document.rejectionReason })}
        </Text>
      )}
    </Stack>
  );
}

function DocumentActions({
  driverId,
  document,
  onReject,
  onExpiry,
}: {
  driverId: string;
  document: DriverDocument;
  onReject: (key: DocumentKey) => void;
  onExpiry: (key: DocumentKey) => void;
}) {
  const { session } = useSession();
  const upload = useUploadDocument(driverId);
  const review = useReviewDocument(driverId);
  const mayReview = session && can(session.role, ['drivers', 'review']);
  const label = documentLabel(document.key);

  const onFile = (file: File | null) => {
    if (!file) return;
    if (!DOCUMENT_IMAGE_TYPES.includes(file.type as (typeof DOCUMENT_IMAGE_TYPES)[number])) {
      showNotification({ color: 'red', message: m.driversChooseImageType() });
      return;
    }
    if (file.size > DOCUMENT_IMAGE_MAX_BYTES) {
      showNotification({ color: 'red', message: m.driversImageOver5Mb() });
      return;
    }
    upload.mutate(
      { key: document.key, file },
      {
        onSuccess: () =>
          showNotification({ color: 'teal', message: m.driversDocumentUploaded({ document: label }) }),
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
            // A document that expires is approved with its expiry date, asked for first.
            document.expires
              ? onExpiry(document.key)
              : review.mutate(
                  { key: document.key, decision: { status: 'approved' } },
                  {
                    onSuccess: () =>
                      showNotification({
                        color: 'teal',
                        message: m.driversDocumentApproved({ document: label }),
                      }),
                    onError: (error) => showNotification({ color: 'red', message: error.message }),
                  },
                )
          }
        >
          {m.driversApprove()}
        </Button>
      )}
      {mayReview && document.expires && document.status === 'approved' && (
        <Button
          size="xs"
          variant="default"
          onClick={() => onExpiry(document.key)}
          aria-label={m.documentCorrectExpiryOf({ document: label })}
        >
          {m.documentCorrectExpiry()}
        </Button>
      )}
      {mayReview && document.hasImage && document.status !== 'rejected' && (
        <Button size="xs" color="red" variant="light" onClick={() => onReject(document.key)}>
          {m.driversReject()}
        </Button>
      )}
      <FileButton onChange={onFile} accept={DOCUMENT_IMAGE_TYPES.join(',')}>
        {(props) => (
          <Button
            {...props}
            size="xs"
            variant="default"
            loading={upload.isPending}
            aria-label={
              document.hasImage
                ? m.driversReplaceDocument({ document: label })
                : m.driversUploadDocument({ document: label })
            }
          >
            {document.hasImage ? m.driversReplace() : m.driversUpload()}
          </Button>
        )}
      </FileButton>
    </Group>
  );
}

/**
 * A driver's documents with their images, reviews and expiry: the spec's ten, or with `of` and
 * `only` some of those of the vehicle the driver drives now (its insurance).
 */
export function DocumentsSection({
  driverId,
  of = 'driver',
  only,
  label = m.driversDocuments(),
}: {
  driverId: string;
  of?: 'driver' | 'vehicle';
  only?: readonly DocumentKey[];
  label?: string;
}) {
  const documents = useDeferredValue(useDocuments(driverId, of));
  const [rejecting, setRejecting] = useState<DocumentKey | null>(null);
  const [dating, setDating] = useState<DocumentKey | null>(null);
  if (documents.isPending) return <Spinner label={m.driversLoadingDocuments()} />;
  if (documents.isError) return <Text c="red">{documents.error.message}</Text>;
  const shown = only ? documents.data.filter((document) => only.includes(document.key)) : documents.data;
  return (
    <>
      <ListTable
        label={label}
        columns={[
          m.driversDocument(),
          m.driversImage(),
          m.driversStatus(),
          { label: m.driversActions(), screenOnly: true },
        ]}
      >
        {shown.map((document) => (
          <tr key={document.key} role="row">
            <Cell label="">
              <span className={listTableClasses.title}>{documentLabel(document.key)}</span>
            </Cell>
            <Cell label={m.driversImage()}>
              <Thumbnail driverId={driverId} document={document} />
              {document.hasImage && <DocumentViewsButton driverId={driverId} documentKey={document.key} />}
            </Cell>
            <Cell label={m.driversStatus()}>
              <StatusCell document={document} />
            </Cell>
            <Cell label="" screenOnly>
              <DocumentActions
                driverId={driverId}
                document={document}
                onReject={setRejecting}
                onExpiry={setDating}
              />
            </Cell>
          </tr>
        ))}
      </ListTable>
      <OnDemand open={rejecting !== null}>
        <RejectDialog
          driverId={driverId}
          document={shown.find((d) => d.key === rejecting) ?? null}
          onClose={() => setRejecting(null)}
        />
      </OnDemand>
      <OnDemand open={dating !== null}>
        <ExpiryDialog
          // A new dialog for each document, holding that document's date.
          key={dating ?? ''}
          driverId={driverId}
          document={shown.find((d) => d.key === dating) ?? null}
          onClose={() => setDating(null)}
        />
      </OnDemand>
    </>
  );
}
