import { Button, Group, Modal, Radio, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { m } from '@bmet/shared/paraglide/messages';
import { sosPersonLabel } from '@bmet/shared/sos-labels';
import { SOS_PERSONS, type SosPerson } from '@bmet/shared/sos-rules';
import { ServerSearchSelect } from '../../components/server-search-select';
import { ApiError } from '../../lib/api-client';
import { showNotification } from '../../lib/notify';
import { useLogSos } from './api';
import { useDriverOptions } from '../../lib/driver-options';

/** "Log an SOS": an alert from a call, about a driver or a trip; the server's field errors beside the fields. */
export function LogSosDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const log = useLogSos();
  const [person, setPerson] = useState<SosPerson | ''>('');
  const [driverId, setDriverId] = useState<string | null>(null);
  const [tripId, setTripId] = useState('');
  const [note, setNote] = useState('');
  const fieldErrors = log.error instanceof ApiError ? (log.error.body.fieldErrors ?? {}) : {};
  const joined = (messages: string[] | undefined) => messages?.join(' ') || undefined;
  const otherError =
    log.error &&
    !joined(fieldErrors.person) &&
    !joined(fieldErrors.driverId) &&
    !joined(fieldErrors.tripId) &&
    !joined(fieldErrors.note)
      ? log.error.message
      : null;
  const close = () => {
    log.reset();
    setPerson('');
    setDriverId(null);
    setTripId('');
    setNote('');
    onClose();
  };
  return (
    <Modal opened={opened} onClose={close} title={m.sosLogTitle()} size="lg">
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          log.mutate(
            {
              person: person as SosPerson,
              driverId,
              tripId: tripId.trim() || null,
              note,
            },
            {
              onSuccess: (alert) => {
                showNotification({ color: 'teal', message: m.sosLogged({ number: alert.number }) });
                close();
              },
            },
          );
        }}
      >
        <Stack gap="sm">
          <Radio.Group
            label={m.sosLogPerson()}
            value={person}
            onChange={(value) => setPerson(value as SosPerson)}
            error={joined(fieldErrors.person)}
            withAsterisk
          >
            <Group gap="md" mt={4}>
              {SOS_PERSONS.map((value) => (
                <Radio key={value} value={value} label={sosPersonLabel(value)} />
              ))}
            </Group>
          </Radio.Group>
          <ServerSearchSelect
            label={m.sosLogDriver()}
            placeholder={m.sosLogDriverHint()}
            value={driverId}
            onChange={setDriverId}
            useOptions={useDriverOptions}
            searchingMessage={m.sosLogSearching()}
            nothingFoundMessage={m.sosLogNoDriver()}
            error={joined(fieldErrors.driverId)}
            comboboxProps={{ withinPortal: true }}
          />
          <TextInput
            label={m.sosLogTrip()}
            value={tripId}
            onChange={(event) => setTripId(event.currentTarget.value)}
            error={joined(fieldErrors.tripId)}
          />
          <Textarea
            label={m.sosNoteField()}
            value={note}
            onChange={(event) => setNote(event.currentTarget.value)}
            error={joined(fieldErrors.note)}
            autosize
            minRows={3}
            maxLength={2000}
          />
          {otherError && (
            <Text c="red" size="sm" role="alert">
              {otherError}
            </Text>
          )}
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={close}>
              {m.sosCancel()}
            </Button>
            <Button type="submit" color="red" loading={log.isPending}>
              {m.sosLogSubmit()}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
