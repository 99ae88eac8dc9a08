import { formatDateTime, formatRupees } from '../../lib/format';
import {
  Drawer,
  Alert,
  Button,
  CloseButton,
  Group,
  Paper,
  Rating,
  Stack,
  Table,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { lazy, Suspense, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { m } from '@bmet/shared/paraglide/messages';
import { HistoryLink } from '../../components/history-link';
import { StarRating } from '../../components/star-rating';
import { useSubmitFeedback, useTrip } from './api';
import { TripMessages } from './trip-messages';
import { PhoneLinks } from '../../components/phone-links';
import { FareBreakdown, TripTimelineList } from './trip-particulars';
import { cancelReasonLabel } from '@bmet/shared/cancel-reasons';
import { Spinner } from '../../components/spinner';

// The map's code (Leaflet) loads with the first trip that has both points.
const TripMap = lazy(() => import('./trip-map').then((module) => ({ default: module.TripMap })));

const hasPoint = (place: {
  lat: number | null;
  long: number | null;
}): place is { lat: number; long: number; location: string | null } =>
  place.lat !== null && place.long !== null;

const show = (value: string | number | null | undefined) =>
  value === null || value === undefined || value === '' ? '-' : value;

function FeedbackForm({ tripId }: { tripId: string }) {
  const submit = useSubmitFeedback(tripId);
  const [feedback, setFeedback] = useState('');
  const [rating, setRating] = useState(0);
  const [problem, setProblem] = useState<string | null>(null);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (rating < 1) {
      setProblem(m.tripRatingRequired());
      return;
    }
    setProblem(null);
    submit.mutate(
      { feedback, rating },
      {
        onSuccess: () => {
          setFeedback('');
          setRating(0);
        },
      },
    );
  };

  return (
    <form onSubmit={onSubmit} noValidate aria-label={m.tripsFeedbackForm()} data-print="hide">
      <Stack gap="xs">
        <Textarea
          label={m.tripsFeedback()}
          value={feedback}
          onChange={(e) => setFeedback(e.currentTarget.value)}
          autosize
          minRows={2}
          maxLength={2000}
        />
        <Group gap="xs">
          <Text size="sm" fw={500} id="trip-rating-label">
            {m.tripsRating()}
          </Text>
          <Rating value={rating} onChange={setRating} aria-labelledby="trip-rating-label" />
        </Group>
        {(problem || submit.error) && (
          <Alert color="red" role="alert">
            {problem ?? submit.error?.message}
          </Alert>
        )}
        {submit.isSuccess && !problem && (
          <Text size="sm" c="teal" role="status">
            {m.tripsFeedbackSaved()}
          </Text>
        )}
        <Group>
          <Button type="submit" loading={submit.isPending}>
            {m.tripsSubmit()}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The spec's single-trip panel: read-only details, then feedback saved on the server. */
export function TripDetailPanel({ tripId, onClose }: { tripId: string; onClose: () => void }) {
  const trip = useTrip(tripId);
  return (
    <Paper withBorder p="md" shadow="sm" component="section" aria-label={m.tripsDetails()}>
      {trip.isPending && <Spinner label={m.tripsLoadingTrip()} />}
      {trip.isError && (
        <Group justify="space-between">
          <Text c="red">{trip.error.message}</Text>
          <CloseButton aria-label={m.close()} onClick={onClose} />
        </Group>
      )}
      {trip.data && (
        <Stack gap="md">
          <Table withTableBorder withColumnBorders verticalSpacing={6}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th colSpan={2}>
                  <Group justify="space-between" wrap="nowrap">
                    <Title order={3} size="h4">
                      {trip.data.title}
                    </Title>
                    <Group gap="xs" wrap="nowrap" data-print="hide">
                      {/* The browser's print, which also saves a PDF: the trip alone (styles.css). */}
                      <Button size="xs" variant="default" onClick={() => window.print()}>
                        {m.tripsPrint()}
                      </Button>
                      <Button
                        size="xs"
                        variant="default"
                        component={Link}
                        to={`/grievances?tripId=${tripId}`}
                      >
                        {m.grievanceLogButton()}
                      </Button>
                      <Button size="xs" variant="default" onClick={onClose}>
                        {m.close()}
                      </Button>
                    </Group>
                  </Group>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {[
                [m.tripsBody(), show(trip.data.body)],
                [m.tripsPickUpLocation(), show(trip.data['pick-up'].location)],
                [m.tripsDestinationLocation(), show(trip.data.destination.location)],
                [m.tripsDriverAssigned(), trip.data.driver ? m.tripsYes() : m.tripsNo()],
                [m.tripsDriverName(), show(trip.data.driver_info?.name)],
                [
                  m.tripsDriverPhoneNumber(),
                  trip.data.driver_info?.phoneNumber ? (
                    <PhoneLinks phone={trip.data.driver_info.phoneNumber} />
                  ) : (
                    '-'
                  ),
                ],
                [
                  m.tripsDriverRating(),
                  trip.data.driver_info?.rating != null ? (
                    <Group gap="xs">
                      <StarRating value={trip.data.driver_info.rating} />{' '}
                      {trip.data.driver_info.rating.toFixed(1)}
                    </Group>
                  ) : (
                    '-'
                  ),
                ],
                [m.tripsVehicleType(), show(trip.data.driver_info?.Car)],
                [m.tripsDriverVehicleNumber(), show(trip.data.driver_info?.vehicleNumber)],
                [
                  m.tripsTripPhoneNumber(),
                  trip.data.phoneNumber ? <PhoneLinks phone={trip.data.phoneNumber} /> : '-',
                ],
                // Beyond the spec's rows: what a caller asks about first.
                [m.tripsColumnWhen(), formatDateTime(trip.data.createdAt)],
                [
                  m.tripsDistance(),
                  trip.data.distance === null ? '-' : m.tripsDistanceKm({ km: trip.data.distance }),
                ],
                [m.tripsColumnFare(), trip.data.price === null ? '-' : formatRupees(trip.data.price)],
                [m.tripsFilterPayment(), trip.data.paid ? m.tripsPaid() : m.tripsUnpaid()],
                ...(trip.data.cancelReason
                  ? [[m.tripsCancelReason(), cancelReasonLabel(trip.data.cancelReason)]]
                  : []),
                [m.tripsColumnShortId(), <code key="id">{trip.data.id}</code>],
              ].map(([label, value]) => (
                <Table.Tr key={String(label)}>
                  <Table.Th w={190} fw={500}>
                    {label}
                  </Table.Th>
                  <Table.Td>{value}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <TripTimelineList
            status={trip.data.status}
            timeline={trip.data.timeline}
            hadDriver={trip.data.driver}
          />
          <FareBreakdown fare={trip.data.fare} price={trip.data.price} trip={trip.data} />
          {hasPoint(trip.data['pick-up']) && hasPoint(trip.data.destination) && (
            <section aria-label={m.tripsMapTitle()}>
              <Suspense fallback={<Spinner label={m.tripsMapTitle()} size="sm" />}>
                <TripMap pickUp={trip.data['pick-up']} destination={trip.data.destination} />
              </Suspense>
            </section>
          )}
          <HistoryLink recordType="trip-feedback" recordId={trip.data.id} name={trip.data.title} />
          <TripMessages tripId={tripId} />
          <FeedbackForm tripId={tripId} />
          {trip.data.feedback.length > 0 && (
            <Stack gap="xs" component="section" aria-label={m.tripsSavedFeedback()}>
              <Text fw={600} size="sm">
                {m.tripsSavedFeedback()}
              </Text>
              {trip.data.feedback.map((entry) => (
                <Paper key={entry.id} withBorder p="xs">
                  <Group justify="space-between" wrap="wrap">
                    <StarRating value={entry.rating} />
                    <Text size="xs" c="dimmed">
                      {entry.author.name}, {formatDateTime(entry.createdAt)}
                    </Text>
                  </Group>
                  {entry.feedback && (
                    <Text size="sm" mt={4}>
                      {entry.feedback}
                    </Text>
                  )}
                </Paper>
              ))}
            </Stack>
          )}
        </Stack>
      )}
    </Paper>
  );
}

/** The panel in a drawer over the list, so the table keeps its width; it has its own URL. */
export function TripDetailDrawer({ tripId, onClose }: { tripId: string | undefined; onClose: () => void }) {
  return (
    // Composed, so that the dialog element itself carries the name (a Drawer's aria-label stays on
    // its root, and a dialog without a name is read as "dialog").
    <Drawer.Root
      opened={Boolean(tripId)}
      onClose={onClose}
      position="right"
      size="lg"
      padding={0}
      className="print-alone"
    >
      <Drawer.Overlay />
      <Drawer.Content aria-label={m.tripsDetails()}>
        <Drawer.Body>{tripId && <TripDetailPanel tripId={tripId} onClose={onClose} />}</Drawer.Body>
      </Drawer.Content>
    </Drawer.Root>
  );
}
