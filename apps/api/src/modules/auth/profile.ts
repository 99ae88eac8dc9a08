import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { accounts } from '../../db/schema';
import { recordAudit, type Actor } from '../../infra/audit';

/** Changes the caller's own display name, with its audit row. */
export async function updateDisplayName(
  db: Db,
  actor: Actor,
  before: string | null,
  displayName: string,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.update(accounts).set({ displayName }).where(eq(accounts.id, actor.id));
    await recordAudit(tx, actor, {
      action: 'update',
      resource: 'profile',
      resourceId: actor.id,
      before: { displayName: before },
      after: { displayName },
    });
  });
}
