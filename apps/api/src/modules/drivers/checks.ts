import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError } from '@bmet/shared/errors';
import { m } from '@bmet/shared/paraglide/messages';
import { idParamSchema } from '@bmet/shared/schemas/common';
import { CHECK_EXPIRES, CHECK_MEASURE, type DriverCheckKind } from '@bmet/shared/driver-check-rules';
import {
  driverCheckParamsSchema,
  driverCheckResponseSchema,
  driverChecksResponseSchema,
  putDriverCheckBodySchema,
  type DriverCheck,
  type PutDriverCheckBody,
} from '@bmet/shared/schemas/driver-check';
import { checkStatuses } from '@bmet/shared/check-status';
import type { State } from '@bmet/shared/constants';
import { figuresByStateJson, figuresInEffect, figuresOfState } from '../fare-rules/figures';
import type { Db, DbExecutor } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { driverChecks, drivers } from '../../db/schema';
import { recordAudit } from '../../infra/audit';
import { errorResponses } from '../../lib/error-responses';
import { indianToday } from '../../lib/ist-days';
import type { ChangeCaller } from '../../lib/scope';
import { currentUser } from '../../plugins/authentication';
import { getDriver, lockDriver } from './repository';

/**
 * A driver's checks beside the documents, as the aggregator guidelines ask (decision 028): each
 * kind's last record and what it means today. Trainings lapse by rule: induction is needed once
 * (40 hours), a refresher each year, and remedial training each calendar quarter for the
 * lowest-rated 5% of the state's rated drivers.
 */

type CheckRow = typeof driverChecks.$inferSelect;

/** Whether the driver is among the lowest-rated share of the rated drivers of their state. */
async function isLowestRated(db: DbExecutor, driverId: string, sharePercent: number): Promise<boolean> {
  const [row] = rowsOf(
    await db.execute(sql`
      with me as (
        select state, rating_total::float8 / nullif(rating_count, 0) as average from drivers where id = ${driverId}
      )
      select count(*) filter (where d.rating_total::float8 / d.rating_count < me.average) as below,
        count(*) as rated, bool_and(me.average is not null) as rated_self
      from drivers d, me
      where d.state = me.state and d.deleted_at is null and d.rating_count > 0`),
  );
  if (!row || !row.rated_self) return false;
  const lowest = Math.ceil((Number(row.rated) * sharePercent) / 100);
  return Number(row.below) < lowest;
}

/** Every kind of check of a driver, in the guidelines' order, with what it means today. */
export async function findDriverChecks(db: DbExecutor, driverId: string): Promise<DriverCheck[]> {
  const rows = await db.select().from(driverChecks).where(eq(driverChecks.driverId, driverId));
  const [driver] = await db.select({ state: drivers.state }).from(drivers).where(eq(drivers.id, driverId));
  const figures = await figuresOfState(db, driver?.state ?? null);
  const lowestRated = await isLowestRated(db, driverId, figures.remedialSharePercent);
  return checkStatuses(rows, { lowestRated, today: indianToday(), figures });
}

/**
 * Each state's average rating at the edge of its lowest-rated share: a rated driver whose average
 * is at most this is due remedial training (as isLowestRated decides for one driver).
 */
export async function remedialCutoffs(db: DbExecutor, states: string[]): Promise<Map<string, number>> {
  if (states.length === 0) return new Map();
  const shares = await figuresByStateJson(db);
  const rows = rowsOf(
    await db.execute(sql`
      select state, (array_agg(rating_total::float8 / rating_count order by rating_total::float8 / rating_count))[
          ceil(count(*) * (${shares}::jsonb -> state ->> 'remedialSharePercent')::float8 / 100)::int] as cutoff
      from drivers
      where state in (${sql.join(
        states.map((state) => sql`${state}`),
        sql`, `,
      )}) and deleted_at is null and rating_count > 0
      group by state`),
  );
  return new Map(rows.map((row) => [String(row.state), Number(row.cutoff)]));
}

/**
 * The checks of many drivers at once (the regulator's export): one read of their records and
 * ratings; `cutoffs` of their states from remedialCutoffs, which the caller may keep across
 * batches.
 */
export async function findChecksOfDrivers(
  db: DbExecutor,
  driverIds: string[],
  cutoffs: (states: string[]) => Promise<Map<string, number>>,
): Promise<Map<string, DriverCheck[]>> {
  if (driverIds.length === 0) return new Map();
  const [rows, ratings] = await Promise.all([
    db.select().from(driverChecks).where(inArray(driverChecks.driverId, driverIds)),
    db
      .select({
        id: drivers.id,
        state: drivers.state,
        deleted: sql<boolean>`${drivers.deletedAt} is not null`,
        average: sql<number | null>`${drivers.ratingTotal}::float8 / nullif(${drivers.ratingCount}, 0)`,
      })
      .from(drivers)
      .where(inArray(drivers.id, driverIds)),
  ]);
  const states = [...new Set(ratings.map((row) => row.state).filter((state) => state !== null))];
  const edge = await cutoffs(states);
  const figures = await figuresInEffect(db);
  const today = indianToday();
  const byDriver = new Map<string, CheckRow[]>();
  for (const row of rows) byDriver.set(row.driverId, [...(byDriver.get(row.driverId) ?? []), row]);
  return new Map(
    ratings.map((driver) => {
      const cutoff = driver.state === null ? undefined : edge.get(driver.state);
      const lowest =
        !driver.deleted &&
        driver.average !== null &&
        cutoff !== undefined &&
        Number(driver.average) <= cutoff;
      const own = driver.state ? figures.get(driver.state as State)?.figures : undefined;
      return [
        driver.id,
        checkStatuses(byDriver.get(driver.id) ?? [], { lowestRated: lowest, today, figures: own }),
      ];
    }),
  );
}

/** What a kind needs beside the body's own rules; each problem named on its field. */
function refuseIncomplete(kind: DriverCheckKind, body: PutDriverCheckBody): void {
  const fieldErrors: Record<string, string[]> = {};
  const measure = CHECK_MEASURE[kind];
  if (measure === 'result' && !body.result) fieldErrors.result = [m.checkResultRequired()];
  if (measure === 'hours' && body.hours === undefined) fieldErrors.hours = [m.checkHoursRequired()];
  if (measure === 'amount' && body.amount === undefined) fieldErrors.amount = [m.checkAmountRequired()];
  if (measure === 'amount' && !body.expiresOn) fieldErrors.expiresOn = [m.checkExpiryRequired()];
  if (body.expiresOn && body.expiresOn < body.doneOn) fieldErrors.expiresOn = [m.checkExpiryBeforeDone()];
  if (body.doneOn > indianToday()) fieldErrors.doneOn = [m.checkDoneInFuture()];
  const [first] = Object.values(fieldErrors);
  if (first) throw new AppError('VALIDATION', first[0]!, { fieldErrors });
}

/** Records a check of a driver of the caller's scope (the last one of its kind), audited. */
export async function saveDriverCheck(
  db: Db,
  caller: ChangeCaller,
  driverId: string,
  kind: DriverCheckKind,
  body: PutDriverCheckBody,
): Promise<DriverCheck> {
  refuseIncomplete(kind, body);
  const measure = CHECK_MEASURE[kind];
  const values = {
    doneOn: body.doneOn,
    reference: body.reference,
    result: measure === 'result' ? body.result! : null,
    hours: measure === 'hours' ? body.hours! : null,
    amount: measure === 'amount' ? body.amount! : null,
    expiresOn: CHECK_EXPIRES[kind] ? (body.expiresOn ?? null) : null,
    updatedBy: caller.id,
    updatedAt: new Date(),
  };
  await db.transaction(async (transaction) => {
    const tx = transaction as unknown as DbExecutor;
    if (!(await lockDriver(tx, caller, driverId))) throw new AppError('NOT_FOUND', m.notFound());
    const [before] = await tx
      .select()
      .from(driverChecks)
      .where(and(eq(driverChecks.driverId, driverId), eq(driverChecks.kind, kind)));
    await tx
      .insert(driverChecks)
      .values({ driverId, kind, ...values })
      .onConflictDoUpdate({ target: [driverChecks.driverId, driverChecks.kind], set: values });
    const shown = (row: Partial<CheckRow> | undefined) =>
      row && {
        kind,
        doneOn: row.doneOn,
        reference: row.reference,
        result: row.result,
        hours: row.hours,
        amount: row.amount,
        expiresOn: row.expiresOn,
      };
    await recordAudit(
      tx,
      { id: caller.id, requestId: caller.requestId },
      {
        action: before ? 'update' : 'create',
        resource: 'drivers',
        resourceId: driverId,
        before: before ? { check: shown(before) } : null,
        after: { check: shown(values) },
      },
    );
  });
  const checks = await findDriverChecks(db, driverId);
  return checks.find((check) => check.kind === kind)!;
}

const errors = errorResponses(400, 401, 403, 404);

export function registerDriverCheckRoutes(app: FastifyInstance, db: Db): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.get(
    '/drivers/driver/:id/checks',
    {
      config: { access: ['drivers', 'view'] },
      schema: {
        tags: ['drivers'],
        summary: "The driver's checks beside the documents: verification, fitness, training, insurance",
        description:
          'Every kind, in order, with its last record and its status today: valid, missing, failed, ' +
          'expired, insufficient (hours or cover below the guidelines), due or not_due (trainings).',
        params: idParamSchema,
        response: { 200: driverChecksResponseSchema, ...errors },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const driver = await getDriver(db, { id: user.id, role: user.role }, request.params.id);
      return { data: await findDriverChecks(db, driver.id) };
    },
  );

  typed.put(
    '/drivers/driver/:id/checks/:kind',
    {
      config: { access: ['drivers', 'checks'] },
      schema: {
        tags: ['drivers'],
        summary: 'Record a check of the driver (replacing the last one of its kind); audited',
        params: driverCheckParamsSchema,
        body: putDriverCheckBodySchema,
        response: { 200: driverCheckResponseSchema, ...errors },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const caller = { id: user.id, role: user.role, requestId: request.id };
      return {
        data: await saveDriverCheck(db, caller, request.params.id, request.params.kind, request.body),
      };
    },
  );
}
