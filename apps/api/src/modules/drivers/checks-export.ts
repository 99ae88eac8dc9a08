import type { FastifyInstance, FastifyRequest } from 'fastify';
import { STATES } from '@bmet/shared/constants';
import { CHECK_KIND_LABELS, CHECK_STATUS_LABELS } from '@bmet/shared/check-labels';
import { DRIVER_CHECK_KINDS } from '@bmet/shared/driver-check-rules';
import { stateLabel } from '@bmet/shared/labels';
import { m } from '@bmet/shared/paraglide/messages';
import { driverListQuerySchema, type Driver } from '@bmet/shared/schemas/driver';
import type { DriverCheck } from '@bmet/shared/schemas/driver-check';
import type { Db } from '../../db/client';
import { currentUser } from '../../plugins/authentication';
import { labelsOf, registerCsvExport, type CsvColumn } from '../../plugins/csv-export';
import { findChecksOfDrivers, remedialCutoffs } from './checks';
import { findDrivers } from './list-repository';
import { refuseDeletedView } from './scope';

type DriverWithChecks = Driver & { checks: DriverCheck[] };

/** Each driver, then every check's status, day, reference and the day it lapses. */
function checkColumns(): CsvColumn<DriverWithChecks>[] {
  const state = labelsOf(STATES, stateLabel);
  const columns: CsvColumn<DriverWithChecks>[] = [
    { header: m.driversName(), value: (driver) => driver.name },
    { header: m.driversPhoneNumber(), value: (driver) => driver.phoneNumber },
    { header: m.driversState(), value: (driver) => state(driver.state) },
    { header: m.driversFranchise(), value: (driver) => driver.franchiseName },
  ];
  DRIVER_CHECK_KINDS.forEach((kind, i) => {
    const check = (driver: DriverWithChecks) => driver.checks[i]!;
    const name = CHECK_KIND_LABELS[kind]();
    columns.push(
      { header: `${name}: ${m.checkColumnStatus()}`, value: (d) => CHECK_STATUS_LABELS[check(d).status]() },
      { header: `${name}: ${m.checkColumnDone()}`, value: (d) => check(d).doneOn },
      { header: `${name}: ${m.checkColumnReference()}`, value: (d) => check(d).reference },
      { header: `${name}: ${m.checkColumnExpires()}`, value: (d) => check(d).expiresOn },
    );
  });
  columns.push({ header: m.exportColumnId(), value: (driver) => driver.id });
  return columns;
}

/** Each export's cut-offs of remedial training by state, read once per state however many batches. */
const cutoffsOfExport = new WeakMap<FastifyRequest, Map<string, number>>();

/**
 * `GET /api/drivers/checks.csv`: the drivers the caller may see, as the list finds them, with every
 * check and its status today, for a transport department's audit.
 */
export function registerDriverChecksExport(app: FastifyInstance, db: Db): void {
  registerCsvExport(app, {
    url: '/drivers/checks.csv',
    access: ['drivers', 'list'],
    tags: ['drivers'],
    summary: "The caller's drivers with every check and its status, as a CSV file",
    description:
      'Takes the query of `GET /api/drivers` without `limit` and `cursor`: each driver the list would show, with the status, day, reference and end of each check (police verification, fitness, trainings, insurance).',
    query: driverListQuerySchema.omit({ limit: true, cursor: true }),
    fileName: 'driver-checks',
    authorize: (user, query) => refuseDeletedView(user, query.deleted),
    columns: checkColumns,
    readBatch: async (request, query, cursor, limit) => {
      const page = await findDrivers(db, currentUser(request), { ...query, cursor, limit });
      const known = cutoffsOfExport.get(request) ?? new Map<string, number>();
      cutoffsOfExport.set(request, known);
      const checks = await findChecksOfDrivers(
        db,
        page.drivers.map((driver) => driver.id),
        async (states) => {
          const missing = states.filter((state) => !known.has(state));
          const found = await remedialCutoffs(db, missing);
          // A state without rated drivers has no edge: nobody there is due.
          for (const state of missing) known.set(state, found.get(state) ?? Number.NaN);
          return known;
        },
      );
      return {
        rows: page.drivers.map((driver) => ({ ...driver, checks: checks.get(driver.id)! })),
        nextCursor: page.nextCursor,
      };
    },
  });
}
