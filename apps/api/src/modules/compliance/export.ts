import type { FastifyInstance } from 'fastify';
import { documentStatusLabel } from '@bmet/shared/labels';
import { m } from '@bmet/shared/paraglide/messages';
import { complianceQuerySchema, type ComplianceEntry } from '@bmet/shared/schemas/compliance';
import type { Db } from '../../db/client';
import { registerCsvExport, type CsvColumn } from '../../plugins/csv-export';
import { istDateTime } from '../../lib/csv';
import { currentUser } from '../../plugins/authentication';
import { findComplianceEntries } from './repository';

/** A YYYY-MM-DD day as staff write it: 24/11/2026. */
const calendarDay = (date: string | null) => (date ? date.split('-').reverse().join('/') : '');

function complianceColumns(): CsvColumn<ComplianceEntry>[] {
  return [
    { header: m.complianceColumnDriver(), value: (entry) => entry.driverName },
    { header: m.complianceColumnDocument(), value: (entry) => entry.label },
    {
      header: m.complianceColumnStatus(),
      value: (entry) => (entry.status ? documentStatusLabel(entry.status) : m.complianceCheckInForce()),
    },
    { header: m.complianceColumnExpiresOn(), value: (entry) => calendarDay(entry.expiresOn) },
    {
      header: m.complianceColumnUploaded(),
      value: (entry) => (entry.uploadedAt ? istDateTime(entry.uploadedAt) : ''),
    },
    { header: m.exportColumnId(), value: (entry) => entry.driverId },
  ];
}

/** `GET /api/compliance/export.csv`: a compliance view as on screen, in its order. */
export function registerComplianceExport(app: FastifyInstance, db: Db): void {
  registerCsvExport(app, {
    url: '/compliance/export.csv',
    access: ['compliance', 'list'],
    tags: ['compliance'],
    summary: 'A compliance view as a CSV file: every document it lists',
    description: 'Takes the query of `GET /api/compliance` without `limit` and `cursor`.',
    query: complianceQuerySchema.omit({ limit: true, cursor: true }),
    fileName: 'compliance',
    columns: complianceColumns,
    readBatch: async (request, query, cursor, limit) => {
      const page = await findComplianceEntries(db, currentUser(request), { ...query, cursor, limit });
      return { rows: page.entries, nextCursor: page.nextCursor };
    },
  });
}
