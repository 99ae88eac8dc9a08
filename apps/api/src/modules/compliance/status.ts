import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { type DocumentKey } from '@bmet/shared/constants';
import { MANDATORY_DOCUMENTS, exemptDocuments } from '@bmet/shared/document-rules';
import { checkProblemOf, checkStatuses, type CheckRecord } from '@bmet/shared/check-status';
import { COMPLIANCE_FIGURE_DEFAULTS, type ComplianceFigures } from '@bmet/shared/driver-check-rules';
import type { State } from '@bmet/shared/constants';
import { isPastAgeLimit } from '@bmet/shared/vehicle-rules';
import { figuresInEffect } from '../fare-rules/figures';
import type { Compliance, ComplianceCheckProblem, ComplianceProblem } from '@bmet/shared/schemas/driver';
import { anyOf } from '../../db/any-of';
import { withColumnAround, type BuiltQuery } from '../../db/row-reader';
import { rowsOf } from '../../db/rows';
import { driverChecks, driverDocuments, drivers } from '../../db/schema';
import type { DbExecutor } from '../../db/client';
import { indianToday } from '../../lib/ist-days';

const MANDATORY: readonly string[] = MANDATORY_DOCUMENTS;

/**
 * The mandatory documents the vehicle of the driver in `drivers` does not need (exemptDocuments):
 * an electric vehicle's pollution certificate, and its permit where its state exempts it.
 */
function exemptKeys(figures: unknown): SQL {
  return sql`coalesce((select ${vehicleExemptKeys(sql`v.fuel`, sql`v.state`, figures)}
    from vehicles v where v.driver_id = ${drivers.id}), '{}'::text[])`;
}

/**
 * The mandatory documents a vehicle of this fuel and state does not need, as a text array (what
 * exemptDocuments decides in the code); `figures` is each state's figures as JSON.
 */
export function vehicleExemptKeys(fuel: SQL | AnyColumn, state: SQL | AnyColumn, figures: unknown): SQL {
  return sql`(case when ${fuel} = 'electric' then
      case when coalesce((${figures}::jsonb -> ${state} ->> 'electricPermitExempt')::boolean, false)
        then array['pollutionCertificate', 'vehiclePermit'] else array['pollutionCertificate'] end
      else '{}'::text[] end)`;
}

/**
 * Whether each mandatory document of the driver in `drivers` that their vehicle needs is approved
 * and unexpired, as a condition: the driver list's compliance filter. An approved document without
 * a recorded expiry (approved before expiry dates were entered) counts as valid.
 */
function mandatoryInOrder(today: unknown, figures: unknown): SQL {
  return sql`((select count(*) from ${driverDocuments}
    where ${driverDocuments.driverId} = ${drivers.id}
      and ${anyOf(driverDocuments.key, MANDATORY, 'text')}
      and not (${driverDocuments.key} = any(${exemptKeys(figures)}))
      and ${driverDocuments.status} = 'approved'
      and (${driverDocuments.expiresOn} is null or ${driverDocuments.expiresOn} >= ${today}::date))
    = ${MANDATORY.length}::int - cardinality(${exemptKeys(figures)}))`;
}

/**
 * Whether the checks of the driver in `drivers` are in order on a day, as a condition (what
 * checkProblemOf decides for one driver): police verification and medical fitness passed and
 * unexpired, induction of the hours asked, health and term cover of the amounts asked and
 * unexpired, and a refresher (or else the induction) within its months. Remedial training, due
 * within the quarter, does not count.
 */
function checksInOrder(today: unknown, figures: unknown): SQL {
  const figure = (name: keyof ComplianceFigures) =>
    sql`coalesce((${figures}::jsonb -> ${drivers.state} ->> ${name})::float8, ${COMPLIANCE_FIGURE_DEFAULTS[name]}::float8)`;
  const unexpired = sql`(c.expires_on is null or c.expires_on >= ${today}::date)`;
  return sql`coalesce((select count(*) filter (where
        (c.kind in ('police_verification', 'medical_fitness') and c.result = 'passed' and ${unexpired})
        or (c.kind = 'induction_training' and c.hours >= ${figure('inductionHours')})
        or (c.kind = 'health_insurance' and c.amount >= ${figure('healthCover')} and ${unexpired})
        or (c.kind = 'term_insurance' and c.amount >= ${figure('termCover')} and ${unexpired})) = 5
      and coalesce(max(c.done_on) filter (where c.kind = 'refresher_training'),
          max(c.done_on) filter (where c.kind = 'induction_training'))
        + make_interval(months => ${figure('refresherMonths')}::int) >= ${today}::date
    from driver_checks c where c.driver_id = ${drivers.id}), false)`;
}

/**
 * The driver list's compliance filter. `today` and `figures` (each state's figures as JSON, from
 * figuresByStateJson) may be placeholders of a query built once per shape.
 */
export function complianceCondition(
  wanted: 'compliant' | 'not_compliant',
  today: unknown,
  figures: unknown,
): SQL {
  return wanted === 'compliant'
    ? sql`(${mandatoryInOrder(today, figures)} and ${checksInOrder(today, figures)}
        and not ${vehicleOverAge(today, figures)})`
    : sql`(not ${mandatoryInOrder(today, figures)} or not ${checksInOrder(today, figures)}
        or ${vehicleOverAge(today, figures)})`;
}

/** Whether the vehicle the driver in `drivers` drives now is past its state's age limit. */
function vehicleOverAge(today: unknown, figures: unknown): SQL {
  return sql`exists (select 1 from vehicles v where v.driver_id = ${drivers.id}
    and coalesce(v.first_registered_on, make_date(v.year, 1, 1)) < ${today}::date - make_interval(years =>
      coalesce((${figures}::jsonb -> v.state ->> 'vehicleMaxAgeYears')::int, ${COMPLIANCE_FIGURE_DEFAULTS.vehicleMaxAgeYears}::int)))`;
}

/** What keeps one mandatory document from counting, or null when it is in order. */
export function problemOf(
  row: { status: string; expiresOn: string | null } | undefined,
  today: string,
): ComplianceProblem['problem'] | null {
  if (!row || row.status === 'not_submitted') return 'missing';
  if (row.status === 'rejected') return 'rejected';
  if (row.status === 'submitted') return 'awaiting_review';
  if (row.expiresOn && row.expiresOn < today) return 'expired';
  return null;
}

/** A driver's mandatory document as the compliance rule reads it. */
type MandatoryDocument = { key: string; status: string; expiresOn: string | null };

/** The compliance of a driver with these mandatory documents (those missing are not listed) and checks. */
function complianceFrom(
  documents: Map<string, MandatoryDocument> | undefined,
  checks: readonly CheckRecord[],
  today: string,
  figures: ComplianceFigures,
  vehicle: DriverVehicle | null,
): Compliance {
  const problems: ComplianceProblem[] = [];
  const exempt = exemptDocuments(vehicle?.fuel, vehicle?.figures.electricPermitExempt ?? false);
  for (const document of MANDATORY_DOCUMENTS) {
    if (exempt.includes(document)) continue;
    const problem = problemOf(documents?.get(document), today);
    if (problem) problems.push({ document: document as DocumentKey, problem });
  }
  const checkProblems: ComplianceCheckProblem[] = [];
  for (const check of checkStatuses(checks, { lowestRated: false, today, figures })) {
    const problem = checkProblemOf(check);
    if (problem) checkProblems.push({ check: check.kind, problem });
  }
  const vehicleProblems: Compliance['vehicle'] = [];
  if (vehicle?.ageStart) {
    const limit = vehicle.figures.vehicleMaxAgeYears;
    if (isPastAgeLimit(vehicle.ageStart, limit, today)) {
      vehicleProblems.push({ problem: 'over_age', ageLimitYears: limit });
    }
  }
  return {
    compliant: problems.length === 0 && checkProblems.length === 0 && vehicleProblems.length === 0,
    problems,
    checks: checkProblems,
    vehicle: vehicleProblems,
  };
}

/** The vehicle a driver drives now, as compliance reads it: the day its age counts from, and its state's figures. */
type DriverVehicle = { ageStart: string | null; fuel: string | null; figures: ComplianceFigures };

const figuresOf = (figures: Awaited<ReturnType<typeof figuresInEffect>>, state: string | null | undefined) =>
  figures.get(state as State)?.figures ?? COMPLIANCE_FIGURE_DEFAULTS;

const checkColumns = {
  driverId: driverChecks.driverId,
  kind: driverChecks.kind,
  doneOn: driverChecks.doneOn,
  reference: driverChecks.reference,
  result: driverChecks.result,
  hours: driverChecks.hours,
  amount: driverChecks.amount,
  expiresOn: driverChecks.expiresOn,
};

/** Each driver's compliance, with the reasons when it is not: one round trip for a whole page. */
export async function complianceOf(db: DbExecutor, driverIds: string[]): Promise<Map<string, Compliance>> {
  const result = new Map<string, Compliance>();
  if (driverIds.length === 0) return result;
  const rows = await db
    .select({
      driverId: driverDocuments.driverId,
      key: driverDocuments.key,
      status: driverDocuments.status,
      expiresOn: driverDocuments.expiresOn,
    })
    .from(driverDocuments)
    .where(
      sql`${anyOf(driverDocuments.driverId, driverIds, 'uuid')} and ${anyOf(driverDocuments.key, MANDATORY, 'text')}`,
    );
  const byDriver = new Map<string, Map<string, MandatoryDocument>>();
  for (const row of rows) {
    const documents = byDriver.get(row.driverId) ?? new Map();
    documents.set(row.key, row);
    byDriver.set(row.driverId, documents);
  }
  const checks = await db
    .select(checkColumns)
    .from(driverChecks)
    .where(sql`${anyOf(driverChecks.driverId, driverIds, 'uuid')}`);
  const checksOf = new Map<string, CheckRecord[]>();
  for (const check of checks) checksOf.set(check.driverId, [...(checksOf.get(check.driverId) ?? []), check]);
  const states = await db
    .select({ id: drivers.id, state: drivers.state })
    .from(drivers)
    .where(sql`${anyOf(drivers.id, driverIds, 'uuid')}`);
  const stateOf = new Map(states.map((row) => [row.id, row.state]));
  const driven = rowsOf(
    await db.execute(sql`
      select driver_id, coalesce(first_registered_on, make_date(year, 1, 1))::text as age_start, state, fuel
      from vehicles where ${anyOf(sql`driver_id`, driverIds, 'uuid')}`),
  );
  const figures = await figuresInEffect(db);
  const vehicleOf = new Map(
    driven.map((row) => [
      String(row.driver_id),
      {
        ageStart: row.age_start === null ? null : String(row.age_start),
        fuel: row.fuel === null ? null : String(row.fuel),
        figures: figuresOf(figures, row.state as string | null),
      },
    ]),
  );
  const today = indianToday();
  for (const id of driverIds) {
    const own = figuresOf(figures, stateOf.get(id));
    result.set(
      id,
      complianceFrom(byDriver.get(id), checksOf.get(id) ?? [], today, own, vehicleOf.get(id) ?? null),
    );
  }
  return result;
}

/**
 * What withMandatoryDocuments adds to each row: [key, status, expiresOn] of each mandatory
 * document, or null, then [kind, doneOn, result, hours, amount, expiresOn] of each check, or null.
 */
export type MandatoryDocuments = [
  documents: [key: string, status: string, expiresOn: string | null][] | null,
  checks: [string, string, string | null, number | null, number | null, string | null][] | null,
  vehicle: [ageStart: string | null, state: string | null, fuel: string | null] | null,
];

/**
 * A page of drivers with each driver's mandatory documents as one more column, read in the page's
 * round trip (withColumnAround) from the row the database keeps for each driver (migration 0021):
 * aggregating each driver's documents instead took 0.75 of a drivers page's 1.05 ms in PostgreSQL.
 * The page must answer the driver's id as `id`.
 */
export function withMandatoryDocuments(page: BuiltQuery): BuiltQuery {
  return withColumnAround(
    page,
    // The checks are few per driver (one row of each kind, found by its index).
    () => `json_build_array((select m.documents from driver_mandatory_documents m where m.driver_id = page.id),
      (select json_agg(json_build_array(c.kind, c.done_on, c.result, c.hours, c.amount, c.expires_on))
        from driver_checks c where c.driver_id = page.id),
      (select json_build_array(coalesce(v.first_registered_on, make_date(v.year, 1, 1)), v.state, v.fuel)
        from vehicles v where v.driver_id = page.id))`,
  );
}

/**
 * The compliance of each row of a page read through withMandatoryDocuments, as of today in India,
 * by the figures of the driver's state (from figuresInEffect).
 */
export function complianceReader(
  figures: Awaited<ReturnType<typeof figuresInEffect>>,
): (documents: MandatoryDocuments | string, state: string | null) => Compliance {
  const today = indianToday();
  return (value, state) => {
    // The database client may hand json over parsed or as text.
    const [triples, checks, vehicle] = (
      typeof value === 'string' ? JSON.parse(value) : value
    ) as MandatoryDocuments;
    const documents = new Map<string, MandatoryDocument>();
    for (const [key, status, expiresOn] of triples ?? []) documents.set(key, { key, status, expiresOn });
    const records = (checks ?? []).map(([kind, doneOn, result, hours, amount, expiresOn]) => ({
      kind,
      doneOn,
      reference: null,
      result,
      hours,
      amount,
      expiresOn,
    }));
    const driven = vehicle
      ? { ageStart: vehicle[0], fuel: vehicle[2] ?? null, figures: figuresOf(figures, vehicle[1]) }
      : null;
    return complianceFrom(documents, records, today, figuresOf(figures, state), driven);
  };
}
