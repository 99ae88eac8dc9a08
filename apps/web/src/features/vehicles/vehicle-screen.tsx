import { Alert, Anchor, Button, Group, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { carTypeLabel } from '@bmet/shared/labels';
import { m } from '@bmet/shared/paraglide/messages';
import { can } from '@bmet/shared/permissions';
import type { Vehicle, VehicleAssignment } from '@bmet/shared/schemas/vehicle';
import { fuelLabel, vehicleOwnerLabel, vehicleReasons } from '@bmet/shared/vehicle-labels';
import { formatRegistration } from '@bmet/shared/vehicle-rules';
import { HistoryLink } from '../../components/history-link';
import { Page } from '../../components/page';
import { Section } from '../../components/section';
import { formatCalendarDate, formatDateTime, stateLabel } from '../../lib/format';
import { useSession } from '../../lib/session-context';
import { useVehicle } from './api';
import { vehicleAge } from './vehicle-parts';
import { VehicleDocuments } from './vehicle-documents';
import { Spinner } from '../../components/spinner';

const VehicleDialog = lazy(() => import('./vehicle-dialog').then((m) => ({ default: m.VehicleDialog })));
const AssignVehicleDialog = lazy(() =>
  import('./assign-vehicle-dialog').then((m) => ({ default: m.AssignVehicleDialog })),
);

function Field({ label, value }: { label: string; value: ReactNode }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {value}
      </Text>
    </Stack>
  );
}

function Details({ vehicle }: { vehicle: Vehicle }) {
  const none = m.noInfo();
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, md: 4 }} spacing="md">
      <Field label={m.vehicleMake()} value={vehicle.make ?? none} />
      <Field label={m.vehicleModel()} value={vehicle.model ?? none} />
      <Field label={m.vehicleYear()} value={vehicle.year ?? none} />
      <Field
        label={m.vehicleFirstRegistered()}
        value={vehicle.firstRegisteredOn ? formatCalendarDate(vehicle.firstRegisteredOn) : none}
      />
      <Field label={m.vehicleAgeShort()} value={vehicleAge(vehicle)} />
      <Field label={m.vehicleFuel()} value={vehicle.fuel ? fuelLabel(vehicle.fuel) : none} />
      <Field label={m.tripsFilterCarType()} value={vehicle.carType ? carTypeLabel(vehicle.carType) : none} />
      <Field label={m.vehicleSeats()} value={vehicle.seats ?? none} />
      <Field label={m.vehicleOwner()} value={vehicle.owner ? vehicleOwnerLabel(vehicle.owner) : none} />
      <Field label={m.vehicleColour()} value={vehicle.colour ?? none} />
      <Field label={m.driversState()} value={vehicle.state ? stateLabel(vehicle.state) : none} />
      <Field label={m.driversFranchise()} value={vehicle.franchiseName ?? m.driversNotAssigned()} />
    </SimpleGrid>
  );
}

function Assignments({ assignments }: { assignments: VehicleAssignment[] }) {
  if (assignments.length === 0) return <Text c="dimmed">{m.vehicleNoAssignments()}</Text>;
  return (
    <Table.ScrollContainer minWidth={480}>
      <Table striped aria-label={m.vehicleSectionAssignments()}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{m.vehicleDriver()}</Table.Th>
            <Table.Th>{m.vehicleAssignedFrom()}</Table.Th>
            <Table.Th>{m.vehicleAssignedUntil()}</Table.Th>
            <Table.Th>{m.vehicleAssignedBy()}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {assignments.map((assignment) => (
            <Table.Tr key={`${assignment.driverId}-${assignment.since}`}>
              <Table.Td>
                <Anchor component={Link} to={`/drivers/${assignment.driverId}`} size="sm">
                  {assignment.driverName}
                </Anchor>
              </Table.Td>
              <Table.Td>{formatDateTime(assignment.since)}</Table.Td>
              <Table.Td>
                {assignment.until ? formatDateTime(assignment.until) : m.vehicleAssignedNow()}
              </Table.Td>
              <Table.Td>
                {assignment.source === 'app' ? m.vehicleAssignedByApp() : (assignment.byName ?? m.noInfo())}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** A vehicle's page: its particulars, whether it may be driven, its documents, who drives it and who drove it. */
export function VehicleScreen() {
  const { vehicleId = '' } = useParams();
  const { session } = useSession();
  const vehicle = useVehicle(vehicleId);
  const [editing, setEditing] = useState(false);
  const [assigning, setAssigning] = useState(false);
  const back = (
    <Anchor component={Link} to="/vehicles" size="sm">
      <Group gap={4}>
        <IconArrowLeft size={14} /> {m.vehiclesTitle()}
      </Group>
    </Anchor>
  );
  if (vehicle.isError) {
    return (
      <Stack>
        {back}
        <Alert color="red" role="alert">
          {vehicle.error.message}
        </Alert>
      </Stack>
    );
  }
  const v = vehicle.data;
  if (!v) return <Spinner label={m.vehiclesLoading()} />;
  const number = formatRegistration(v.registrationNumber);
  return (
    <Stack>
      {back}
      <Page
        title={number}
        actions={
          <Group gap="sm">
            <HistoryLink recordType="vehicles" recordId={v.id} name={number} />
            {can(session, ['vehicles', 'update']) && (
              <Button variant="light" onClick={() => setEditing(true)}>
                {m.vehicleEditButton()}
              </Button>
            )}
          </Group>
        }
      >
        {!v.compliance.compliant && (
          <Alert color="red" variant="light" title={m.notCompliant()}>
            {m.complianceReasons({ reasons: vehicleReasons(v).join(', ') })}
          </Alert>
        )}
        <Section title={m.vehicleSectionDetails()}>
          <Details vehicle={v} />
          <Text size="xs" c="dimmed">
            {m.vehicleAppOwnedHint()}
          </Text>
        </Section>
        <Section
          title={m.vehicleSectionDriver()}
          actions={
            can(session, ['vehicles', 'assign']) && (
              <Button size="xs" variant="light" onClick={() => setAssigning(true)}>
                {m.vehicleAssignButton()}
              </Button>
            )
          }
        >
          {v.driverId && v.driverName ? (
            <Anchor component={Link} to={`/drivers/${v.driverId}`}>
              {v.driverName}
            </Anchor>
          ) : (
            <Text c="dimmed">{m.vehicleNoDriver()}</Text>
          )}
        </Section>
        <Section title={m.vehicleSectionDocuments()}>
          <VehicleDocuments
            documents={v.documents}
            exempt={v.exemptDocuments}
            driver={v.driverId && v.driverName ? { id: v.driverId, name: v.driverName } : null}
          />
        </Section>
        <Section title={m.vehicleSectionAssignments()}>
          <Assignments assignments={v.assignments} />
        </Section>
      </Page>
      {editing && (
        <Suspense fallback={null}>
          <VehicleDialog vehicle={v} onClose={() => setEditing(false)} />
        </Suspense>
      )}
      {assigning && (
        <Suspense fallback={null}>
          <AssignVehicleDialog vehicle={v} onClose={() => setAssigning(false)} />
        </Suspense>
      )}
    </Stack>
  );
}
