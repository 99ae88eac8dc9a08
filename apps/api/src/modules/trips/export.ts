import type { FastifyInstance } from 'fastify';
import { CAR_TYPES, TRIP_STATUSES } from '@bmet/shared/constants';
import { carTypeLabel, tripStatusLabel } from '@bmet/shared/labels';
import { m } from '@bmet/shared/paraglide/messages';
import { tripListQuerySchema } from '@bmet/shared/schemas/trip';
import type { Db } from '../../db/client';
import { decimal, istDateTime, rupees } from '../../lib/csv';
import { labelsOf, registerCsvExport, type CsvColumn } from '../../plugins/csv-export';
import { currentUser } from '../../plugins/authentication';
import { findTripRecordPage } from './list-repository';
import type { TripRecord } from './repository';

/**
 * The columns of a trips export, written from the records the list reads (the list's toTrip
 * shapes the same ones): the customer's phone number only for admins, as in the list; a car type
 * outside the known ones is left empty, as the list answers null for it.
 */
function tripColumns(withPhoneNumber: boolean): CsvColumn<TripRecord>[] {
  const status = labelsOf(TRIP_STATUSES, tripStatusLabel);
  const carType = labelsOf(CAR_TYPES, carTypeLabel);
  const [yes, no] = [m.tripsYes(), m.tripsNo()];
  const columns: (CsvColumn<TripRecord> | null)[] = [
    { header: m.exportColumnDateTime(), value: (trip) => istDateTime(trip.createdAt) },
    { header: m.tripsColumnTitle(), value: (trip) => trip.title },
    withPhoneNumber ? { header: m.tripsTripPhoneNumber(), value: (trip) => trip.phoneNumber } : null,
    { header: m.tripsPickUpLocation(), value: (trip) => trip.pickupLocation },
    { header: m.tripsDestinationLocation(), value: (trip) => trip.destinationLocation },
    { header: m.tripsStatus(), value: (trip) => status(trip.status) },
    { header: m.tripsPaid(), value: (trip) => (trip.paid ? yes : no) },
    { header: m.tripsFilterCarType(), value: (trip) => carType(trip.carType) },
    { header: m.driversDistanceKm(), value: (trip) => decimal(trip.distanceKm) },
    { header: m.exportColumnPrice(), value: (trip) => rupees(trip.price) },
    { header: m.tripsDriverName(), value: (trip) => trip.driverName },
    { header: m.tripsDriverPhoneNumber(), value: (trip) => trip.driverPhoneNumber },
    { header: m.tripsDriverVehicleNumber(), value: (trip) => trip.driverVehicleNumber },
    { header: m.exportColumnCancelReason(), value: (trip) => trip.cancelReason },
    { header: m.exportColumnId(), value: (trip) => trip.id },
  ];
  return columns.filter((column) => column !== null);
}

/** `GET /api/trips/export.csv`: the trip list (the admins' query, for every role) as a CSV file. */
export function registerTripExport(app: FastifyInstance, db: Db): void {
  registerCsvExport(app, {
    url: '/trips/export.csv',
    access: ['trips', 'list'],
    tags: ['trips'],
    summary: 'The trips the caller may see, as a CSV file: every matching row, newest first',
    description:
      'Takes the query of `GET /api/trips` without `limit` and `cursor`, and answers the rows the list would show the caller, page after page.',
    query: tripListQuerySchema.omit({ limit: true, cursor: true }),
    fileName: 'trips',
    columns: (request) => tripColumns(currentUser(request).role === 'admin'),
    readBatch: async (request, query, cursor, limit) => {
      const user = currentUser(request);
      return findTripRecordPage(db, { id: user.id, role: user.role }, { ...query, cursor, limit });
    },
  });
}
