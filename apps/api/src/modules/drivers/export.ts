import type { FastifyInstance } from 'fastify';
import { CAR_TYPES, DEFAULT_COUNTRY, STATES } from '@bmet/shared/constants';
import { carTypeLabel, stateLabel } from '@bmet/shared/labels';
import { m } from '@bmet/shared/paraglide/messages';
import { driverListQuerySchema, type Driver } from '@bmet/shared/schemas/driver';
import type { Db } from '../../db/client';
import { istDateTime } from '../../lib/csv';
import { labelsOf, registerCsvExport, type CsvColumn } from '../../plugins/csv-export';
import { currentUser } from '../../plugins/authentication';
import { findDrivers } from './list-repository';
import { refuseDeletedView } from './scope';

/** The columns of a drivers export; the deleted view says when each driver was deleted. */
function driverColumns(deletedView: boolean): CsvColumn<Driver>[] {
  const state = labelsOf(STATES, stateLabel);
  const carType = labelsOf(CAR_TYPES, carTypeLabel);
  const columns: (CsvColumn<Driver> | null)[] = [
    { header: m.driversName(), value: (driver) => driver.name },
    { header: m.driversEmail(), value: (driver) => driver.email },
    { header: m.driversPhoneNumber(), value: (driver) => driver.phoneNumber },
    // As the list shows it: a driver app that saved no country was used in India.
    { header: m.driversCountry(), value: (driver) => driver.country || DEFAULT_COUNTRY },
    { header: m.driversState(), value: (driver) => state(driver.state) },
    { header: m.driversFranchise(), value: (driver) => driver.franchiseName },
    { header: m.driversVehicle(), value: (driver) => driver.carModel },
    { header: m.tripsFilterCarType(), value: (driver) => carType(driver.carType) },
    { header: m.exportColumnVehicleNumber(), value: (driver) => driver.vehicleNumber },
    { header: m.exportColumnCreated(), value: (driver) => istDateTime(driver.createdAt) },
    deletedView
      ? { header: m.exportColumnDeleted(), value: (driver) => istDateTime(driver.deletedAt) }
      : null,
    { header: m.exportColumnId(), value: (driver) => driver.id },
  ];
  return columns.filter((column) => column !== null);
}

/**
 * `GET /api/drivers/export.csv`: the driver list of every role (the spec's three list paths answer
 * the same rows) as a CSV file.
 */
export function registerDriverExport(app: FastifyInstance, db: Db): void {
  registerCsvExport(app, {
    url: '/drivers/export.csv',
    access: ['drivers', 'list'],
    tags: ['drivers'],
    summary: 'The drivers the caller may see, as a CSV file: every matching row, in name order',
    description:
      'Takes the query of `GET /api/drivers` without `limit` and `cursor` (`deleted=true`: admins only), and answers the rows the list would show the caller, page after page.',
    query: driverListQuerySchema.omit({ limit: true, cursor: true }),
    fileName: 'drivers',
    authorize: (user, query) => refuseDeletedView(user, query.deleted),
    columns: (_request, query) => driverColumns(Boolean(query.deleted)),
    readBatch: async (request, query, cursor, limit) => {
      const user = currentUser(request);
      const page = await findDrivers(db, user, { ...query, cursor, limit });
      return { rows: page.drivers, nextCursor: page.nextCursor };
    },
  });
}
