import { and, desc, eq, sql } from 'drizzle-orm';
import type { TripFeedback } from '@bmet/shared/schemas/trip';
import type { Db, DbExecutor } from '../../db/client';
import { tripFeedback, trips } from '../../db/schema';
import { recordAudit, type Actor } from '../../infra/audit';
import { tripScope, type ChangeCaller } from '../../lib/scope';
import { TRIP_FEEDBACK_LIMIT, author } from './repository';

// The feedback staff leave on a trip.

const feedbackColumns = {
  id: tripFeedback.id,
  feedback: tripFeedback.feedback,
  rating: tripFeedback.rating,
  authorId: tripFeedback.authorId,
  authorName: sql<string>`coalesce(${author.displayName}, ${author.email})`,
  createdAt: tripFeedback.createdAt,
};

function toFeedback(row: {
  id: string;
  feedback: string;
  rating: number;
  authorId: string;
  authorName: string;
  createdAt: Date;
}): TripFeedback {
  return {
    id: row.id,
    feedback: row.feedback,
    rating: row.rating,
    author: { id: row.authorId, name: row.authorName },
    createdAt: row.createdAt.toISOString(),
  };
}

/** The feedback saved on a trip, newest first. */
export async function findTripFeedback(db: DbExecutor, tripId: string): Promise<TripFeedback[]> {
  const rows = await db
    .select(feedbackColumns)
    .from(tripFeedback)
    .innerJoin(author, eq(author.id, tripFeedback.authorId))
    .where(eq(tripFeedback.tripId, tripId))
    .orderBy(desc(tripFeedback.createdAt), desc(tripFeedback.id))
    .limit(TRIP_FEEDBACK_LIMIT);
  return rows.map(toFeedback);
}

/**
 * Saves feedback and a star rating on a trip of the caller's scope, with its audit row in the
 * same transaction; null when the trip is not in the caller's scope.
 */
export async function createTripFeedback(
  db: Db,
  caller: ChangeCaller,
  tripId: string,
  input: { feedback: string; rating: number },
): Promise<TripFeedback | null> {
  return db.transaction(async (tx) => {
    const [trip] = await tx
      .select({ id: trips.id })
      .from(trips)
      .where(and(eq(trips.id, tripId), tripScope(caller)));
    if (!trip) return null;
    const [saved] = await tx
      .insert(tripFeedback)
      .values({ tripId, authorId: caller.id, feedback: input.feedback, rating: input.rating })
      .returning();
    const actor: Actor = { id: caller.id, requestId: caller.requestId };
    await recordAudit(tx, actor, {
      action: 'create',
      resource: 'trip-feedback',
      resourceId: saved!.id,
      before: null,
      after: {
        tripId,
        feedback: saved!.feedback,
        rating: saved!.rating,
        authorId: saved!.authorId,
        createdAt: saved!.createdAt.toISOString(),
      },
    });
    const [row] = await tx
      .select(feedbackColumns)
      .from(tripFeedback)
      .innerJoin(author, eq(author.id, tripFeedback.authorId))
      .where(eq(tripFeedback.id, saved!.id));
    return toFeedback(row!);
  });
}
