import type { FastifyInstance } from 'fastify';
import { actionLabel, recordTypeLabel } from '@bmet/shared/audit-labels';
import { m } from '@bmet/shared/paraglide/messages';
import { roleLabel } from '@bmet/shared/role-label';
import { auditFilterSchema, inOrder, type AuditEntry } from '@bmet/shared/schemas/audit';
import type { Db } from '../../db/client';
import { registerCsvExport, type CsvColumn } from '../../plugins/csv-export';
import { istDateTime } from '../../lib/csv';
import { currentUser } from '../../plugins/authentication';
import { findAuditEntries } from './repository';

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** A recorded value in a cell: moments in IST, nothing as empty, objects as JSON. */
function cellValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return INSTANT.test(value) ? istDateTime(value) : value;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** The changed fields of an entry, one per line: `status: submitted → approved`. */
function changes(entry: AuditEntry): string {
  const fields = [...new Set([...Object.keys(entry.before ?? {}), ...Object.keys(entry.after ?? {})])];
  return fields
    .filter(
      (field) =>
        JSON.stringify(entry.before?.[field] ?? null) !== JSON.stringify(entry.after?.[field] ?? null),
    )
    .map((field) => `${field}: ${cellValue(entry.before?.[field])} → ${cellValue(entry.after?.[field])}`)
    .join('\n');
}

function auditColumns(): CsvColumn<AuditEntry>[] {
  return [
    { header: m.exportColumnDateTime(), value: (entry) => istDateTime(entry.at) },
    {
      header: m.auditColumnWho(),
      value: (entry) =>
        entry.actor?.name ||
        entry.actor?.email ||
        (entry.source === 'firebase'
          ? m.changedByFirebase()
          : entry.source === 'driver-app'
            ? m.changedByDriverApp()
            : m.auditNoActor()),
    },
    { header: m.commonEmail(), value: (entry) => entry.actor?.email },
    { header: m.auditExportRole(), value: (entry) => (entry.actor ? roleLabel(entry.actor.role) : '') },
    { header: m.auditColumnAction(), value: (entry) => actionLabel(entry.action) },
    { header: m.auditFilterRecordType(), value: (entry) => recordTypeLabel(entry.recordType) },
    { header: m.auditColumnRecord(), value: (entry) => entry.recordName ?? entry.recordId },
    { header: m.auditExportRecordId(), value: (entry) => entry.recordId },
    { header: m.auditColumnChanges(), value: changes },
  ];
}

/** `GET /api/audit/export.csv`: the audit trail as on screen (filters, scope), newest first. */
export function registerAuditExport(app: FastifyInstance, db: Db): void {
  registerCsvExport(app, {
    url: '/audit/export.csv',
    access: ['audit', 'list'],
    tags: ['audit'],
    summary: 'The audit trail as a CSV file: every matching change, newest first',
    description:
      'Takes the query of `GET /api/audit` without `limit` and `cursor`; one row per change, its changed values as `field: before → after`, one per line.',
    query: inOrder(auditFilterSchema),
    fileName: 'audit',
    columns: auditColumns,
    readBatch: async (request, query, cursor, limit) => {
      const page = await findAuditEntries(db, currentUser(request), { ...query, cursor, limit });
      return { rows: page.entries, nextCursor: page.nextCursor };
    },
  });
}
