import { and, eq, sql, type SQL } from 'drizzle-orm';
import { LANGUAGES, type DocumentKey, type Language } from '@bmet/shared/constants';
import { EXPIRY_REMINDER_DAYS } from '@bmet/shared/document-rules';
import { documentLabel } from '@bmet/shared/labels';
import { CHECK_KIND_LABELS } from '@bmet/shared/check-labels';
import { DRIVER_CHECK_KINDS, type DriverCheckKind } from '@bmet/shared/driver-check-rules';
import { m } from '@bmet/shared/paraglide/messages';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { documentExpiryReminders } from '../../db/schema';
import { inLanguage } from '../../infra/language';
import type { LocationBus } from '../../infra/location-bus';
import type { Mail, Mailer } from '../../infra/mailer';
import { indianToday } from '../../lib/ist-days';
import { notifyAccounts } from '../notifications/repository';

/** The advisory lock of the reminders: with several instances, one of them decides what to send. */
export const REMINDER_LOCK = 7_420_241_140;

/** The thresholds smallest first: a document is reminded at the smallest one it falls within. */
const THRESHOLDS = [...EXPIRY_REMINDER_DAYS].sort((a, b) => a - b);
const FURTHEST = THRESHOLDS.at(-1)!;

/** A document to remind one recipient of. */
export type DueDocument = {
  driverId: string;
  driverName: string;
  /** A document, or a check that lapses on a date (police verification, fitness, insurance). */
  key: DocumentKey | DriverCheckKind;
  /** YYYY-MM-DD. */
  expiresOn: string;
  daysLeft: number;
};

export type Recipient = { id: string; email: string; name: string; language: Language };

/** What one run did: a line per recipient mailed, and per mail that failed (retried next run). */
export type ReminderRun = {
  today: string;
  sent: { to: string; documents: DueDocument[] }[];
  failed: { to: string; documents: number; error: string }[];
  /** Why the inboxes' news could not be pushed (they show it when next opened), or null. */
  inboxWarning: string | null;
};

/** The smallest threshold (1, 7 or 30) that `daysLeft` falls within, as SQL. */
function smallestThreshold(daysLeft: SQL): SQL<number> {
  const cases = THRESHOLDS.map((days) => sql`when ${daysLeft} <= ${days}::int then ${days}::int`);
  return sql<number>`case ${sql.join(cases, sql` `)} end`;
}

/**
 * The (document, recipient) pairs due a reminder today: the approved documents of active drivers
 * expiring from today to FURTHEST days on (days in India), for the driver's franchise and that
 * franchise's city dealer, each an account neither disabled nor deleted, whose reminder at the
 * smallest threshold that applies is not recorded yet.
 */
async function findDueReminders(tx: Db, today: string) {
  const daysLeft = sql`(dd.expires_on - ${today}::date)`;
  return rowsOf(
    await tx.execute(sql`
      with due as (
        select dd.driver_id, dd.key, dd.expires_on::text as expires_on, ${daysLeft}::int as days_left,
          ${smallestThreshold(daysLeft)} as threshold, d.name as driver_name, r.id as recipient_id,
          r.email, coalesce(r.display_name, r.email) as recipient_name, r.language
        from (
          select driver_id, key, expires_on from driver_documents where status = 'approved'
          union all
          -- The checks that lapse on a date (verification, fitness, insurance), named by their kind.
          select driver_id, kind, expires_on from driver_checks
          where expires_on is not null and (result is null or result = 'passed')
        ) dd
        join drivers d on d.id = dd.driver_id and d.deleted_at is null
        join accounts f on f.id = d.franchise_id and f.role = 'franchise'
        join accounts r on (r.id = f.id or (r.id = f.dealer_id and r.role = 'city_dealer'))
          and not r.disabled and r.deleted_at is null
        where dd.expires_on between ${today}::date and ${today}::date + ${FURTHEST}::int
      )
      select * from due
      where not exists (select 1 from document_expiry_reminders x
        where x.driver_id = due.driver_id and x.key = due.key and x.expires_on = due.expires_on::date
          and x.threshold_days = due.threshold and x.recipient_id = due.recipient_id)
      order by due.recipient_id, due.expires_on, due.driver_name, due.key`),
  );
}

type Claim = { recipient: Recipient; documents: DueDocument[] };

const asLanguage = (value: unknown): Language =>
  (LANGUAGES as readonly unknown[]).includes(value) ? (value as Language) : 'en';

type Reminder = typeof documentExpiryReminders.$inferInsert;

/** One reminder's primary key as text, to match the rows an insert answers with those it was given. */
const reminderKey = (r: Pick<Reminder, 'driverId' | 'key' | 'expiresOn' | 'thresholdDays' | 'recipientId'>) =>
  `${r.driverId}/${r.key}/${r.expiresOn}/${r.thresholdDays}/${r.recipientId}`;

/** Inserts reminders, skipping those recorded already; answers the keys of those it inserted. */
async function recordReminders(tx: Db, records: Reminder[]): Promise<Set<string>> {
  const inserted = new Set<string>();
  // Bounded statements: a first run on a large fleet records tens of thousands of rows.
  for (let start = 0; start < records.length; start += 1000) {
    const rows = await tx
      .insert(documentExpiryReminders)
      .values(records.slice(start, start + 1000))
      .onConflictDoNothing()
      .returning();
    for (const row of rows) inserted.add(reminderKey(row));
  }
  return inserted;
}

/**
 * Records the reminders due today as sent, in one transaction under REMINDER_LOCK, and answers
 * them by recipient; null when another instance holds the lock. The smallest threshold that
 * applies is mailed and the larger ones are recorded with it: a document first found 5 days from
 * expiry gets the 7-day reminder, and never the 30-day one after it. Only what this transaction
 * inserted is answered, so even without the lock no reminder would be claimed twice.
 */
async function claimReminders(
  db: Db,
  today: string,
  claimedAt: Date,
): Promise<{ claims: Claim[]; told: string[] } | null> {
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    const [lock] = rowsOf(await tx.execute(sql`select pg_try_advisory_xact_lock(${REMINDER_LOCK}) as taken`));
    if (!lock?.taken) return null;
    const due = (await findDueReminders(tx, today)).map((row) => ({
      recipient: {
        id: String(row.recipient_id),
        email: String(row.email),
        name: String(row.recipient_name),
        language: asLanguage(row.language),
      },
      document: {
        driverId: String(row.driver_id),
        driverName: String(row.driver_name),
        key: row.key as DocumentKey | DriverCheckKind,
        expiresOn: String(row.expires_on),
        daysLeft: Number(row.days_left),
      } satisfies DueDocument,
      threshold: Number(row.threshold),
    }));
    const reminder = (item: (typeof due)[number], thresholdDays: number): Reminder => ({
      driverId: item.document.driverId,
      key: item.document.key,
      expiresOn: item.document.expiresOn,
      thresholdDays,
      recipientId: item.recipient.id,
      sentAt: claimedAt,
    });
    const inserted = await recordReminders(
      tx,
      due.flatMap((item) =>
        THRESHOLDS.filter((days) => days >= item.threshold).map((days) => reminder(item, days)),
      ),
    );
    const claims = new Map<string, Claim>();
    for (const item of due) {
      if (!inserted.has(reminderKey(reminder(item, item.threshold)))) continue;
      const claim = claims.get(item.recipient.id) ?? { recipient: item.recipient, documents: [] };
      claim.documents.push(item.document);
      claims.set(item.recipient.id, claim);
    }
    // The same reminders in the recipients' inboxes, kept there whether the mail goes or not.
    const told = await notifyAccounts(
      tx,
      [...claims.values()].flatMap((claim) =>
        claim.documents.map((document) => ({
          accountId: claim.recipient.id,
          event: {
            kind: 'document_expiring' as const,
            dedupeKey: `document:${document.driverId}:${document.key}:${document.expiresOn}`,
            recordType: 'drivers' as const,
            recordId: document.driverId,
            detail: {
              driverName: document.driverName,
              documentKey: document.key,
              expiresOn: document.expiresOn,
            },
          },
        })),
      ),
    );
    return { claims: [...claims.values()], told };
  });
}

/** A calendar date (YYYY-MM-DD) as staff read it: 24/11/2026. */
export function formatCalendarDate(date: string): string {
  const [year, month, day] = date.split('-');
  return `${day}/${month}/${year}`;
}

const isCheckKind = (key: string): key is DriverCheckKind =>
  (DRIVER_CHECK_KINDS as readonly string[]).includes(key);

/** What a reminder is about, named in the current language: a document or a check. */
export const dueItemLabel = (key: DueDocument['key']): string =>
  isCheckKind(key) ? CHECK_KIND_LABELS[key]() : documentLabel(key);

function documentLine(document: DueDocument): string {
  const values = {
    driver: document.driverName,
    document: dueItemLabel(document.key),
    date: formatCalendarDate(document.expiresOn),
  };
  if (document.daysLeft === 0) return m.reminderMailExpiresToday(values);
  if (document.daysLeft === 1) return m.reminderMailExpiresTomorrow(values);
  return m.reminderMailExpiresIn({ ...values, days: document.daysLeft });
}

/** The one mail of a recipient, listing all its documents, in the language it chose for the console. */
export function reminderMail(claim: Claim, appUrl: string): Mail {
  return inLanguage(claim.recipient.language, () => ({
    to: claim.recipient.email,
    subject: m.reminderMailSubject(),
    text: [
      m.reminderMailGreeting({ name: claim.recipient.name }),
      '',
      m.reminderMailIntro(),
      '',
      ...claim.documents.map((document) => `- ${documentLine(document)}`),
      '',
      m.reminderMailOpenConsole(),
      `${appUrl}/compliance`,
      '',
      m.productTitle(),
    ].join('\n'),
  }));
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Takes back this run's records of a recipient whose mail failed, so that the next run mails it
 * again; answers what went wrong. The other recipients go on whatever happens here.
 */
async function releaseClaim(db: Db, recipientId: string, claimedAt: Date, failure: unknown): Promise<string> {
  try {
    await db
      .delete(documentExpiryReminders)
      .where(
        and(
          eq(documentExpiryReminders.recipientId, recipientId),
          eq(documentExpiryReminders.sentAt, claimedAt),
        ),
      );
    return messageOf(failure);
  } catch (error) {
    return `${messageOf(failure)}; its reminders stay recorded as sent: ${messageOf(error)}`;
  }
}

/**
 * Mails each franchise and city dealer the documents of its drivers that expire within 30, 7 or 1
 * days, one mail per recipient; null when another instance is doing it.
 *
 * The reminders are recorded before they are mailed, in the transaction that decides them, so that
 * no run (on this instance or another) sends them again. A mail that fails takes its records back
 * out, and the next run sends it. What this leaves: a process killed between the two (a graceful
 * stop waits for the run) loses that threshold's reminder; the next threshold still comes, and the
 * compliance screen lists the document all along. The other order (mail, then record) would
 * instead send twice; a transaction held open while mailing would stop the embedded database for
 * everyone until the mail server answers.
 */
export async function sendExpiryReminders(
  db: Db,
  mailer: Pick<Mailer, 'send'>,
  options: { appUrl: string; today?: string; bus?: Pick<LocationBus, 'publishAlert'> },
): Promise<ReminderRun | null> {
  const today = options.today ?? indianToday();
  const claimedAt = new Date();
  const claimed = await claimReminders(db, today, claimedAt);
  if (!claimed) return null;
  const { claims, told } = claimed;
  const run: ReminderRun = { today, sent: [], failed: [], inboxWarning: null };
  // The inboxes told are pushed live to their open tabs, on every instance.
  if (told.length > 0 && options.bus) {
    await options.bus.publishAlert({ kind: 'inbox', accountIds: told }).catch((error: unknown) => {
      run.inboxWarning = messageOf(error);
    });
  }
  for (const claim of claims) {
    try {
      await mailer.send(reminderMail(claim, options.appUrl));
      run.sent.push({ to: claim.recipient.email, documents: claim.documents });
    } catch (error) {
      run.failed.push({
        to: claim.recipient.email,
        documents: claim.documents.length,
        error: await releaseClaim(db, claim.recipient.id, claimedAt, error),
      });
    }
  }
  return run;
}
