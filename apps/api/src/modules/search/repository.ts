import { can } from '@bmet/shared/permissions';
import { SEARCH_GROUP_LIMIT } from '@bmet/shared/search-limits';
import type { SearchResults } from '@bmet/shared/schemas/search';
import type { Db } from '../../db/client';
import type { ScopeCaller } from '../../lib/scope';
import { findCityDealers, findFranchises } from '../accounts/repository';
import { findCustomers } from '../customers/repository';
import { findDrivers } from '../drivers/list-repository';
import { findTrips } from '../trips/list-repository';

const limit = SEARCH_GROUP_LIMIT;

/**
 * The header search: the first matches of each kind of record the caller may list, each found by
 * that list's own search and scope (a franchise's drivers and trips only, a city dealer's own
 * franchises), so that the search finds nothing the lists would not show. The lists run side by
 * side; a kind the caller may not list is not asked for and not answered.
 */
export async function findSearchMatches(db: Db, caller: ScopeCaller, q: string): Promise<SearchResults> {
  const [trips, drivers, customers, cityDealers, franchises] = await Promise.all([
    can(caller, ['trips', 'list'])
      ? findTrips(db, caller, { q, limit }).then((page) =>
          page.trips.map((trip) => ({
            id: trip.id,
            title: trip.title,
            createdAt: trip.createdAt,
            pickup: trip['pick-up'].location,
            destination: trip.destination.location,
          })),
        )
      : undefined,
    can(caller, ['drivers', 'list'])
      ? findDrivers(db, caller, { q, limit }).then((page) =>
          page.drivers.map((driver) => ({
            id: driver.id,
            name: driver.name,
            phoneNumber: driver.phoneNumber,
            vehicleNumber: driver.vehicleNumber,
          })),
        )
      : undefined,
    can(caller, ['customers', 'list'])
      ? findCustomers(db, { q, limit }).then((page) => page.customers)
      : undefined,
    // Accounts by name, A to Z: the lists' own order (newest first) means little to a search.
    can(caller, ['city-dealers', 'list'])
      ? findCityDealers(db, { q, limit, sort: 'name', order: 'asc' }).then((page) => page.rows)
      : undefined,
    can(caller, ['franchises', 'list'])
      ? findFranchises(db, caller, { q, limit, sort: 'name', order: 'asc' }).then((page) => page.rows)
      : undefined,
  ]);
  return {
    ...(trips && { trips }),
    ...(drivers && { drivers }),
    ...(customers && { customers }),
    ...(cityDealers && { cityDealers }),
    ...(franchises && { franchises }),
  };
}
