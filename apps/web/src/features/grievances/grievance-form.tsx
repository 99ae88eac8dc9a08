import {
  Button,
  Group,
  Modal,
  NativeSelect,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { useState } from 'react';
import { LANGUAGES } from '@bmet/shared/constants';
import {
  complainantKindLabel,
  grievanceCategoryLabel,
  grievancePriorityLabel,
} from '@bmet/shared/grievance-labels';
import {
  COMPLAINANT_KINDS,
  GRIEVANCE_CATEGORIES,
  GRIEVANCE_PRIORITIES,
  indianDayOf,
  type GrievanceCategory,
} from '@bmet/shared/grievance-rules';
import { m } from '@bmet/shared/paraglide/messages';
import type { CreateGrievanceBody, Grievance } from '@bmet/shared/schemas/grievance';
import { DateField } from '../../components/date-field';
import { ServerSearchSelect } from '../../components/server-search-select';
import { ApiError } from '../../lib/api-client';
import { showNotification } from '../../lib/notify';
import { LANGUAGE_NAMES } from '../../lib/language';
import { useSession } from '../../lib/session-context';
import { useCreateGrievance, useDriverName } from './api';
import { useDriverOptions } from '../../lib/driver-options';

const IST_OFFSET_MS = 330 * 60_000;

/** The time of day in India (HH:MM) of a moment. */
const indianTimeOf = (moment: Date) => new Date(moment.getTime() + IST_OFFSET_MS).toISOString().slice(11, 16);

/** A date and a time in India as the API takes a moment, or null when either is missing. */
export function receivedMoment(day: string, time: string): string | null {
  if (!day || !/^\d{2}:\d{2}$/.test(time)) return null;
  return `${day}T${time}:00+05:30`;
}

type Errors = Partial<Record<string, string>>;

/**
 * Logs a grievance taken on the phone or read in a mail: who complains and how to reach them, what
 * it is about (a trip by its id, or a driver of the caller's), what happened, and when it reached
 * the company, in India's time and never later than now. The server's refusals show beside their
 * fields.
 */
export function GrievanceForm({
  tripId: givenTrip,
  driverId: givenDriver,
  onClose,
  onCreated,
}: {
  tripId: string | null;
  driverId: string | null;
  onClose: () => void;
  onCreated: (grievance: Grievance) => void;
}) {
  const { session } = useSession();
  const [started] = useState(() => new Date());
  const [kind, setKind] = useState<string>('customer');
  const [name, setName] = useState('');
  const [phone, setPhone] = useState('');
  const [email, setEmail] = useState('');
  const [language, setLanguage] = useState<string>('en');
  const [tripId, setTripId] = useState(givenTrip ?? '');
  const [driverId, setDriverId] = useState<string | null>(givenDriver);
  const [category, setCategory] = useState('');
  const [priority, setPriority] = useState('normal');
  const [description, setDescription] = useState('');
  const [day, setDay] = useState(() => indianDayOf(started));
  const [time, setTime] = useState(() => indianTimeOf(started));
  const [errors, setErrors] = useState<Errors>({});
  const [problem, setProblem] = useState<string | null>(null);
  const driverName = useDriverName(givenDriver);
  const create = useCreateGrievance();

  /** A field changed: its message goes. */
  const changed = (field: string) => {
    if (errors[field] === undefined) return;
    const { [field]: _fixed, ...rest } = errors;
    setErrors(rest);
  };

  const submit = () => {
    setProblem(null);
    const receivedAt = receivedMoment(day, time);
    if (!receivedAt) {
      setErrors({ receivedAt: m.grievanceReceivedInvalid() });
      return;
    }
    if (Date.parse(receivedAt) > Date.now()) {
      setErrors({ receivedAt: m.grievanceReceivedInFuture() });
      return;
    }
    const body: CreateGrievanceBody = {
      complainantKind: kind as CreateGrievanceBody['complainantKind'],
      complainantName: name,
      complainantPhone: phone,
      complainantEmail: email,
      complainantLanguage: language as CreateGrievanceBody['complainantLanguage'],
      tripId: tripId.trim() || null,
      driverId,
      category: category as GrievanceCategory,
      priority: priority as CreateGrievanceBody['priority'],
      description,
      receivedAt,
    };
    create.mutate(body, {
      onSuccess: (grievance) => {
        showNotification({ color: 'teal', message: m.grievanceLogged({ number: grievance.number }) });
        onClose();
        onCreated(grievance);
      },
      onError: (error) => {
        const fieldErrors = error instanceof ApiError ? (error.body.fieldErrors ?? {}) : {};
        const named = Object.fromEntries(
          Object.entries(fieldErrors).map(([field, messages]) => [field, messages[0]]),
        );
        setErrors(named);
        if (Object.keys(named).length === 0) setProblem(error.message);
      },
    });
  };

  return (
    <Modal
      opened
      onClose={onClose}
      title={m.grievanceLogButton()}
      closeButtonProps={{ 'aria-label': m.grievanceCancel() }}
      size="lg"
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <Stack>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <NativeSelect
              label={m.grievanceComplainantKind()}
              value={kind}
              onChange={(event) => {
                setKind(event.currentTarget.value);
                changed('complainantKind');
              }}
              data={COMPLAINANT_KINDS.map((value) => ({ value, label: complainantKindLabel(value) }))}
              error={errors.complainantKind}
            />
            <TextInput
              label={m.grievanceComplainantName()}
              value={name}
              onChange={(event) => {
                setName(event.currentTarget.value);
                changed('complainantName');
              }}
              withAsterisk
              data-autofocus
              error={errors.complainantName}
            />
            <NativeSelect
              label={m.grievanceLanguage()}
              value={language}
              onChange={(event) => setLanguage(event.currentTarget.value)}
              data={LANGUAGES.map((value) => ({ value, label: LANGUAGE_NAMES[value] }))}
            />
            <TextInput
              label={m.grievancePhone()}
              type="tel"
              inputMode="tel"
              value={phone}
              onChange={(event) => {
                setPhone(event.currentTarget.value);
                changed('complainantPhone');
              }}
              error={errors.complainantPhone}
            />
            <TextInput
              label={m.grievanceEmail()}
              type="email"
              value={email}
              onChange={(event) => {
                setEmail(event.currentTarget.value);
                changed('complainantEmail');
              }}
              error={errors.complainantEmail}
            />
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label={m.grievanceTripId()}
              description={m.grievanceTripIdHint()}
              value={tripId}
              onChange={(event) => {
                setTripId(event.currentTarget.value);
                changed('tripId');
              }}
              autoComplete="off"
              error={errors.tripId}
            />
            {/* Shown once the name of a driver given by the address is known. */}
            {(!givenDriver || !driverName.isPending) && (
              <ServerSearchSelect
                label={m.grievanceDriver()}
                placeholder={m.grievanceDriverSearch()}
                value={driverId}
                initialLabel={givenDriver ? (driverName.data ?? null) : null}
                onChange={(id) => {
                  setDriverId(id);
                  changed('driverId');
                }}
                useOptions={useDriverOptions}
                searchingMessage={m.grievanceDriversSearching()}
                nothingFoundMessage={m.grievanceDriversNone()}
                error={errors.driverId}
              />
            )}
            <NativeSelect
              label={m.grievanceCategory()}
              value={category}
              onChange={(event) => {
                setCategory(event.currentTarget.value);
                changed('category');
              }}
              data={[
                { value: '', label: m.grievanceChoose() },
                ...GRIEVANCE_CATEGORIES.map((value) => ({ value, label: grievanceCategoryLabel(value) })),
              ]}
              withAsterisk
              error={errors.category}
            />
            <NativeSelect
              label={m.grievancePriority()}
              value={priority}
              onChange={(event) => setPriority(event.currentTarget.value)}
              data={GRIEVANCE_PRIORITIES.map((value) => ({ value, label: grievancePriorityLabel(value) }))}
            />
          </SimpleGrid>
          {session?.role !== 'admin' && (
            <Text size="xs" c="dimmed">
              {m.grievanceSubjectRequired()}
            </Text>
          )}
          <Textarea
            label={m.grievanceDescription()}
            value={description}
            onChange={(event) => {
              setDescription(event.currentTarget.value);
              changed('description');
            }}
            autosize
            minRows={3}
            maxRows={10}
            withAsterisk
            error={errors.description}
          />
          <SimpleGrid cols={{ base: 1, xs: 2 }}>
            <DateField
              label={m.grievanceReceivedDate()}
              value={day}
              onChange={(next) => {
                setDay(next);
                changed('receivedAt');
              }}
              error={errors.receivedAt}
            />
            <TextInput
              label={m.grievanceReceivedTime()}
              type="time"
              value={time}
              onChange={(event) => {
                setTime(event.currentTarget.value);
                changed('receivedAt');
              }}
              // The message is under the date beside it; this field is marked with it.
              error={Boolean(errors.receivedAt)}
            />
          </SimpleGrid>
          {problem && (
            <Text size="sm" c="red" role="alert">
              {problem}
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {m.grievanceCancel()}
            </Button>
            <Button type="submit" loading={create.isPending}>
              {m.grievanceSubmit()}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
