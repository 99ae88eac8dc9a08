import { and, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { readSearchTerms } from '@bmet/shared/search-terms';
import { z } from 'zod';
import type { SortOrder, TripSort } from '@bmet/shared/schemas/sort';
import type { TripListFilters } from '@bmet/shared/schemas/trip';
import { trips } from '../../db/schema';
import { cursorTimestampSchema, decodeCursor, escapeLikePattern, newestFirst } from '../../lib/paging';
import { indianHour } from '../../lib/indian-time';
import { nextDate, startOfIndianDay } from '../../lib/ist-days';
import type { KeyPart } from '../../lib/sort';
import { refuseNul } from '../../lib/text';

// The trip list's filters, sorts and cursor, read into the conditions of its statements: newest
// first by default, keyset on (created_at, id).

/**
 * Newest first, spelled as the trips indexes are built: DESC NULLS LAST. A bare DESC means NULLS
 * FIRST, which those indexes cannot serve (created_at is never null, but the planner does not use
 * that), and the list would sort the whole table for every page.
 */
export const NEWEST_FIRST = newestFirst(trips.createdAt, trips.id);

const listCursorSchema = z.object({ at: cursorTimestampSchema, id: z.uuid() }).strict();

/** A trip list as the API reads it: the contract's filters and page, and the spec's driver ids. */
export type TripListOptions = TripListFilters & {
  limit: number;
  cursor?: string;
  /** Narrows the caller's scope to these drivers' trips; never widens it. */
  driverIds?: string[];
};

/**
 * The key of each sort other than the list's own (newest first, read by the paths below): by time
 * either way (trips_created_idx), by price with unknown prices as the lowest (trips_price_idx), by
 * status in the order of the enum, newest first within a status (trips_status_created_idx, read
 * backwards for `desc`).
 */
export const TRIP_KEYS: Record<TripSort, KeyPart[]> = {
  createdAt: [
    { expression: trips.createdAt, type: 'timestamptz', indexDesc: true },
    { expression: trips.id, type: 'uuid', indexDesc: true },
  ],
  price: [
    { expression: sql`coalesce(${trips.price}, -1)`, type: 'float8' },
    { expression: trips.id, type: 'uuid' },
  ],
  status: [
    { expression: trips.status, type: 'trip_status' },
    { expression: trips.createdAt, type: 'timestamptz', indexDesc: true, reversed: true },
    { expression: trips.id, type: 'uuid', indexDesc: true, reversed: true },
  ],
};

/** The list's own order, which the paths of buildTripListQueries read. */
export const isNewestFirst = (sort: { field: TripSort; order: SortOrder }) =>
  sort.field === 'createdAt' && sort.order === 'desc';

export const isBareDate = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value);

/**
 * The trip's created_at (or another moment) within [from, to], both inclusive; a bare `to`
 * includes its whole day.
 */
export function dateConditions(
  from: string | undefined,
  to: string | undefined,
  column: AnyColumn = trips.createdAt,
): SQL[] {
  const conditions: SQL[] = [];
  if (from) {
    const start = isBareDate(from) ? startOfIndianDay(from) : from;
    conditions.push(sql`${column} >= ${start}::timestamptz`);
  }
  if (to) {
    conditions.push(
      isBareDate(to)
        ? sql`${column} < ${startOfIndianDay(nextDate(to))}::timestamptz`
        : sql`${column} <= ${to}::timestamptz`,
    );
  }
  return conditions;
}

/** The filters of a list and the keyset after its cursor: every condition but the scope. */
/** The values of a list's filters and cursor, as the statement takes them; only those given. */
export type ListValues = {
  /** The search's words (readSearchTerms), each a LIKE pattern's escaped text: w0 to w4. */
  w0?: string;
  w1?: string;
  w2?: string;
  w3?: string;
  w4?: string;
  /** A phone number's last ten digits. */
  phone?: string;
  /** A registration number, normalised. */
  registration?: string;
  tripId?: string;
  shortId?: string;
  status?: string;
  paid?: boolean;
  carType?: string;
  hour?: number;
  from?: string;
  /** The end of a bare `to` date: the start of the next Indian day, excluded. */
  before?: string;
  /** A `to` moment, included. */
  until?: string;
  afterAt?: string;
  afterId?: string;
};

const WORD_KEYS = ['w0', 'w1', 'w2', 'w3', 'w4'] as const;

/** A search's values: only those that apply, so that each kind of search is a shape of its own. */
function searchValues(q: string): ListValues {
  const search = readSearchTerms(q);
  const values: ListValues = {};
  search.words.forEach((word, i) => (values[WORD_KEYS[i]!] = escapeLikePattern(word)));
  if (search.phone) values.phone = search.phone;
  if (search.registration) values.registration = search.registration;
  if (search.tripId) values.tripId = search.tripId;
  if (search.shortId) values.shortId = search.shortId;
  return values;
}

/** The pick-up and the destination as one lowered text: what trips_places_search_idx indexes. */
export const tripPlaces = sql`lower(coalesce(${trips.pickupLocation}, '') || ' ' || coalesce(${trips.destinationLocation}, ''))`;

/** A search's words (w0 to w4), as the values or placeholders of its LIKE patterns. */
export function searchWords(values: ListValues): unknown[] {
  return WORD_KEYS.filter((key) => key in values).map((key) => values[key]);
}

/** Every one of `words` in `text`. */
export const everyWord = (text: SQL, words: unknown[]) =>
  and(...words.map((word) => sql`${text} like '%' || ${word} || '%'`))!;

/**
 * The branches of a trip search but the name's and the phone's (decision 031): every word in the
 * pick-up and destination (trips_places_search_idx); or a vehicle its driver ever drove
 * (vehicles_search_idx); or its id, or the id's last 6 characters (trips_short_id_idx).
 */
function otherSearchBranches(values: ListValues, words: unknown[]): SQL[] {
  const branches: (SQL | undefined)[] = [
    everyWord(tripPlaces, words),
    'registration' in values
      ? sql`${trips.driverId} = any(array(select a.driver_id from vehicles v
          join vehicle_assignments a on a.vehicle_id = v.id
          where v.search_text like '%' || lower(${values.registration}) || '%'))`
      : undefined,
    'tripId' in values ? sql`${trips.id} = ${values.tripId}::uuid` : undefined,
    'shortId' in values ? sql`right(${trips.id}::text, 6) = ${values.shortId}` : undefined,
  ];
  return branches.filter((branch): branch is SQL => branch !== undefined);
}

/**
 * A trip search as one condition: every word in the customer's name (the title, as the spec
 * searched it; trips_title_search_idx), or one of the other branches. Each branch is one an index
 * answers, so PostgreSQL can combine them, and each is selective or cheap to test row by row, so
 * it can also walk the newest trips. An admin's list reads a name or place search by its parts
 * instead (list-planner.ts, `searchedPage`).
 *
 * A phone number is searched as the customer's phone alone: a name or a pair of places holding ten
 * digits is not one staff look for, and weighing those two branches cost PostgreSQL more to plan
 * than the phone's index costs to read (decision 031).
 */
function searchCondition(values: ListValues): SQL | undefined {
  const words = searchWords(values);
  if (words.length === 0) return undefined;
  // The customer's phone, by its last ten digits (trips_phone_key_idx).
  if ('phone' in values) return sql`phone_key(${trips.phoneNumber}) = ${values.phone}`;
  // The same expression as trips_title_search_idx, so that the trigram index can answer it.
  return or(everyWord(sql`lower(${trips.title})`, words), ...otherSearchBranches(values, words));
}

/** A list's filters and cursor, checked and read into the values of its conditions. */
export function listValues(options: TripListOptions): ListValues {
  refuseNul('q', options.q);
  const after = options.cursor ? decodeCursor(options.cursor, listCursorSchema) : null;
  const values: ListValues = {};
  if (options.q) Object.assign(values, searchValues(options.q));
  if (options.status) values.status = options.status;
  if (options.paid !== undefined) values.paid = options.paid;
  if (options.carType) values.carType = options.carType;
  if (options.hour !== undefined) values.hour = options.hour;
  if (options.from) values.from = isBareDate(options.from) ? startOfIndianDay(options.from) : options.from;
  if (options.to) {
    if (isBareDate(options.to)) values.before = startOfIndianDay(nextDate(options.to));
    else values.until = options.to;
  }
  if (after) {
    values.afterAt = after.at;
    values.afterId = after.id;
  }
  return values;
}

/**
 * The conditions of a list's values (real ones, or placeholders when queryShapes builds a shape:
 * which conditions apply follows from which values are given).
 */
export function conditionsOf(values: ListValues): SQL[] {
  const search = searchCondition(values);
  return search ? [search, ...filterConditions(values)] : filterConditions(values);
}

/** The conditions of a list's values but its search: its filters and the keyset of its cursor. */
export function filterConditions(values: ListValues): SQL[] {
  const conditions: (SQL | undefined)[] = [
    'status' in values ? sql`${trips.status} = ${values.status}` : undefined,
    'paid' in values ? sql`${trips.paid} = ${values.paid}` : undefined,
    'carType' in values ? sql`${trips.carType} = ${values.carType}` : undefined,
    'hour' in values ? sql`${indianHour(trips.createdAt)} = ${values.hour}` : undefined,
    'from' in values ? sql`${trips.createdAt} >= ${values.from}::timestamptz` : undefined,
    'before' in values ? sql`${trips.createdAt} < ${values.before}::timestamptz` : undefined,
    'until' in values ? sql`${trips.createdAt} <= ${values.until}::timestamptz` : undefined,
    'afterAt' in values
      ? sql`(${trips.createdAt}, ${trips.id}) < (${values.afterAt}::timestamptz, ${values.afterId}::uuid)`
      : undefined,
  ];
  return conditions.filter((condition): condition is SQL => condition !== undefined);
}

/** The filters of a list and the keyset after its cursor: every condition but the scope. */
export function listConditions(options: TripListOptions): SQL[] {
  return conditionsOf(listValues(options));
}
