import { and, desc, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import { CAR_TYPES, STATES, VEHICLE_DOCUMENT_KEYS, type CarType, type State } from '@bmet/shared/constants';
import type { ComplianceProblem } from '@bmet/shared/schemas/driver';
import { AppError } from '@bmet/shared/errors';
import { m } from '@bmet/shared/paraglide/messages';
import { DEFAULT_ORDERS, VEHICLE_SORTS, resolveSort } from '@bmet/shared/schemas/sort';
import type {
  CreateVehicleBody,
  UpdateVehicleBody,
  Vehicle,
  VehicleAssignment,
  vehicleListQuerySchema,
} from '@bmet/shared/schemas/vehicle';
import {
  FUELS,
  VEHICLE_OWNERS,
  isPastAgeLimit,
  normaliseRegistration,
  type Fuel,
  type VehicleOwner,
  type VehicleProblem,
} from '@bmet/shared/vehicle-rules';
import type { Db, DbExecutor } from '../../db/client';
import { pageLimit } from '../../db/page-limit';
import { anyOf } from '../../db/any-of';
import { retriedTransaction } from '../../db/retry-on-deadlock';
import { rowsOf } from '../../db/rows';
import { problemOf, vehicleExemptKeys } from '../compliance/status';
import { accounts, drivers, vehicleAssignments, vehicles } from '../../db/schema';
import { recordAudit } from '../../infra/audit';
import { indianToday } from '../../lib/ist-days';
import { cappedCountQuery, escapeLikePattern, pageWithTotal, withTotal } from '../../lib/paging';
import {
  franchiseAccountScope,
  franchiseIdScope,
  type ChangeCaller,
  type ScopeCaller,
} from '../../lib/scope';
import {
  afterKey,
  decodeSortedCursor,
  keyColumn,
  orderByKey,
  sortedPage,
  type KeyPart,
} from '../../lib/sort';
import { refuseNul } from '../../lib/text';
import { actorOf, lockDriver } from '../drivers/repository';
import { findDriverDocuments, findParkedDocuments } from '../drivers/documents-repository';
import { figuresByStateJson, figuresInEffect } from '../fare-rules/figures';
import { COMPLIANCE_FIGURE_DEFAULTS, type ComplianceFigures } from '@bmet/shared/driver-check-rules';
import { exemptDocuments } from '@bmet/shared/document-rules';

/**
 * Vehicles (decision 029): in the scope of the franchise they work for, as drivers are. The driver
 * app's car details create and update them through the database's triggers (migration 0030); staff
 * add the rest, create vehicles the app has not reported, and assign them.
 */

const franchise = alias(accounts, 'vehicle_franchise');
const driver = alias(drivers, 'vehicle_driver');

const columns = {
  id: vehicles.id,
  registrationNumber: vehicles.registrationNumber,
  make: vehicles.make,
  model: vehicles.model,
  year: vehicles.year,
  colour: vehicles.colour,
  firstRegisteredOn: vehicles.firstRegisteredOn,
  fuel: vehicles.fuel,
  carType: vehicles.carType,
  seats: vehicles.seats,
  owner: vehicles.owner,
  state: vehicles.state,
  franchiseId: vehicles.franchiseId,
  franchiseName: sql<string | null>`coalesce(${franchise.displayName}, ${franchise.email})`,
  driverId: vehicles.driverId,
  driverName: driver.name,
  createdAt: vehicles.createdAt,
  updatedAt: vehicles.updatedAt,
};
type VehicleRow = Awaited<ReturnType<typeof selectVehicles>>[number];

const oneOf = <T extends string>(values: readonly T[], value: string | null): T | null =>
  value !== null && (values as readonly string[]).includes(value) ? (value as T) : null;

/** Whole years from a day to another (YYYY-MM-DD), a birthday counted on its day. */
function wholeYears(from: string, to: string): number {
  const years = Number(to.slice(0, 4)) - Number(from.slice(0, 4));
  return to.slice(5) >= from.slice(5) ? years : years - 1;
}

/** The day a vehicle's age counts from: its first registration, else 1 January of its model year. */
const ageStart = sql`coalesce(${vehicles.firstRegisteredOn}, make_date(${vehicles.year}, 1, 1))`;

/**
 * Vehicles older than their state allows on a day, as a condition (the compliance filter);
 * `figures` is each state's figures as JSON (figuresByStateJson).
 */
function overAge(today: string, figures: string): SQL {
  const years = sql`coalesce((${figures}::jsonb -> ${vehicles.state} ->> 'vehicleMaxAgeYears')::int, ${COMPLIANCE_FIGURE_DEFAULTS.vehicleMaxAgeYears}::int)`;
  return sql`${ageStart} < (${today}::date - make_interval(years => ${years}))`;
}

/** A vehicle's documents as compliance reads them, by key. */
type HeldDocuments = Map<string, { status: string; expiresOn: string | null }>;

/**
 * The documents of a page of vehicles in one round trip: those their drivers hold for them, and
 * those parked with the vehicles nobody drives (decision 030).
 */
export async function vehicleDocumentsOf(db: DbExecutor, ids: string[]): Promise<Map<string, HeldDocuments>> {
  const found = new Map<string, HeldDocuments>();
  if (ids.length === 0) return found;
  const rows = rowsOf(
    await db.execute(sql`
      select v.id as vehicle_id, d.key, d.status::text as status, d.expires_on::text as expires_on
      from vehicles v join driver_documents d on d.driver_id = v.driver_id
      where ${anyOf(sql`v.id`, ids, 'uuid')} and d.key = any(vehicle_document_keys())
      union all
      select p.vehicle_id, p.key, p.status::text, p.expires_on::text
      from vehicle_documents p where ${anyOf(sql`p.vehicle_id`, ids, 'uuid')}`),
  );
  for (const row of rows) {
    const documents = found.get(String(row.vehicle_id)) ?? new Map();
    documents.set(String(row.key), {
      status: String(row.status),
      expiresOn: row.expires_on === null ? null : String(row.expires_on),
    });
    found.set(String(row.vehicle_id), documents);
  }
  return found;
}

/**
 * The vehicles whose documents are all in order on a day, as a condition (the compliance filter):
 * each document the vehicle needs (exemptDocuments) approved and unexpired, wherever it is held.
 */
function documentsInOrder(today: string, figures: string): SQL {
  const exempt = vehicleExemptKeys(vehicles.fuel, vehicles.state, figures);
  return sql`((select count(*) from (
      select d.key, d.status, d.expires_on from driver_documents d
      where d.driver_id = ${vehicles.driverId} and d.key = any(vehicle_document_keys())
      union all
      select p.key, p.status, p.expires_on from vehicle_documents p where p.vehicle_id = ${vehicles.id}
    ) held
    where held.status = 'approved' and (held.expires_on is null or held.expires_on >= ${today}::date)
      and not (held.key = any(${exempt})))
    = ${VEHICLE_DOCUMENT_KEYS.length}::int - cardinality(${exempt}))`;
}

export function toVehicle(
  row: VehicleRow,
  today: string,
  figures: ComplianceFigures,
  documents: HeldDocuments | undefined,
): Vehicle {
  const maxAgeYears = figures.vehicleMaxAgeYears;
  const from = row.firstRegisteredOn ?? (row.year ? `${row.year}-01-01` : null);
  const ageYears = from ? Math.max(0, wholeYears(from, today)) : null;
  const problems: VehicleProblem[] = [];
  // Older than the limit: the limit's years after the start have passed.
  if (from && isPastAgeLimit(from, maxAgeYears, today)) {
    problems.push('over_age');
  }
  const exempt = exemptDocuments(row.fuel, figures.electricPermitExempt);
  const documentProblems: ComplianceProblem[] = [];
  for (const key of VEHICLE_DOCUMENT_KEYS) {
    if (exempt.includes(key)) continue;
    const problem = problemOf(documents?.get(key), today);
    if (problem) documentProblems.push({ document: key, problem });
  }
  return {
    ...row,
    fuel: oneOf<Fuel>(FUELS, row.fuel),
    carType: oneOf<CarType>(CAR_TYPES, row.carType),
    owner: oneOf<VehicleOwner>(VEHICLE_OWNERS, row.owner),
    state: oneOf<State>(STATES, row.state),
    ageYears,
    ageFrom: row.firstRegisteredOn ? 'first_registration' : row.year ? 'model_year' : null,
    ageLimitYears: maxAgeYears,
    compliance: {
      compliant: problems.length === 0 && documentProblems.length === 0,
      problems,
      documents: documentProblems,
    },
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The figures of a vehicle's state today. */
const figuresOf = (figures: Awaited<ReturnType<typeof figuresInEffect>>, state: string | null) =>
  figures.get(state as State)?.figures ?? COMPLIANCE_FIGURE_DEFAULTS;

function selectVehicles(db: DbExecutor) {
  return db
    .select(columns)
    .from(vehicles)
    .leftJoin(franchise, eq(franchise.id, vehicles.franchiseId))
    .leftJoin(driver, eq(driver.id, vehicles.driverId));
}

/** The vehicles a caller may see: those of the franchises whose drivers it sees. */
export function vehicleScope(caller: ScopeCaller): SQL | undefined {
  return franchiseIdScope(caller, vehicles.franchiseId);
}

// ---------------------------------------------------------------------------------------------
// The list

export type VehicleListOptions = z.output<typeof vehicleListQuerySchema>;

function vehicleKey(field: (typeof VEHICLE_SORTS)[number]): KeyPart[] {
  const id: KeyPart = { expression: vehicles.id, type: 'uuid' };
  return field === 'registrationNumber'
    ? [{ expression: vehicles.registrationNumber, type: 'text' }, id]
    : [{ expression: vehicles.createdAt, type: 'timestamptz' }, id];
}

/** A page of the caller's vehicles in the sort's order, with the next page's cursor and the count of all. */
export async function findVehicles(db: Db, caller: ScopeCaller, options: VehicleListOptions) {
  refuseNul('q', options.q);
  const sort = resolveSort(VEHICLE_SORTS, DEFAULT_ORDERS.vehicles, options);
  const key = vehicleKey(sort.field);
  const after = options.cursor ? decodeSortedCursor(options.cursor, sort, key) : null;
  const today = indianToday();
  const figures = await figuresInEffect(db);
  const figuresJson = options.compliance ? await figuresByStateJson(db) : '{}';
  const number = options.q ? normaliseRegistration(options.q) : '';
  const search = options.q
    ? or(
        sql`${vehicles.searchText} like '%' || lower(${escapeLikePattern(options.q)}) || '%'`,
        // A number typed with other spacing (`mh 12 ab` finds MH12AB1234).
        number ? sql`${vehicles.registrationNumber} like '%' || ${number} || '%'` : undefined,
      )
    : undefined;
  const filter = and(
    vehicleScope(caller),
    search,
    options.driverId ? eq(vehicles.driverId, options.driverId) : undefined,
    options.compliance === 'not_compliant'
      ? sql`(coalesce(${overAge(today, figuresJson)}, false) or not ${documentsInOrder(today, figuresJson)})`
      : undefined,
    options.compliance === 'compliant'
      ? sql`(not coalesce(${overAge(today, figuresJson)}, false) and ${documentsInOrder(today, figuresJson)})`
      : undefined,
  );
  const page = db
    .select({ ...columns, sortKey: keyColumn(key) })
    .from(vehicles)
    .leftJoin(franchise, eq(franchise.id, vehicles.franchiseId))
    .leftJoin(driver, eq(driver.id, vehicles.driverId))
    .where(and(filter, after ? afterKey(key, sort.order, after.k) : undefined))
    .orderBy(...orderByKey(key, sort.order))
    .limit(pageLimit(options.limit + 1));
  const total = after?.t !== undefined ? null : cappedCountQuery(db, vehicles, filter);
  const { rows: found, listTotal } = await pageWithTotal(page, total, {
    limit: options.limit,
    kept: false,
    after,
  });
  const { shown, nextCursor } = sortedPage(found, options.limit, sort, withTotal({}, listTotal));
  const documents = await vehicleDocumentsOf(
    db,
    shown.map((row) => row.id),
  );
  return {
    vehicles: shown.map(({ sortKey: _sortKey, ...row }) =>
      toVehicle(row, today, figuresOf(figures, row.state), documents.get(row.id)),
    ),
    /** Each vehicle's documents by key (the export writes them). */
    documents,
    nextCursor,
    ...listTotal,
  };
}

// ---------------------------------------------------------------------------------------------
// One vehicle, with who drove it

/** At most this many assignments come with a vehicle, newest first. */
export const VEHICLE_ASSIGNMENTS_LIMIT = 50;

const assignedBy = alias(accounts, 'assigned_by');
const assignedDriver = alias(drivers, 'assigned_driver');

export async function findVehicle(db: DbExecutor, caller: ScopeCaller, id: string) {
  const [row] = await selectVehicles(db).where(and(eq(vehicles.id, id), vehicleScope(caller)));
  if (!row) throw new AppError('NOT_FOUND', m.notFound());
  const assignments = await db
    .select({
      driverId: vehicleAssignments.driverId,
      driverName: assignedDriver.name,
      since: vehicleAssignments.since,
      until: vehicleAssignments.until,
      source: vehicleAssignments.source,
      byName: sql<string | null>`coalesce(${assignedBy.displayName}, ${assignedBy.email})`,
    })
    .from(vehicleAssignments)
    .innerJoin(assignedDriver, eq(assignedDriver.id, vehicleAssignments.driverId))
    .leftJoin(assignedBy, eq(assignedBy.id, vehicleAssignments.by))
    .where(eq(vehicleAssignments.vehicleId, id))
    .orderBy(desc(vehicleAssignments.since), desc(vehicleAssignments.id))
    .limit(VEHICLE_ASSIGNMENTS_LIMIT);
  const figures = await figuresInEffect(db);
  const documents = row.driverId
    ? await findDriverDocuments(db, row.driverId, 'vehicle')
    : await findParkedDocuments(db, id);
  const stateFigures = figuresOf(figures, row.state);
  const held: HeldDocuments = new Map(documents.map((document) => [document.key, document]));
  return {
    ...toVehicle(row, indianToday(), stateFigures, held),
    documents,
    exemptDocuments: exemptDocuments(row.fuel, stateFigures.electricPermitExempt),
    assignments: assignments.map((assignment): VehicleAssignment => ({
      ...assignment,
      since: assignment.since.toISOString(),
      until: assignment.until?.toISOString() ?? null,
      source: assignment.source === 'staff' ? 'staff' : 'app',
    })),
  };
}

/** A vehicle as the lists show it, without its page's assignments and documents: what a change answers. */
async function findVehicleRecord(db: DbExecutor, caller: ScopeCaller, id: string): Promise<Vehicle> {
  const {
    assignments: _assignments,
    documents: _documents,
    exemptDocuments: _exempt,
    ...vehicle
  } = await findVehicle(db, caller, id);
  return vehicle;
}

// ---------------------------------------------------------------------------------------------
// Changes, each audited

/** The fields staff write, as stored. */
function storedFields(body: UpdateVehicleBody) {
  const fields: Partial<typeof vehicles.$inferInsert> = {};
  for (const name of [
    'registrationNumber',
    'make',
    'model',
    'year',
    'colour',
    'firstRegisteredOn',
    'fuel',
    'carType',
    'seats',
    'owner',
    'state',
  ] as const) {
    if (body[name] !== undefined) (fields as Record<string, unknown>)[name] = body[name];
  }
  return fields;
}

/** A number another vehicle holds already: a 409 naming it. */
async function refuseTakenNumber(tx: DbExecutor, number: string, except?: string): Promise<void> {
  const [taken] = await tx
    .select({ id: vehicles.id })
    .from(vehicles)
    .where(eq(vehicles.registrationNumber, number));
  if (taken && taken.id !== except) {
    throw new AppError('CONFLICT', m.vehicleNumberInUse(), {
      fieldErrors: { registrationNumber: [m.vehicleNumberInUse()] },
    });
  }
}

/**
 * The franchise a new vehicle works for: a franchise's own; one of a city dealer's franchises,
 * named; any franchise or none for an admin.
 */
async function franchiseOfNew(tx: DbExecutor, caller: ScopeCaller, franchiseId: string | null | undefined) {
  if (caller.role === 'franchise') return caller.id;
  if (!franchiseId) {
    if (caller.role === 'admin') return null;
    throw new AppError('VALIDATION', m.vehicleFranchiseRequired(), {
      fieldErrors: { franchiseId: [m.vehicleFranchiseRequired()] },
    });
  }
  const [found] = await tx
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(eq(accounts.id, franchiseId), franchiseAccountScope(caller, accounts)));
  if (!found) {
    throw new AppError('VALIDATION', m.vehicleFranchiseUnknown(), {
      fieldErrors: { franchiseId: [m.vehicleFranchiseUnknown()] },
    });
  }
  return found.id;
}

export async function createVehicle(db: Db, caller: ChangeCaller, body: CreateVehicleBody): Promise<Vehicle> {
  const id = await db.transaction(async (transaction) => {
    const tx = transaction as unknown as DbExecutor;
    const franchiseId = await franchiseOfNew(tx, caller, body.franchiseId);
    await refuseTakenNumber(tx, body.registrationNumber);
    const fields = storedFields(body);
    // Without a state named, the vehicle's is its franchise's.
    if (fields.state === undefined && franchiseId) {
      const [home] = await tx
        .select({ state: accounts.state })
        .from(accounts)
        .where(eq(accounts.id, franchiseId));
      fields.state = home?.state ?? null;
    }
    const [created] = await tx
      .insert(vehicles)
      .values({ ...fields, registrationNumber: body.registrationNumber, franchiseId })
      .onConflictDoNothing()
      .returning({ id: vehicles.id });
    // Another request took the number between the check and the insert.
    if (!created) await refuseTakenNumber(tx, body.registrationNumber);
    await recordAudit(tx, actorOf(caller), {
      action: 'create',
      resource: 'vehicles',
      resourceId: created!.id,
      before: null,
      after: { ...fields, franchiseId },
    });
    return created!.id;
  });
  return findVehicleRecord(db, caller, id);
}

/** Locks a vehicle of the caller's scope for a change. */
async function lockVehicle(tx: DbExecutor, caller: ScopeCaller, id: string) {
  const [row] = await tx
    .select()
    .from(vehicles)
    .where(and(eq(vehicles.id, id), vehicleScope(caller)))
    .for('update');
  if (!row) throw new AppError('NOT_FOUND', m.notFound());
  return row;
}

export async function updateVehicle(
  db: Db,
  caller: ChangeCaller,
  id: string,
  body: UpdateVehicleBody,
): Promise<Vehicle> {
  await retriedTransaction(db, async (transaction) => {
    const tx = transaction as unknown as DbExecutor;
    const before = await lockVehicle(tx, caller, id);
    const fields = storedFields(body);
    const changed = Object.entries(fields).filter(
      ([name, value]) => before[name as keyof typeof before] !== value,
    );
    if (changed.length === 0) return;
    if (fields.registrationNumber && fields.registrationNumber !== before.registrationNumber) {
      await refuseTakenNumber(tx, fields.registrationNumber, id);
    }
    await tx
      .update(vehicles)
      .set({ ...Object.fromEntries(changed), updatedAt: new Date() })
      .where(eq(vehicles.id, id));
    await recordAudit(tx, actorOf(caller), {
      action: 'update',
      resource: 'vehicles',
      resourceId: id,
      before: Object.fromEntries(changed.map(([name]) => [name, before[name as keyof typeof before]])),
      after: Object.fromEntries(changed),
    });
  });
  return findVehicleRecord(db, caller, id);
}

/**
 * Gives the vehicle to a driver of the caller's scope from now (their earlier vehicle, and the
 * vehicle's earlier driver, are let go), or to nobody. The vehicle then works for the driver's
 * franchise.
 */
export async function assignVehicle(
  db: Db,
  caller: ChangeCaller,
  id: string,
  driverId: string | null,
): Promise<Vehicle> {
  await retriedTransaction(db, async (transaction) => {
    const tx = transaction as unknown as DbExecutor;
    const before = await lockVehicle(tx, caller, id);
    const target = driverId ? await lockDriver(tx, caller, driverId) : null;
    if (driverId && !target) {
      throw new AppError('VALIDATION', m.vehicleDriverUnknown(), {
        fieldErrors: { driverId: [m.vehicleDriverUnknown()] },
      });
    }
    if (before.driverId === driverId) return;
    const now = new Date();
    await tx
      .update(vehicleAssignments)
      .set({ until: now })
      .where(
        and(
          isNull(vehicleAssignments.until),
          or(
            eq(vehicleAssignments.vehicleId, id),
            driverId ? eq(vehicleAssignments.driverId, driverId) : undefined,
          ),
        ),
      );
    if (driverId) {
      await tx
        .update(vehicles)
        .set({ driverId: null, updatedAt: now })
        .where(eq(vehicles.driverId, driverId));
    }
    await tx
      .update(vehicles)
      .set({
        driverId,
        updatedAt: now,
        ...(target ? { franchiseId: target.franchiseId, state: before.state ?? target.state } : {}),
      })
      .where(eq(vehicles.id, id));
    if (driverId) {
      await tx
        .insert(vehicleAssignments)
        .values({ vehicleId: id, driverId, since: now, source: 'staff', by: caller.id });
    }
    await recordAudit(tx, actorOf(caller), {
      action: 'assign',
      resource: 'vehicles',
      resourceId: id,
      before: { driverId: before.driverId },
      after: { driverId },
    });
  });
  return findVehicleRecord(db, caller, id);
}
