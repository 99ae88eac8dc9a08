import { Anchor, Badge, Stack, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { DocumentKey } from '@bmet/shared/constants';
import { documentLabel, documentStatusLabel } from '@bmet/shared/labels';
import { m } from '@bmet/shared/paraglide/messages';
import type { DriverDocument } from '@bmet/shared/schemas/driver';
import { DOCUMENT_STATUS_COLORS } from '../../lib/document-status';
import { formatCalendarDate, formatDateTime } from '../../lib/format';

/**
 * A vehicle's documents (registration, fitness, permit, pollution, insurance): their review and
 * expiry, those it does not need marked so. They are reviewed on its driver's page, where the
 * driver app uploads them; a vehicle nobody drives keeps them until it is given to a driver.
 */
export function VehicleDocuments({
  documents,
  exempt,
  driver,
}: {
  documents: DriverDocument[];
  exempt: readonly DocumentKey[];
  driver: { id: string; name: string } | null;
}) {
  return (
    <Stack gap="xs">
      {/* Two columns, the expiry under the review: they fit a phone without scrolling. */}
      <Table striped aria-label={m.vehicleSectionDocuments()}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{m.driversDocument()}</Table.Th>
            <Table.Th>{m.driversStatus()}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {documents.map((document) => (
            <Table.Tr key={document.key}>
              <Table.Td>{documentLabel(document.key)}</Table.Td>
              <Table.Td>
                {exempt.includes(document.key) && document.status === 'not_submitted' ? (
                  <Text size="sm" c="dimmed">
                    {m.vehicleDocumentNotNeeded()}
                  </Text>
                ) : (
                  <Stack gap={2} align="flex-start">
                    <Badge color={DOCUMENT_STATUS_COLORS[document.status]} variant="light">
                      {documentStatusLabel(document.status)}
                    </Badge>
                    {document.reviewedBy && document.reviewedAt && (
                      <Text size="xs" c="dimmed">
                        {m.driversReviewedBy({
                          name: document.reviewedBy.name,
                          date: formatDateTime(document.reviewedAt),
                        })}
                      </Text>
                    )}
                    {document.expiresOn && (
                      <Text size="xs" c="dimmed">
                        {m.documentExpiresOnDate({ date: formatCalendarDate(document.expiresOn) })}
                      </Text>
                    )}
                  </Stack>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Text size="xs" c="dimmed">
        {driver ? (
          <>
            {m.vehicleDocumentsReviewedOn()}{' '}
            <Anchor component={Link} to={`/drivers/${driver.id}`} size="xs" underline="always">
              {driver.name}
            </Anchor>
          </>
        ) : (
          m.vehicleDocumentsParked()
        )}
      </Text>
    </Stack>
  );
}
