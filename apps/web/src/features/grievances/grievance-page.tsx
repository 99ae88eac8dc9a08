import { Alert, Anchor, Button, Group, NativeSelect, SimpleGrid, Stack, Text, Textarea } from '@mantine/core';
import { IconArrowLeft, IconPrinter } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import {
  complainantKindLabel,
  grievanceCategoryLabel,
  grievancePriorityLabel,
  grievanceStatusLabel,
} from '@bmet/shared/grievance-labels';
import {
  GRIEVANCE_CATEGORIES,
  GRIEVANCE_PRIORITIES,
  type GrievanceCategory,
  type GrievancePriority,
} from '@bmet/shared/grievance-rules';
import { m } from '@bmet/shared/paraglide/messages';
import { can } from '@bmet/shared/permissions';
import type { Grievance, GrievanceEvent, UpdateGrievanceBody } from '@bmet/shared/schemas/grievance';
import { Page } from '../../components/page';
import { PhoneLinks } from '../../components/phone-links';
import { Section } from '../../components/section';
import { ApiError } from '../../lib/api-client';
import { formatDateTime } from '../../lib/format';
import { showNotification } from '../../lib/notify';
import { LANGUAGE_NAMES } from '../../lib/language';
import { useSession } from '../../lib/session-context';
import { useCommentGrievance, useGrievance, useUpdateGrievance } from './api';
import {
  GrievanceClockBadge,
  GrievancePriorityBadge,
  GrievanceResolvedTag,
  GrievanceStatusBadge,
  shortTripId,
} from './grievance-parts';
import { GrievanceSteps } from './grievance-steps';
import { GrievanceAttachments } from './grievance-attachments';
import { Spinner } from '../../components/spinner';

function Field({ label, print, children }: { label: string; print?: 'only'; children: ReactNode }) {
  return (
    <Stack gap={2} data-print={print}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" component="div" style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Stack>
  );
}

/** What an event of the timeline was: logged, a step (to which state), a comment, a change. */
function eventTitle(event: GrievanceEvent): string {
  switch (event.kind) {
    case 'logged':
      return m.grievanceEventLogged();
    case 'status':
      return event.status
        ? m.grievanceEventStatus({ status: grievanceStatusLabel(event.status) })
        : m.grievanceEventChanged();
    case 'comment':
      return m.grievanceEventComment();
    case 'changed':
      return m.grievanceEventChanged();
    case 'attachment':
      return m.grievanceEventAttachment();
  }
}

function Timeline({ events }: { events: GrievanceEvent[] }) {
  if (events.length === 0) return <Text c="dimmed">{m.grievanceNoEvents()}</Text>;
  return (
    <Stack component="ol" gap="sm" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
      {events.map((event) => (
        <li
          key={event.id}
          style={{
            borderLeft: `3px solid ${event.kind === 'comment' ? 'var(--mantine-color-dimmed)' : 'var(--mantine-color-blue-filled)'}`,
            paddingLeft: 'var(--mantine-spacing-sm)',
          }}
        >
          <Text size="sm" fw={600}>
            {eventTitle(event)}
          </Text>
          {event.text && (
            <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {event.text}
            </Text>
          )}
          <Text size="xs" c="dimmed">
            {m.grievanceEventBy({ name: event.byName ?? m.grievanceSystem(), at: formatDateTime(event.at) })}
          </Text>
        </li>
      ))}
    </Stack>
  );
}

/** A comment inside the team: the complainant never sees it. */
function CommentBox({ grievanceId }: { grievanceId: string }) {
  const [text, setText] = useState('');
  const comment = useCommentGrievance(grievanceId);
  const fieldError =
    comment.error instanceof ApiError ? comment.error.body.fieldErrors?.text?.[0] : undefined;
  return (
    <form
      noValidate
      data-print="hide"
      onSubmit={(event) => {
        event.preventDefault();
        comment.mutate(text, {
          onSuccess: () => {
            setText('');
            showNotification({ color: 'teal', message: m.grievanceCommentAdded() });
          },
        });
      }}
    >
      <Stack gap="xs">
        <Textarea
          label={m.grievanceCommentLabel()}
          description={m.grievanceCommentHint()}
          value={text}
          onChange={(event) => {
            setText(event.currentTarget.value);
            if (comment.error) comment.reset();
          }}
          autosize
          minRows={2}
          error={fieldError ?? (comment.error && !fieldError ? comment.error.message : undefined)}
        />
        <Group justify="flex-end">
          <Button type="submit" variant="light" loading={comment.isPending}>
            {m.grievanceCommentAdd()}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function Overview({ grievance }: { grievance: Grievance }) {
  const { session } = useSession();
  const update = useUpdateGrievance(grievance.id);
  const editable = can(session, ['grievances', 'update']);
  const change = (body: UpdateGrievanceBody) =>
    update.mutate(body, {
      onSuccess: (saved) =>
        showNotification({ color: 'teal', message: m.grievanceChangesSaved({ number: saved.number }) }),
      onError: (error) => showNotification({ color: 'red', message: error.message }),
    });
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="md">
      <Field label={m.grievanceStatus()}>
        <GrievanceStatusBadge status={grievance.status} />
      </Field>
      <Field label={m.grievanceDeadline()}>
        <Stack gap={4} align="flex-start">
          <span>{formatDateTime(grievance.dueAt)}</span>
          <GrievanceClockBadge clock={grievance.clock} dueAt={grievance.dueAt} />
          <GrievanceResolvedTag inTime={grievance.resolvedInTime} />
        </Stack>
      </Field>
      <Field label={m.grievanceReceived()}>{formatDateTime(grievance.receivedAt)}</Field>
      <Field label={m.grievanceLoggedBy()}>{grievance.loggedByName ?? m.grievanceSystem()}</Field>
      {editable ? (
        <>
          <NativeSelect
            label={m.grievanceCategory()}
            value={grievance.category}
            onChange={(event) => change({ category: event.currentTarget.value as GrievanceCategory })}
            data={GRIEVANCE_CATEGORIES.map((value) => ({ value, label: grievanceCategoryLabel(value) }))}
            disabled={update.isPending}
            wrapperProps={{ 'data-print': 'hide' }}
          />
          <NativeSelect
            label={m.grievancePriority()}
            value={grievance.priority}
            onChange={(event) => change({ priority: event.currentTarget.value as GrievancePriority })}
            data={GRIEVANCE_PRIORITIES.map((value) => ({ value, label: grievancePriorityLabel(value) }))}
            disabled={update.isPending}
            wrapperProps={{ 'data-print': 'hide' }}
          />
          {/* On paper a select is an empty box: its value is printed as the fields around it. */}
          <Field label={m.grievanceCategory()} print="only">
            {grievanceCategoryLabel(grievance.category)}
          </Field>
          <Field label={m.grievancePriority()} print="only">
            <GrievancePriorityBadge priority={grievance.priority} />
          </Field>
        </>
      ) : (
        <>
          <Field label={m.grievanceCategory()}>{grievanceCategoryLabel(grievance.category)}</Field>
          <Field label={m.grievancePriority()}>
            <GrievancePriorityBadge priority={grievance.priority} />
          </Field>
        </>
      )}
      {grievance.resolvedAt && (
        <Field label={m.grievanceResolvedAt()}>{formatDateTime(grievance.resolvedAt)}</Field>
      )}
    </SimpleGrid>
  );
}

function Steps({ grievance }: { grievance: Grievance }) {
  const update = useUpdateGrievance(grievance.id);
  return (
    <GrievanceSteps
      grievance={grievance}
      saving={update.isPending}
      error={update.error}
      onOpen={() => update.reset()}
      onStep={(body, done) =>
        update.mutate(body, {
          onSuccess: (saved) => {
            done();
            showNotification({
              color: 'teal',
              message: m.grievanceStepDone({
                number: saved.number,
                status: grievanceStatusLabel(saved.status),
              }),
            });
          },
        })
      }
    />
  );
}

function Complainant({ grievance }: { grievance: Grievance }) {
  const { complainant } = grievance;
  const none = m.grievanceNotGiven();
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="md">
      <Field label={complainantKindLabel(complainant.kind)}>{complainant.name}</Field>
      <Field label={m.grievancePhone()}>
        {complainant.phone ? <PhoneLinks phone={complainant.phone} /> : none}
      </Field>
      <Field label={m.grievanceEmail()}>
        {complainant.email ? (
          <Anchor href={`mailto:${complainant.email}`} inherit underline="always">
            {complainant.email}
          </Anchor>
        ) : (
          none
        )}
      </Field>
      <Field label={m.grievanceLanguage()}>{LANGUAGE_NAMES[complainant.language]}</Field>
    </SimpleGrid>
  );
}

function About({ grievance }: { grievance: Grievance }) {
  const none = m.grievanceNotGiven();
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="md">
      <Field label={m.grievanceDriver()}>
        {grievance.driverId && grievance.driverName ? (
          <Anchor component={Link} to={`/drivers/${grievance.driverId}`} inherit>
            {grievance.driverName}
          </Anchor>
        ) : (
          (grievance.driverName ?? none)
        )}
      </Field>
      <Field label={m.grievanceTripId()}>
        {grievance.tripId ? (
          <Anchor component={Link} to={`/trips/${grievance.tripId}`} inherit>
            {m.grievanceTripLink({ id: shortTripId(grievance.tripId) })}
          </Anchor>
        ) : (
          none
        )}
      </Field>
      <Field label={m.grievanceComplainantCustomer()}>{grievance.customerName ?? none}</Field>
      <Field label={m.grievanceFranchise()}>{grievance.franchiseName ?? none}</Field>
    </SimpleGrid>
  );
}

/**
 * `/grievances/:grievanceId`: one grievance. Where it stands and its deadline, who complained and
 * how to reach them, what it is about, the steps allowed from its state, the team's comments and
 * everything that happened to it, who did it and when. Prints without the console around it.
 */
export function GrievancePage() {
  const { grievanceId = '' } = useParams();
  const grievance = useGrievance(grievanceId);
  const back = (
    <Anchor component={Link} to="/grievances" size="sm" data-print="hide">
      <Group gap={4}>
        <IconArrowLeft size={14} aria-hidden /> {m.grievanceBackToDesk()}
      </Group>
    </Anchor>
  );
  if (grievance.isError) {
    return (
      <Stack>
        {back}
        <Alert color="red" role="alert">
          {grievance.error.message}
        </Alert>
      </Stack>
    );
  }
  const g = grievance.data;
  if (!g) return <Spinner label={m.grievanceLoadingOne()} />;
  return (
    <Stack>
      {back}
      <Page
        title={g.number}
        actions={
          <Button
            variant="default"
            size="xs"
            leftSection={<IconPrinter size={14} aria-hidden />}
            onClick={() => window.print()}
            data-print="hide"
          >
            {m.grievancePrint()}
          </Button>
        }
      >
        <Section title={m.grievanceSectionDetails()}>
          <Overview grievance={g} />
          <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {g.description}
          </Text>
        </Section>
        {g.resolution && (
          <Section title={m.grievanceSectionResolution()}>
            <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {g.resolution}
            </Text>
          </Section>
        )}
        {/* Nothing to do on paper. */}
        <div data-print="hide">
          <Section title={m.grievanceSectionSteps()}>
            <Steps grievance={g} />
          </Section>
        </div>
        <Section title={m.grievanceComplainant()}>
          <Complainant grievance={g} />
        </Section>
        <Section title={m.grievanceSectionAbout()}>
          <About grievance={g} />
        </Section>
        <Section title={m.grievanceSectionAttachments()}>
          <GrievanceAttachments grievanceId={g.id} attachments={g.attachments} />
        </Section>
        <Section title={m.grievanceSectionTimeline()}>
          <CommentBox grievanceId={g.id} />
          <Timeline events={g.events} />
        </Section>
      </Page>
    </Stack>
  );
}
