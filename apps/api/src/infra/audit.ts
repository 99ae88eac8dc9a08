import type { DbExecutor } from '../db/client';
import { auditLog } from '../db/schema';

/** Who made a change, and in which request (the request id is also in the logs). */
export type Actor = { id: string; requestId: string };

/** Whoever made a change: a signed-in person, or the apps' Firebase database. */
/** A change a driver's phone made (an SOS alert), with the request that carried it. */
export const driverAppActor = (requestId: string) => ({ id: null, requestId, source: 'driver-app' }) as const;

export type ChangeSource = Actor | typeof FIREBASE_ACTOR | ReturnType<typeof driverAppActor>;

/** The apps' Firebase database, for a change the Firebase link read from it. */
export const FIREBASE_ACTOR = { id: null, requestId: null, source: 'firebase' } as const;

export type AuditEntry = {
  action: string;
  resource: string;
  resourceId: string;
  /** The changed fields before and after (JSON-serializable; dates become ISO strings). */
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
};

/**
 * Writes one audit row. Call it inside the transaction of the change it records, so that a change
 * is never stored without its record, nor a record without its change.
 */
export async function recordAudit(db: DbExecutor, actor: ChangeSource, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values({
    actorId: actor.id,
    action: entry.action,
    resource: entry.resource,
    resourceId: entry.resourceId,
    before: entry.before,
    after: entry.after,
    requestId: actor.requestId,
    source: 'source' in actor ? actor.source : null,
  });
}
