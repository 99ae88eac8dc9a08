import { Alert, List, Stack, Table, Text, Title } from '@mantine/core';
import type { TripStatus } from '@bmet/shared/constants';
import { m } from '@bmet/shared/paraglide/messages';
import type { TripFare, TripTimeline } from '@bmet/shared/schemas/trip';
import { formatDate, formatDateTime, formatRupees, stateLabel } from '../../lib/format';

/** How the fare is made, part by part, and by which rates; a warning when it is not the recorded one. */
/** Why a fare cannot be worked out: no driver (so no state), no distance, or no rates. */
function missingFarePart(trip: { driver: boolean; distance: number | null }): string {
  if (!trip.driver) return m.tripsFareNoDriver();
  return trip.distance === null ? m.tripsFareNoDistance() : m.tripsFareNoRates();
}

export function FareBreakdown({
  fare,
  price,
  trip,
}: {
  fare: TripFare | null;
  price: number | null;
  trip: { driver: boolean; distance: number | null };
}) {
  return (
    <Stack gap={6} component="section" aria-labelledby="trip-fare-title">
      <Title order={4} size="h5" id="trip-fare-title">
        {m.tripsFareTitle()}
      </Title>
      {fare === null ? (
        <Text size="sm" c="dimmed">
          {missingFarePart(trip)}
        </Text>
      ) : (
        <>
          <Table withTableBorder verticalSpacing={4} fz="sm">
            <Table.Tbody>
              {[
                [m.tripsFareBase(), fare.base],
                [m.tripsFareDistance({ perKm: formatRupees(fare.perKm), km: fare.km }), fare.distance],
                [m.tripsFareNight(), fare.night],
              ].map(([label, amount]) => (
                <Table.Tr key={String(label)}>
                  <Table.Th fw={400}>{label}</Table.Th>
                  <Table.Td ta="right">{formatRupees(Number(amount))}</Table.Td>
                </Table.Tr>
              ))}
              <Table.Tr>
                <Table.Th>{m.tripsFareTotal()}</Table.Th>
                <Table.Td ta="right" fw={700}>
                  {formatRupees(fare.total)}
                </Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
          {trip.distance !== null && trip.distance !== fare.km && (
            <Text size="xs" c="dimmed">
              {m.tripsFareRounded({ distance: trip.distance, km: fare.km })}
            </Text>
          )}
          <Text size="xs" c="dimmed">
            {fare.ratesFrom
              ? m.tripsFareRatesFrom({ state: stateLabel(fare.state), date: formatDate(fare.ratesFrom) })
              : m.tripsFareRatesNow({ state: stateLabel(fare.state) })}
          </Text>
          {!fare.matchesPrice && price !== null && (
            <Alert color="yellow" p="xs">
              <Text size="sm">
                {m.tripsFareRecorded()}: {formatRupees(price)}. {m.tripsFareDiffers()}
              </Text>
            </Alert>
          )}
        </>
      )}
    </Stack>
  );
}

type Step = { label: string; at: string | null; reached: boolean };

/** The steps a trip went through, in order, with their times; the ones ahead of it dimmed. */
function stepsOf(status: TripStatus, timeline: TripTimeline, hadDriver: boolean): Step[] {
  const order: TripStatus[] = ['requested', 'assigned', 'started', 'completed'];
  const reached = (step: TripStatus) => order.indexOf(status) >= order.indexOf(step);
  const requested = { label: m.tripsStatusRequested(), at: timeline.requestedAt, reached: true };
  if (status === 'cancelled') {
    const assigned = hadDriver || timeline.assignedAt !== null || timeline.startedAt !== null;
    return [
      requested,
      ...(assigned ? [{ label: m.tripsStatusAssigned(), at: timeline.assignedAt, reached: true }] : []),
      ...(timeline.startedAt
        ? [{ label: m.tripsStatusStarted(), at: timeline.startedAt, reached: true }]
        : []),
      { label: m.tripsStatusCancelled(), at: timeline.cancelledAt, reached: true },
    ];
  }
  return [
    requested,
    { label: m.tripsStatusAssigned(), at: timeline.assignedAt, reached: reached('assigned') },
    { label: m.tripsStatusStarted(), at: timeline.startedAt, reached: reached('started') },
    { label: m.tripsTimelineFinished(), at: timeline.finishedAt, reached: reached('completed') },
  ];
}

export function TripTimelineList({
  status,
  timeline,
  hadDriver,
}: {
  status: TripStatus;
  timeline: TripTimeline;
  hadDriver: boolean;
}) {
  return (
    <Stack gap={6} component="section" aria-labelledby="trip-timeline-title">
      <Title order={4} size="h5" id="trip-timeline-title">
        {m.tripsTimelineTitle()}
      </Title>
      <List type="ordered" size="sm" spacing={4}>
        {stepsOf(status, timeline, hadDriver).map((step) => (
          <List.Item key={step.label} c={step.reached ? undefined : 'dimmed'}>
            <Text span fw={step.reached ? 600 : 400} size="sm">
              {step.label}
            </Text>
            {step.reached && (
              <Text span size="sm" c="dimmed">
                {' '}
                {step.at ? formatDateTime(step.at) : m.tripsTimelineUnknown()}
              </Text>
            )}
          </List.Item>
        ))}
      </List>
    </Stack>
  );
}
