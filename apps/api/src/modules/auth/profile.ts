import { eq } from 'drizzle-orm';
import type { Language } from '@bmet/shared/constants';
import type { Db } from '../../db/client';
import { accounts } from '../../db/schema';
import { recordAudit, type Actor } from '../../infra/audit';

type Profile = { displayName: string | null; language: Language | null };

/** Changes the caller's own display name or language, with its audit row. */
export async function updateProfile(
  db: Db,
  actor: Actor,
  current: Profile,
  changes: { displayName?: string; language?: Language },
): Promise<void> {
  const before: Partial<Profile> = {};
  const after: Partial<Profile> = {};
  if (changes.displayName !== undefined) {
    before.displayName = current.displayName;
    after.displayName = changes.displayName;
  }
  if (changes.language !== undefined) {
    before.language = current.language;
    after.language = changes.language;
  }
  await db.transaction(async (tx) => {
    await tx.update(accounts).set(after).where(eq(accounts.id, actor.id));
    await recordAudit(tx, actor, {
      action: 'update',
      resource: 'profile',
      resourceId: actor.id,
      before,
      after,
    });
  });
}
