import { Anchor, Button, Group, Stack, Text, Textarea, Title } from '@mantine/core';
import { IconArrowLeft, IconPlayerTrackNext } from '@tabler/icons-react';
import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { documentStatusLabel } from '@bmet/shared/labels';
import { m } from '@bmet/shared/paraglide/messages';
import type { ComplianceEntry } from '@bmet/shared/schemas/compliance';
import type { DriverDocument } from '@bmet/shared/schemas/driver';
import type { ApiError } from '../../lib/api-client';
import { formatDateTime, INDIA_TIME_ZONE } from '../../lib/format';
import { showNotification } from '../../lib/notify';
import {
  useDocumentImage,
  useDriverDocuments,
  useDriverName,
  useReviewDocument,
  type DocumentRef,
  type ReviewDecision,
} from './api';
import { ExpiryDateField } from './expiry-date-field';
import classes from './compliance.module.css';
import { Spinner } from '../../components/spinner';

/** Today in India as YYYY-MM-DD: the earliest expiry an approval takes. */
const indiaToday = () => new Intl.DateTimeFormat('en-CA', { timeZone: INDIA_TIME_ZONE }).format(new Date());

/**
 * The document's image, as large as the panel allows, from the endpoint the driver dashboard
 * reads; it opens in a new tab at its own size (to zoom in on a number).
 */
function DocumentImage({ target, document }: { target: DocumentRef; document: DriverDocument }) {
  const { label } = document;
  // An imported image may have no upload time: it is still one version of the image.
  const image = useDocumentImage(target, document.hasImage ? (document.uploadedAt ?? 'image') : null);
  if (!document.hasImage) return <Text c="dimmed">{m.complianceNoImage()}</Text>;
  if (image.isPending) return <Spinner label={m.complianceLoadingImage({ document: label })} />;
  if (image.isError) return <Text c="red">{m.complianceImageUnavailable()}</Text>;
  return (
    <a
      href={image.data}
      target="_blank"
      rel="noopener"
      className={classes.imageLink}
      aria-label={m.complianceReviewOpenImage({ document: label })}
    >
      <img src={image.data} alt={label} className={classes.image} />
    </a>
  );
}

/** Approve (with the expiry date of a document that expires) or reject with a reason. */
function Decision({
  target,
  document,
  onDecided,
}: {
  target: DocumentRef;
  document: DriverDocument;
  onDecided: () => void;
}) {
  const { label } = document;
  const review = useReviewDocument();
  const [expiresOn, setExpiresOn] = useState(document.expiresOn ?? '');
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  const error = review.error as ApiError | null;
  const decide = (decision: ReviewDecision, done: string) =>
    review.mutate(
      { ref: target, decision },
      {
        onSuccess: () => {
          showNotification({ color: 'teal', message: done });
          onDecided();
        },
      },
    );
  const switchTo = (reject: boolean) => {
    review.reset();
    setRejecting(reject);
  };

  if (rejecting)
    return (
      <Stack gap="sm">
        <Textarea
          label={m.complianceReason()}
          description={m.complianceReasonHelp()}
          value={reason}
          onChange={(event) => setReason(event.currentTarget.value)}
          error={error?.message}
          autosize
          minRows={2}
          autoFocus
        />
        <Group gap="xs">
          <Button
            color="red"
            loading={review.isPending}
            onClick={() => decide({ status: 'rejected', reason }, m.complianceRejected({ document: label }))}
          >
            {m.complianceRejectDocument()}
          </Button>
          <Button variant="default" onClick={() => switchTo(false)}>
            {m.complianceCancel()}
          </Button>
        </Group>
      </Stack>
    );

  return (
    <Stack gap="sm">
      {document.expires && (
        <ExpiryDateField
          value={expiresOn}
          onChange={setExpiresOn}
          min={indiaToday()}
          error={error?.body.fieldErrors?.expiresOn?.[0]}
        />
      )}
      <Group gap="xs">
        <Button
          color="teal"
          loading={review.isPending}
          onClick={() =>
            decide(
              { status: 'approved', ...(document.expires && expiresOn ? { expiresOn } : {}) },
              m.complianceApproved({ document: label }),
            )
          }
        >
          {m.complianceApprove()}
        </Button>
        <Button color="red" variant="light" disabled={review.isPending} onClick={() => switchTo(true)}>
          {m.complianceReject()}
        </Button>
      </Group>
      {error && (
        <Text size="sm" c="red" role="alert">
          {error.message}
        </Text>
      )}
    </Stack>
  );
}

/**
 * One document of the review queue: its image beside (on a phone, above) the decision. After a
 * decision, or on Skip, `onNext` moves the queue to the next document awaiting review; the
 * document is read again from the driver's documents, so one reviewed meanwhile says so.
 */
export function ReviewPanel({
  target,
  entry,
  onNext,
  onBack,
}: {
  target: DocumentRef;
  /** The document as the list shows it; the driver's name is read when the list does not hold it. */
  entry: ComplianceEntry | undefined;
  onNext: (decided: boolean) => void;
  onBack: () => void;
}) {
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const document = useDriverDocuments(target);
  const fetchedName = useDriverName(target.driverId, entry === undefined);
  const name = entry?.driverName ?? fetchedName.data ?? '';
  const label = document.data?.label ?? entry?.label ?? '';
  // Each document of the queue is announced as it comes (this panel is new for each).
  useEffect(() => heading.current?.focus({ preventScroll: true }), []);

  return (
    <section className={classes.reviewPanel} aria-labelledby={headingId}>
      <Group justify="space-between" gap="xs">
        <Button variant="default" leftSection={<IconArrowLeft size={16} aria-hidden />} onClick={onBack}>
          {m.complianceReviewBack()}
        </Button>
        <Button
          variant="subtle"
          rightSection={<IconPlayerTrackNext size={16} aria-hidden />}
          onClick={() => onNext(false)}
        >
          {m.complianceReviewSkip()}
        </Button>
      </Group>
      <Stack gap={2}>
        <Title order={3} id={headingId} ref={heading} tabIndex={-1} className={classes.reviewTitle}>
          {m.complianceReviewTitle({ document: label, name })}
        </Title>
        <Anchor component={Link} to={`/drivers/${target.driverId}`} size="sm">
          {m.complianceReviewOpenDriver()}
        </Anchor>
      </Stack>
      {document.isPending ? (
        <Spinner label={m.complianceReviewLoading()} />
      ) : document.isError ? (
        <Text c="red" role="alert">
          {document.error.message}
        </Text>
      ) : !document.data ? (
        <Text c="red" role="alert">
          {m.notFound()}
        </Text>
      ) : (
        <div className={classes.review}>
          <div className={classes.imageBox}>
            <DocumentImage target={target} document={document.data} />
          </div>
          <Stack gap="md" className={classes.decision}>
            <Stack gap={2}>
              <Text size="sm">
                <Text span size="sm" c="dimmed">
                  {m.complianceColumnStatus()}
                </Text>{' '}
                <Text span size="sm" fw={600}>
                  {documentStatusLabel(document.data.status)}
                </Text>
              </Text>
              {document.data.uploadedAt && (
                <Text size="sm" c="dimmed">
                  {m.complianceReviewUploaded({ date: formatDateTime(document.data.uploadedAt) })}
                </Text>
              )}
            </Stack>
            {!document.data.hasImage ? (
              <Text size="sm">{m.documentHasNoImage()}</Text>
            ) : document.data.status === 'submitted' ? (
              <Decision target={target} document={document.data} onDecided={() => onNext(true)} />
            ) : (
              <Text size="sm">{m.complianceReviewNotAwaiting()}</Text>
            )}
          </Stack>
        </div>
      )}
    </section>
  );
}
