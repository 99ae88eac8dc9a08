import { and, eq, isNull, sql } from 'drizzle-orm';
import { AppError } from '@bmet/shared/errors';
import { m } from '@bmet/shared/paraglide/messages';
import type { DbExecutor, Db } from '../../db/client';
import { accounts, consoleSettings } from '../../db/schema';
import { recordAudit } from '../../infra/audit';
import type { ChangeCaller } from '../../lib/scope';

const SETTING = 'grievance_officer';

export type GrievanceOfficer = {
  accountId: string | null;
  name: string | null;
  email: string | null;
  language: string | null;
};

/** The admin named grievance officer, while that account is an admin who can sign in. */
export async function findGrievanceOfficer(db: DbExecutor): Promise<GrievanceOfficer> {
  const [row] = await db
    .select({
      accountId: accounts.id,
      name: accounts.displayName,
      email: accounts.email,
      language: accounts.language,
    })
    .from(consoleSettings)
    .innerJoin(accounts, sql`${accounts.id} = (${consoleSettings.value} #>> '{}')::uuid`)
    .where(eq(consoleSettings.name, SETTING));
  return row ?? { accountId: null, name: null, email: null, language: null };
}

/** Names the grievance officer (an active admin, by email), or nobody; audited. */
export async function setGrievanceOfficer(
  db: Db,
  caller: ChangeCaller,
  email: string | null,
): Promise<GrievanceOfficer> {
  await db.transaction(async (tx) => {
    const before = await findGrievanceOfficer(tx);
    let accountId: string | null = null;
    if (email) {
      const [admin] = await tx
        .select({ id: accounts.id })
        .from(accounts)
        .where(
          and(
            eq(accounts.email, email),
            eq(accounts.role, 'admin'),
            eq(accounts.disabled, false),
            isNull(accounts.deletedAt),
          ),
        );
      if (!admin) {
        throw new AppError('VALIDATION', m.grievanceOfficerNotAdmin(), {
          fieldErrors: { email: [m.grievanceOfficerNotAdmin()] },
        });
      }
      accountId = admin.id;
    }
    if (accountId) {
      await tx
        .insert(consoleSettings)
        .values({ name: SETTING, value: accountId, changedBy: caller.id })
        .onConflictDoUpdate({
          target: consoleSettings.name,
          set: { value: accountId, changedBy: caller.id, changedAt: new Date() },
        });
    } else {
      await tx.delete(consoleSettings).where(eq(consoleSettings.name, SETTING));
    }
    await recordAudit(tx, caller, {
      action: 'update',
      resource: 'settings',
      resourceId: SETTING,
      before: { grievanceOfficer: before.email },
      after: { grievanceOfficer: email },
    });
  });
  return findGrievanceOfficer(db);
}
