import type { FastifyInstance } from 'fastify';
import { STATES } from '@bmet/shared/constants';
import { stateLabel } from '@bmet/shared/labels';
import { m } from '@bmet/shared/paraglide/messages';
import {
  cityDealerExportQuerySchema,
  franchiseListQuerySchema,
  type CityDealer,
  type Franchise,
} from '@bmet/shared/schemas/account';
import type { Db } from '../../db/client';
import { istDateTime } from '../../lib/csv';
import { labelsOf, registerCsvExport, type CsvColumn } from '../../plugins/csv-export';
import { currentUser } from '../../plugins/authentication';
import { findCityDealers, findFranchises } from './repository';

/** The columns both account lists share, around the ones of their own. */
function accountColumns<T extends CityDealer | Franchise>(own: CsvColumn<T>[]): CsvColumn<T>[] {
  const state = labelsOf(STATES, stateLabel);
  const [yes, no] = [m.tripsYes(), m.tripsNo()];
  return [
    { header: m.commonName(), value: (account) => account.name },
    { header: m.commonEmail(), value: (account) => account.email },
    { header: m.commonState(), value: (account) => state(account.state) },
    ...own,
    { header: m.exportColumnCreated(), value: (account) => istDateTime(account.createdAt) },
    { header: m.accountDisabledTag(), value: (account) => (account.disabled ? yes : no) },
    { header: m.exportColumnId(), value: (account) => account.id },
  ];
}

/**
 * `GET /api/city_dealer/export.csv` and `GET /api/franchise/export.csv`: the city dealer list
 * (admins) and the franchise list (admins: all; a city dealer: its own) as CSV files.
 */
export function registerAccountExports(app: FastifyInstance, db: Db): void {
  registerCsvExport(app, {
    url: '/city_dealer/export.csv',
    access: ['city-dealers', 'list'],
    tags: ['city-dealers'],
    summary: 'The city dealers as a CSV file, with their franchise and driver counts, newest first',
    description:
      'Takes the filters of `POST /api/city_dealer/getcitydealers` (`q`, `state`) as a query, and answers the rows of the list, page after page.',
    query: cityDealerExportQuerySchema,
    fileName: 'city-dealers',
    columns: () =>
      accountColumns<CityDealer>([
        { header: m.dealersFranchises(), value: (dealer) => dealer.franchiseCount },
        { header: m.dealersDrivers(), value: (dealer) => dealer.driverCount },
      ]),
    readBatch: async (_request, query, cursor, limit) => {
      const page = await findCityDealers(db, { ...query, cursor, limit });
      return { rows: page.rows, nextCursor: page.nextCursor };
    },
  });

  registerCsvExport(app, {
    url: '/franchise/export.csv',
    access: ['franchises', 'list'],
    tags: ['franchises'],
    summary: 'The franchises the caller may see as a CSV file, with their city dealer and driver count',
    description:
      'Takes the query of `GET /api/franchise/getFranchise` without `limit` and `cursor`, and answers the rows the list would show the caller (a city dealer: its own), page after page.',
    query: franchiseListQuerySchema.omit({ limit: true, cursor: true }),
    fileName: 'franchises',
    columns: () =>
      accountColumns<Franchise>([
        { header: m.franchisesCityDealer(), value: (franchise) => franchise.dealerName },
        { header: m.franchisesDrivers(), value: (franchise) => franchise.driverCount },
      ]),
    readBatch: async (request, query, cursor, limit) => {
      const page = await findFranchises(db, currentUser(request), { ...query, cursor, limit });
      return { rows: page.rows, nextCursor: page.nextCursor };
    },
  });
}
