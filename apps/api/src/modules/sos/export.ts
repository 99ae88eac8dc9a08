import type { FastifyInstance } from 'fastify';
import { m } from '@bmet/shared/paraglide/messages';
import { sosListQuerySchema, type SosAlert } from '@bmet/shared/schemas/sos';
import {
  sosEscalationLabel,
  sosOutcomeLabel,
  sosPersonLabel,
  sosSourceLabel,
  sosStatusLabel,
} from '@bmet/shared/sos-labels';
import type { Db } from '../../db/client';
import { istDateTime } from '../../lib/csv';
import { currentUser } from '../../plugins/authentication';
import { registerCsvExport, type CsvColumn } from '../../plugins/csv-export';
import { findSosAlerts } from './repository';

function sosColumns(): CsvColumn<SosAlert>[] {
  return [
    { header: m.sosExportNumber(), value: (row) => row.number },
    { header: m.sosExportStatus(), value: (row) => sosStatusLabel(row.status) },
    { header: m.sosExportSource(), value: (row) => sosSourceLabel(row.source) },
    { header: m.sosExportPerson(), value: (row) => sosPersonLabel(row.person) },
    { header: m.sosExportDriver(), value: (row) => row.driverName },
    { header: m.sosExportFranchise(), value: (row) => row.franchiseName },
    { header: m.sosExportTrip(), value: (row) => row.tripId },
    { header: m.sosExportRaised(), value: (row) => istDateTime(row.raisedAt) },
    { header: m.sosExportAcknowledged(), value: (row) => istDateTime(row.acknowledgedAt) },
    { header: m.sosExportSeconds(), value: (row) => row.secondsToAcknowledge },
    {
      header: m.sosExportEscalations(),
      value: (row) => row.escalations.map((escalation) => sosEscalationLabel(escalation.to)).join('; '),
    },
    { header: m.sosExportResolved(), value: (row) => istDateTime(row.resolvedAt) },
    { header: m.sosExportOutcome(), value: (row) => (row.outcome ? sosOutcomeLabel(row.outcome) : '') },
    { header: m.sosExportNote(), value: (row) => [row.note, row.outcomeNote].filter(Boolean).join(' / ') },
  ];
}

/** `GET /api/sos/export.csv`: the caller's alerts, as the control room's history finds them. */
export function registerSosExport(app: FastifyInstance, db: Db): void {
  registerCsvExport(app, {
    url: '/sos/export.csv',
    access: ['sos', 'list'],
    tags: ['sos'],
    summary: 'The SOS alerts the caller may see, as a CSV file: every matching row, in list order',
    description: 'Takes the query of `GET /api/sos` without `limit` and `cursor`.',
    query: sosListQuerySchema.omit({ limit: true, cursor: true }),
    fileName: 'sos-alerts',
    columns: sosColumns,
    readBatch: async (request, query, cursor, limit) => {
      const page = await findSosAlerts(db, currentUser(request), { ...query, cursor, limit });
      return { rows: page.alerts, nextCursor: page.nextCursor };
    },
  });
}
