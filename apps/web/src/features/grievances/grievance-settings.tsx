import { Anchor, Button, Group, NativeSelect, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { STATES, type State } from '@bmet/shared/constants';
import { indianDayOf } from '@bmet/shared/grievance-rules';
import { m } from '@bmet/shared/paraglide/messages';
import type { Holiday } from '@bmet/shared/schemas/grievance';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DateField } from '../../components/date-field';
import { ErrorAlert } from '../../components/error-alert';
import { ListLoader } from '../../components/list-loader';
import { Cell, ListTable } from '../../components/list-table';
import { Page } from '../../components/page';
import { RowButton } from '../../components/row-parts';
import { Section } from '../../components/section';
import { ApiError } from '../../lib/api-client';
import { formatCalendarDate, stateLabel } from '../../lib/format';
import { showNotification } from '../../lib/notify';
import {
  useAdminEmails,
  useCreateHoliday,
  useDeleteHoliday,
  useGrievanceOfficer,
  useHolidays,
  useSetGrievanceOfficer,
} from './api';
import { DeskRulesSection } from './desk-rules-section';

const NATIONAL = '';
const whereLabel = (state: State | null) => (state ? stateLabel(state) : m.grievanceHolidayNational());

function AddHoliday({ onAdded }: { onAdded: (day: string) => void }) {
  const [day, setDay] = useState('');
  const [state, setState] = useState(NATIONAL);
  const [name, setName] = useState('');
  const create = useCreateHoliday();
  const fieldErrors = create.error instanceof ApiError ? (create.error.body.fieldErrors ?? {}) : {};
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        create.mutate(
          { day, state: state || null, name },
          {
            onSuccess: (holiday) => {
              showNotification({ color: 'teal', message: m.grievanceHolidayAdded({ name: holiday.name }) });
              setDay('');
              setName('');
              onAdded(holiday.day);
            },
          },
        );
      }}
    >
      <Stack gap="xs">
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <DateField
            label={m.grievanceHolidayDate()}
            value={day}
            onChange={(next) => {
              setDay(next);
              create.reset();
            }}
            error={fieldErrors.day?.[0]}
          />
          <NativeSelect
            label={m.grievanceHolidayWhere()}
            value={state}
            onChange={(event) => setState(event.currentTarget.value)}
            data={[
              { value: NATIONAL, label: m.grievanceHolidayNational() },
              ...STATES.map((value) => ({ value, label: stateLabel(value) })),
            ]}
            error={fieldErrors.state?.[0]}
          />
          <TextInput
            label={m.grievanceHolidayName()}
            value={name}
            onChange={(event) => {
              setName(event.currentTarget.value);
              create.reset();
            }}
            error={fieldErrors.name?.[0]}
          />
        </SimpleGrid>
        {create.error && !(create.error instanceof ApiError && create.error.body.fieldErrors) && (
          <Text size="sm" c="red" role="alert">
            {create.error.message}
          </Text>
        )}
        <Group justify="flex-end">
          <Button type="submit" loading={create.isPending}>
            {m.grievanceHolidayAdd()}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function Holidays() {
  const thisYear = Number(indianDayOf(new Date()).slice(0, 4));
  const [year, setYear] = useState(thisYear);
  const holidays = useHolidays(year);
  const remove = useDeleteHoliday();
  const [removing, setRemoving] = useState<Holiday | null>(null);
  const years = [thisYear - 1, thisYear, thisYear + 1, thisYear + 2];
  return (
    <Section title={m.grievanceHolidaysTitle()}>
      <Text size="sm" c="dimmed">
        {m.grievanceHolidaysIntro()}
      </Text>
      <NativeSelect
        label={m.grievanceYear()}
        value={String(year)}
        onChange={(event) => setYear(Number(event.currentTarget.value))}
        data={years.map(String)}
        w={{ base: '100%', xs: 140 }}
      />
      {holidays.isError ? (
        <ErrorAlert error={holidays.error} />
      ) : holidays.isPending ? (
        <ListLoader label={m.grievanceHolidaysLoading()} />
      ) : holidays.data.length === 0 ? (
        <Text c="dimmed">{m.grievanceHolidaysEmpty({ year })}</Text>
      ) : (
        <ListTable
          label={m.grievanceHolidaysTitle()}
          columns={[m.grievanceHolidayDate(), m.grievanceHolidayName(), m.grievanceHolidayWhere(), '']}
        >
          {holidays.data.map((holiday) => (
            <tr key={holiday.id} role="row">
              <Cell label={m.grievanceHolidayDate()}>{formatCalendarDate(holiday.day)}</Cell>
              <Cell label={m.grievanceHolidayName()}>{holiday.name}</Cell>
              <Cell label={m.grievanceHolidayWhere()}>{whereLabel(holiday.state)}</Cell>
              <Cell label="">
                <RowButton
                  variant="danger-light"
                  aria-label={m.grievanceHolidayRemove({ name: holiday.name })}
                  onClick={() => setRemoving(holiday)}
                >
                  {m.grievanceHolidayRemoveButton()}
                </RowButton>
              </Cell>
            </tr>
          ))}
        </ListTable>
      )}
      <ConfirmDialog
        opened={removing !== null}
        title={m.grievanceHolidayRemoveTitle({ name: removing?.name ?? '' })}
        confirmLabel={m.grievanceHolidayRemoveButton()}
        loading={remove.isPending}
        onClose={() => setRemoving(null)}
        onConfirm={() =>
          removing &&
          remove.mutate(removing.id, {
            onSuccess: () =>
              showNotification({
                color: 'teal',
                message: m.grievanceHolidayRemoved({ name: removing.name }),
              }),
            onError: (error) => showNotification({ color: 'red', message: error.message }),
            onSettled: () => setRemoving(null),
          })
        }
      >
        {m.grievanceHolidayRemoveText()}
      </ConfirmDialog>
      <AddHoliday onAdded={(day) => setYear(Number(day.slice(0, 4)))} />
    </Section>
  );
}

function Officer() {
  const officer = useGrievanceOfficer();
  const admins = useAdminEmails();
  const save = useSetGrievanceOfficer();
  const [chosen, setChosen] = useState<string | null>(null);
  if (officer.isError) return <ErrorAlert error={officer.error} />;
  if (admins.isError) return <ErrorAlert error={admins.error} />;
  if (officer.isPending || admins.isPending) return <ListLoader label={m.grievanceLoadingOne()} />;
  const current = officer.data.email ?? '';
  const value = chosen ?? current;
  const emails = admins.data.includes(current) || !current ? admins.data : [current, ...admins.data];
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate(value || null, {
          onSuccess: () => {
            setChosen(null);
            showNotification({ color: 'teal', message: m.grievanceOfficerSaved() });
          },
          onError: (error) => showNotification({ color: 'red', message: error.message }),
        });
      }}
    >
      <Stack gap="xs">
        <Text size="sm" c="dimmed">
          {m.grievanceOfficerIntro()}
        </Text>
        <Text size="sm">
          {m.grievanceOfficerCurrent({
            name: officer.data.name
              ? `${officer.data.name} (${officer.data.email})`
              : (officer.data.email ?? m.grievanceOfficerNone()),
          })}
        </Text>
        <Group align="end" gap="sm" wrap="wrap">
          <NativeSelect
            label={m.grievanceOfficerSelect()}
            value={value}
            onChange={(event) => setChosen(event.currentTarget.value)}
            data={[{ value: '', label: m.grievanceOfficerNone() }, ...emails]}
            w={{ base: '100%', xs: 320 }}
          />
          <Button type="submit" loading={save.isPending} disabled={value === current}>
            {m.grievanceOfficerSave()}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** `/grievances/settings`, for admins: the grievance officer, each state's rules, and the holidays deadlines skip. */
export function GrievanceSettings() {
  return (
    <Stack>
      <Anchor component={Link} to="/grievances" size="sm">
        <Group gap={4}>
          <IconArrowLeft size={14} aria-hidden /> {m.grievanceBackToDesk()}
        </Group>
      </Anchor>
      <Page title={m.grievanceSettingsTitle()}>
        <Section title={m.grievanceOfficerTitle()}>
          <Officer />
        </Section>
        <DeskRulesSection />
        <Holidays />
      </Page>
    </Stack>
  );
}
