import type { FastifyInstance } from 'fastify';
import { CAR_TYPES, STATES } from '@bmet/shared/constants';
import { carTypeLabel, stateLabel } from '@bmet/shared/labels';
import { m } from '@bmet/shared/paraglide/messages';
import { vehicleListQuerySchema, type Vehicle } from '@bmet/shared/schemas/vehicle';
import { fuelLabel, vehicleOwnerLabel, vehicleReasons } from '@bmet/shared/vehicle-labels';
import { FUELS, VEHICLE_OWNERS, formatRegistration } from '@bmet/shared/vehicle-rules';
import type { Db } from '../../db/client';
import { istDateTime } from '../../lib/csv';
import { currentUser } from '../../plugins/authentication';
import { labelsOf, registerCsvExport, type CsvColumn } from '../../plugins/csv-export';
import { findVehicles } from './repository';

/** What a regulator asks of each vehicle: its particulars, age, driver and whether it may be driven. */
function vehicleColumns(): CsvColumn<Vehicle>[] {
  const state = labelsOf(STATES, stateLabel);
  const carType = labelsOf(CAR_TYPES, carTypeLabel);
  const fuel = labelsOf(FUELS, fuelLabel);
  const owner = labelsOf(VEHICLE_OWNERS, vehicleOwnerLabel);
  return [
    { header: m.vehicleRegistrationNumber(), value: (row) => formatRegistration(row.registrationNumber) },
    { header: m.vehicleMake(), value: (row) => row.make },
    { header: m.vehicleModel(), value: (row) => row.model },
    { header: m.vehicleYear(), value: (row) => row.year },
    { header: m.vehicleFirstRegistered(), value: (row) => row.firstRegisteredOn },
    { header: m.vehicleAge(), value: (row) => row.ageYears },
    { header: m.vehicleFuel(), value: (row) => fuel(row.fuel) },
    { header: m.tripsFilterCarType(), value: (row) => carType(row.carType) },
    { header: m.vehicleSeats(), value: (row) => row.seats },
    { header: m.vehicleOwner(), value: (row) => owner(row.owner) },
    { header: m.driversState(), value: (row) => state(row.state) },
    { header: m.driversFranchise(), value: (row) => row.franchiseName },
    { header: m.vehicleDriver(), value: (row) => row.driverName },
    {
      header: m.vehicleCompliance(),
      value: (row) => (row.compliance.compliant ? m.compliant() : vehicleReasons(row).join('; ')),
    },
    { header: m.exportColumnCreated(), value: (row) => istDateTime(row.createdAt) },
    { header: m.exportColumnId(), value: (row) => row.id },
  ];
}

/** `GET /api/vehicles/export.csv`: the caller's vehicles, as the list finds them, as a CSV file. */
export function registerVehicleExport(app: FastifyInstance, db: Db): void {
  registerCsvExport(app, {
    url: '/vehicles/export.csv',
    access: ['vehicles', 'list'],
    tags: ['vehicles'],
    summary: 'The vehicles the caller may see, as a CSV file: every matching row, in list order',
    description:
      'Takes the query of `GET /api/vehicles` without `limit` and `cursor`, and answers the rows the list would show the caller, page after page.',
    query: vehicleListQuerySchema.omit({ limit: true, cursor: true }),
    fileName: 'vehicles',
    columns: vehicleColumns,
    readBatch: async (request, query, cursor, limit) => {
      const page = await findVehicles(db, currentUser(request), { ...query, cursor, limit });
      return { rows: page.vehicles, nextCursor: page.nextCursor };
    },
  });
}
