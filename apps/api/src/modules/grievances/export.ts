import type { FastifyInstance } from 'fastify';
import {
  complainantKindLabel,
  grievanceCategoryLabel,
  grievanceClockLabel,
  grievancePriorityLabel,
  grievanceStatusLabel,
} from '@bmet/shared/grievance-labels';
import { m } from '@bmet/shared/paraglide/messages';
import {
  grievanceListQuerySchema,
  grievanceMonthQuerySchema,
  type Grievance,
  type GrievanceFigures,
} from '@bmet/shared/schemas/grievance';
import type { Db } from '../../db/client';
import { istDateTime } from '../../lib/csv';
import { currentUser } from '../../plugins/authentication';
import { registerCsvExport, type CsvColumn } from '../../plugins/csv-export';
import { grievanceReport, indianMonth } from './reports';
import { findGrievances } from './repository';

/** What a regulator or a manager asks of each grievance: who, about whom, when, and by when. */
function grievanceColumns(): CsvColumn<Grievance>[] {
  return [
    { header: m.grievanceExportNumber(), value: (row) => row.number },
    { header: m.grievanceExportStatus(), value: (row) => grievanceStatusLabel(row.status) },
    { header: m.grievanceExportCategory(), value: (row) => grievanceCategoryLabel(row.category) },
    { header: m.grievanceExportPriority(), value: (row) => grievancePriorityLabel(row.priority) },
    { header: m.grievanceExportComplainant(), value: (row) => row.complainant.name },
    {
      header: m.grievanceExportComplainantKind(),
      value: (row) => complainantKindLabel(row.complainant.kind),
    },
    { header: m.grievanceExportPhone(), value: (row) => row.complainant.phone },
    { header: m.grievanceExportEmail(), value: (row) => row.complainant.email },
    { header: m.grievanceExportDriver(), value: (row) => row.driverName },
    { header: m.grievanceExportFranchise(), value: (row) => row.franchiseName },
    { header: m.grievanceExportTrip(), value: (row) => row.tripId },
    { header: m.grievanceExportReceived(), value: (row) => istDateTime(row.receivedAt) },
    { header: m.grievanceExportDue(), value: (row) => istDateTime(row.dueAt) },
    { header: m.grievanceExportClock(), value: (row) => (row.clock ? grievanceClockLabel(row.clock) : '') },
    { header: m.grievanceExportResolved(), value: (row) => istDateTime(row.resolvedAt) },
    {
      header: m.grievanceExportInTime(),
      value: (row) =>
        row.resolvedInTime === null
          ? ''
          : row.resolvedInTime
            ? m.grievanceExportYes()
            : m.grievanceExportNo(),
    },
    { header: m.grievanceExportDescription(), value: (row) => row.description },
    { header: m.grievanceExportResolution(), value: (row) => row.resolution },
  ];
}

/** `GET /api/grievances/export.csv`: the caller's grievances, as the desk finds them, as a CSV file. */
export function registerGrievanceExport(app: FastifyInstance, db: Db): void {
  registerCsvExport(app, {
    url: '/grievances/export.csv',
    access: ['grievances', 'list'],
    tags: ['grievances'],
    summary: 'The grievances the caller may see, as a CSV file: every matching row, in list order',
    description:
      'Takes the query of `GET /api/grievances` without `limit` and `cursor`, and answers the rows the desk would show the caller, page after page.',
    query: grievanceListQuerySchema.omit({ limit: true, cursor: true }),
    fileName: 'grievances',
    columns: grievanceColumns,
    readBatch: async (request, query, cursor, limit) => {
      const page = await findGrievances(db, currentUser(request), { ...query, cursor, limit });
      return { rows: page.grievances, nextCursor: page.nextCursor };
    },
  });
}

/** A line of the monthly report: all, a category or a franchise. */
type ReportLine = GrievanceFigures & { section: string; name: string | null };

function reportColumns(): CsvColumn<ReportLine>[] {
  return [
    { header: m.grievanceReportSection(), value: (row) => row.section },
    { header: m.grievanceReportName(), value: (row) => row.name },
    { header: m.grievanceReportReceived(), value: (row) => row.received },
    { header: m.grievanceReportInTime(), value: (row) => row.resolvedInTime },
    { header: m.grievanceReportLate(), value: (row) => row.resolvedLate },
    { header: m.grievanceReportOverdue(), value: (row) => row.overdue },
    { header: m.grievanceReportMedian(), value: (row) => row.medianHoursToResolve },
  ];
}

/** `GET /api/grievances/report.csv`: the month's report, in all, by category and by franchise. */
export function registerGrievanceReportExport(app: FastifyInstance, db: Db): void {
  registerCsvExport(app, {
    url: '/grievances/report.csv',
    access: ['grievances', 'list'],
    tags: ['grievances'],
    summary: "A month's grievance report as a CSV file: in all, by category and by franchise",
    description:
      'Takes the query of `GET /api/grievances/report` (the month; this month in India by default).',
    query: grievanceMonthQuerySchema,
    fileName: 'grievance-report',
    columns: reportColumns,
    readBatch: async (request, query) => {
      const report = await grievanceReport(db, currentUser(request), query.month ?? indianMonth());
      const rows: ReportLine[] = [
        { section: m.grievanceReportAll(), name: report.month, ...report.total },
        ...report.byCategory.map(({ category, ...figures }) => ({
          section: m.grievanceExportCategory(),
          name: grievanceCategoryLabel(category),
          ...figures,
        })),
        ...report.byFranchise.map(({ franchiseId: _id, franchiseName, ...figures }) => ({
          section: m.grievanceExportFranchise(),
          name: franchiseName ?? m.grievanceReportNoFranchise(),
          ...figures,
        })),
      ];
      return { rows, nextCursor: null };
    },
  });
}
