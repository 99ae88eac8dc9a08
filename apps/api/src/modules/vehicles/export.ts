import type { FastifyInstance } from 'fastify';
import {
  CAR_TYPES,
  STATES,
  VEHICLE_DOCUMENT_KEYS,
  type DocumentKey,
  type DocumentStatus,
  type State,
} from '@bmet/shared/constants';
import { exemptDocuments } from '@bmet/shared/document-rules';
import { COMPLIANCE_FIGURE_DEFAULTS } from '@bmet/shared/driver-check-rules';
import { carTypeLabel, documentLabel, documentStatusLabel, stateLabel } from '@bmet/shared/labels';
import { m } from '@bmet/shared/paraglide/messages';
import { vehicleListQuerySchema, type Vehicle } from '@bmet/shared/schemas/vehicle';
import { fuelLabel, vehicleOwnerLabel, vehicleReasons } from '@bmet/shared/vehicle-labels';
import { FUELS, VEHICLE_OWNERS, formatRegistration } from '@bmet/shared/vehicle-rules';
import type { Db } from '../../db/client';
import { figuresInEffect } from '../fare-rules/figures';
import { istDateTime } from '../../lib/csv';
import { currentUser } from '../../plugins/authentication';
import { labelsOf, registerCsvExport, type CsvColumn } from '../../plugins/csv-export';
import { findVehicles, vehicleDocumentsOf } from './repository';

/** A vehicle with its documents' review and expiry, and those it does not need. */
type ExportedVehicle = Vehicle & {
  documents: Awaited<ReturnType<typeof vehicleDocumentsOf>> extends Map<string, infer Held> ? Held : never;
  exempt: readonly DocumentKey[];
};

/** A document's cell: its review, with its expiry; "Not needed" for one the vehicle does not need. */
function documentCell(row: ExportedVehicle, key: DocumentKey): string {
  const document = row.documents.get(key);
  if (row.exempt.includes(key) && (!document || document.status === 'not_submitted')) {
    return m.vehicleDocumentNotNeeded();
  }
  const status = documentStatusLabel((document?.status ?? 'not_submitted') as DocumentStatus);
  return document?.expiresOn ? m.exportDocumentExpires({ status, date: document.expiresOn }) : status;
}

/**
 * What a regulator asks of each vehicle: its particulars, age, driver, documents and whether it
 * may be driven.
 */
function vehicleColumns(): CsvColumn<ExportedVehicle>[] {
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
    ...VEHICLE_DOCUMENT_KEYS.map((key): CsvColumn<ExportedVehicle> => ({
      header: documentLabel(key),
      value: (row) => documentCell(row, key),
    })),
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
      const { documents } = page;
      const figures = await figuresInEffect(db);
      const rows = page.vehicles.map((vehicle): ExportedVehicle => ({
        ...vehicle,
        documents: documents.get(vehicle.id) ?? new Map(),
        exempt: exemptDocuments(
          vehicle.fuel,
          (figures.get(vehicle.state as State)?.figures ?? COMPLIANCE_FIGURE_DEFAULTS).electricPermitExempt,
        ),
      }));
      return { rows, nextCursor: page.nextCursor };
    },
  });
}
