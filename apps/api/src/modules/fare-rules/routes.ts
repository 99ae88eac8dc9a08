import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { carTypeLabel, stateLabel } from '@bmet/shared/labels';
import { m } from '@bmet/shared/paraglide/messages';
import {
  fareReportQuerySchema,
  fareReportResponseSchema,
  fareRulesParamsSchema,
  fareRulesResponseSchema,
  putFareRulesBodySchema,
  stateFareRulesResponseSchema,
} from '@bmet/shared/schemas/fare-rule';
import type { Db } from '../../db/client';
import type { Actor } from '../../infra/audit';
import { decimal, rupees } from '../../lib/csv';
import { errorResponses } from '../../lib/error-responses';
import { currentUser } from '../../plugins/authentication';
import { registerCsvExport } from '../../plugins/csv-export';
import { findFareReport } from './report';
import { findComplianceFigures, saveComplianceFigures } from './figures';
import {
  complianceFiguresResponseSchema,
  putComplianceFiguresBodySchema,
  stateComplianceFiguresResponseSchema,
} from '@bmet/shared/schemas/compliance-figures';
import { findFareRules, saveFareRules } from './repository';

export type FareRuleRoutesOptions = { db: Db };

const TAGS = ['fare-rules'];
const errors = errorResponses(400, 401, 403);

const actorOf = (request: FastifyRequest): Actor => ({ id: currentUser(request).id, requestId: request.id });

export const fareRuleRoutes: FastifyPluginAsyncZod<FareRuleRoutesOptions> = async (app, { db }) => {
  app.get(
    '/fare-rules',
    {
      config: { access: ['fare-rules', 'list'] },
      schema: {
        tags: TAGS,
        summary: 'Every state’s fare rules in effect today (India), per car type, and those saved for later',
        response: { 200: fareRulesResponseSchema, ...errors },
      },
    },
    async () => ({ data: await findFareRules(db) }),
  );

  app.put(
    '/fare-rules/:state',
    {
      config: { access: ['fare-rules', 'update'] },
      schema: {
        tags: TAGS,
        summary: 'Save a state’s fare rules for some car types, from a day on',
        description:
          'Each car type sent gets a new version, in effect from `effectiveFrom` (India’s date) until a ' +
          'later one; the earlier versions stay as history. A state with fixed fares has `maxMultiple` ' +
          'and `minMultiple` of 1. Audited.',
        params: fareRulesParamsSchema,
        body: putFareRulesBodySchema,
        response: { 200: stateFareRulesResponseSchema, ...errors },
      },
    },
    async (request) => ({
      data: await saveFareRules(db, actorOf(request), request.params.state, request.body),
    }),
  );

  app.get(
    '/compliance-figures',
    {
      config: { access: ['fare-rules', 'list'] },
      schema: {
        tags: TAGS,
        summary: 'Every state’s figures of the driver checks and vehicles, today and saved for later',
        description:
          'Induction hours, refresher months, the share of drivers due remedial training, health and ' +
          'term cover, and the vehicles’ age limit; `effectiveFrom` null where a state keeps the ' +
          'guidelines’ defaults.',
        response: { 200: complianceFiguresResponseSchema, ...errors },
      },
    },
    async () => ({ data: await findComplianceFigures(db) }),
  );

  app.put(
    '/compliance-figures/:state',
    {
      config: { access: ['fare-rules', 'update'] },
      schema: {
        tags: TAGS,
        summary: 'Save a state’s figures of the driver checks and vehicles, from a day on',
        description:
          'A new version, in effect from `effectiveFrom` (India’s date) until a later one; the checks, ' +
          'compliance and the vehicles of drivers of the state are judged by it from that day. Audited.',
        params: fareRulesParamsSchema,
        body: putComplianceFiguresBodySchema,
        response: { 200: stateComplianceFiguresResponseSchema, ...errors },
      },
    },
    async (request) => ({
      data: await saveComplianceFigures(db, actorOf(request), request.params.state, request.body),
    }),
  );

  app.get(
    '/fare-rules/report',
    {
      config: { access: ['fare-rules', 'list'] },
      schema: {
        tags: TAGS,
        summary: 'Rates outside their band today, and drivers whose commission in a month passed their cap',
        querystring: fareReportQuerySchema,
        response: { 200: fareReportResponseSchema, ...errors },
      },
    },
    async (request) => ({ data: await findFareReport(db, request.query.month) }),
  );

  registerReportExport(app, db);
};

type ReportRow = {
  finding: string;
  state: string;
  carType: string;
  driver: string;
  month: string;
  field: string;
  value: number;
  allowedMin: number | null;
  allowedMax: number;
  source: string;
};

/** `GET /api/fare-rules/report.csv`: both parts of the report, one finding a row. */
function registerReportExport(app: FastifyInstance, db: Db): void {
  registerCsvExport(app, {
    url: '/fare-rules/report.csv',
    access: ['fare-rules', 'list'],
    tags: TAGS,
    summary: 'The fare report as a CSV file',
    description:
      'Takes the query of `GET /api/fare-rules/report`; one row per rate outside its band, then one per driver whose commission passed the cap.',
    query: fareReportQuerySchema,
    fileName: 'fare-report',
    columns: () => [
      { header: m.fareReportColumnFinding(), value: (row: ReportRow) => row.finding },
      { header: m.fareReportColumnState(), value: (row) => row.state },
      { header: m.fareReportColumnCarType(), value: (row) => row.carType },
      { header: m.fareReportColumnDriver(), value: (row) => row.driver },
      { header: m.fareReportColumnMonth(), value: (row) => row.month },
      { header: m.fareReportColumnField(), value: (row) => row.field },
      { header: m.fareReportColumnValue(), value: (row) => rupees(row.value) },
      { header: m.fareReportColumnAllowedMin(), value: (row) => rupees(row.allowedMin) },
      { header: m.fareReportColumnAllowedMax(), value: (row) => rupees(row.allowedMax) },
      { header: m.fareReportColumnSource(), value: (row) => row.source },
    ],
    // The report is small (one row per state and car type at most, and the drivers over the cap).
    readBatch: async (_request, query, cursor) => {
      if (cursor) return { rows: [], nextCursor: null };
      const report = await findFareReport(db, query.month);
      const rows: ReportRow[] = [
        ...report.rates.map((rate) => ({
          finding: m.fareReportFindingRate(),
          state: stateLabel(rate.state),
          carType: carTypeLabel(rate.carType),
          driver: '',
          month: '',
          field: rate.field === 'basePrice' ? m.fareFieldBasePrice() : m.fareFieldPerKm(),
          value: rate.value,
          allowedMin: rate.allowedMin,
          allowedMax: rate.allowedMax,
          source: rate.source === 'firebase' ? m.changedByFirebase() : m.fareReportSourceConsole(),
        })),
        ...report.commission.map((driver) => ({
          finding: m.fareReportFindingCommission({ cap: decimal(driver.capPercent) }),
          state: driver.state ? stateLabel(driver.state) : '',
          carType: '',
          driver: driver.driverName,
          month: driver.month,
          field: m.fareReportCommission(),
          value: driver.commission,
          allowedMin: null,
          allowedMax: (driver.fares * driver.capPercent) / 100,
          source: '',
        })),
      ];
      return { rows, nextCursor: rows.length > 0 ? 'end' : null };
    },
  });
}
