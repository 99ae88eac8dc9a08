import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocumentKey } from '@bmet/shared/constants';
import { documentLabel } from '@bmet/shared/labels';
import { m } from '@bmet/shared/paraglide/messages';
import type { Db } from '../../db/client';
import { accounts, documentExpiryReminders, driverChecks, notifications } from '../../db/schema';
import { buildDocumentRow, createAccount, createDriver, insertDocuments } from '../../seed/factories';
import { inLanguage } from '../../infra/language';
import { createInProcessLocationBus, type AlertNotice } from '../../infra/location-bus';
import { createMailer, type Mail, type Mailer } from '../../infra/mailer';
import { indianToday } from '../../lib/ist-days';
import { getTestDatabase } from '../../../test/test-database';
import { startMailReceiver } from '../../../test/mail-receiver';
import { uniqueTag } from '../../../test/driver-fixtures';
import { formatCalendarDate, sendExpiryReminders } from './reminders';
import { msUntilIndianHour } from './reminder-schedule';

const APP_URL = 'http://console.test:3999';
let db: Db;
let receiver: Awaited<ReturnType<typeof startMailReceiver>>;
let mailer: Mailer;

beforeAll(async () => {
  db = (await getTestDatabase()).db;
  receiver = await startMailReceiver();
  mailer = createMailer({
    smtpUrl: receiver.url,
    from: 'Book-My-ETaxi <no-reply@test.bookmyetaxi.in>',
    logger: { info: () => {}, warn: () => {} },
  });
});
afterAll(async () => {
  mailer?.close();
  await receiver?.close();
});

/** The calendar day `days` after a YYYY-MM-DD date. */
function plusDays(date: string, days: number): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10);
}

const today = indianToday();

/**
 * Two city dealers, their franchises (one of them disabled) and drivers, with approved documents
 * expiring at chosen days from today, and others that must never be reminded of.
 */
async function createWorld() {
  const tag = uniqueTag();
  const account = (input: Parameters<typeof createAccount>[1]) => createAccount(db, input);
  const dealerA = await account({ role: 'city_dealer', displayName: `Dealer A ${tag}` });
  const dealerB = await account({ role: 'city_dealer', state: 'karnataka', displayName: null });
  const franchiseA1 = await account({ role: 'franchise', dealerId: dealerA.id, displayName: `Pune ${tag}` });
  const franchiseA2 = await account({ role: 'franchise', dealerId: dealerA.id });
  const franchiseB1 = await account({ role: 'franchise', state: 'karnataka', dealerId: dealerB.id });
  const closed = await account({ role: 'franchise', dealerId: dealerB.id, disabled: true });
  // The dealer of B reads the console in Hindi.
  await db.update(accounts).set({ language: 'hi' }).where(eq(accounts.id, dealerB.id));

  const driver = (name: string, franchiseId: string | null, deletedAt?: Date) =>
    createDriver(db, { name: `${name} ${tag}`, franchiseId, ...(deletedAt ? { deletedAt } : {}) });
  const drivers = {
    a1: await driver('Anil Pawar', franchiseA1.id),
    a2: await driver('Bhavna Kulkarni', franchiseA2.id),
    b1: await driver('Chetan Gowda', franchiseB1.id),
    closed: await driver('Dinesh Rao', closed.id),
    deleted: await driver('Esha Shah', franchiseA1.id, new Date()),
    loose: await driver('Farhan Ali', null),
  };
  const document = (
    driverId: string,
    key: DocumentKey,
    inDays: number,
    status: 'approved' | 'submitted' = 'approved',
  ) =>
    buildDocumentRow(
      driverId,
      { key, status, expiresOn: plusDays(today, inDays) },
      dealerA.id,
      'images/x.jpg',
      10,
    );
  await insertDocuments(db, [
    document(drivers.a1.id, 'driverLicence', 20),
    document(drivers.a1.id, 'rcCertificate', 5),
    document(drivers.a1.id, 'pollutionCertificate', 4, 'submitted'),
    document(drivers.a1.id, 'fitnessCertificate', -1),
    document(drivers.a2.id, 'vehiclePermit', 45),
    document(drivers.a2.id, 'fitnessCertificate', 0),
    document(drivers.b1.id, 'driverLicence', 10),
    document(drivers.closed.id, 'rcCertificate', 12),
    document(drivers.deleted.id, 'driverLicence', 6),
    document(drivers.loose.id, 'driverLicence', 6),
  ]);
  // Checks that lapse on a date are reminded as documents are; a failed one is not.
  const check = (driverId: string, kind: string, inDays: number, extra: Record<string, unknown>) => ({
    driverId,
    kind,
    doneOn: plusDays(today, -300),
    reference: `${kind}-${tag}`,
    expiresOn: plusDays(today, inDays),
    ...extra,
  });
  await db
    .insert(driverChecks)
    .values([
      check(drivers.a2.id, 'health_insurance', 0, { amount: 500_000 }),
      check(drivers.a2.id, 'police_verification', 2, { result: 'failed' }),
    ]);
  return { tag, dealerA, dealerB, franchiseA1, franchiseA2, franchiseB1, closed, drivers };
}

type World = Awaited<ReturnType<typeof createWorld>>;

const recipientsOf = (w: World) => [
  w.dealerA,
  w.dealerB,
  w.franchiseA1,
  w.franchiseA2,
  w.franchiseB1,
  w.closed,
];

/** How many mails each of the world's accounts has received so far. */
const mailCounts = (w: World) => recipientsOf(w).map((who) => receiver.mailsTo(who.email).length);

/** The document lines of a mail ("- ..."), in order. */
const linesOf = (text: string) => text.split(/\r?\n/).filter((line) => line.startsWith('- '));

const line = (driver: string, document: string, inDays: number, from = today) => {
  const values = { driver, document, date: formatCalendarDate(plusDays(from, inDays)) };
  if (inDays === 0) return `- ${m.reminderMailExpiresToday(values)}`;
  if (inDays === 1) return `- ${m.reminderMailExpiresTomorrow(values)}`;
  return `- ${m.reminderMailExpiresIn({ ...values, days: inDays })}`;
};

async function remindersOf(driverIds: string[]) {
  return db
    .select({
      driverId: documentExpiryReminders.driverId,
      key: documentExpiryReminders.key,
      threshold: documentExpiryReminders.thresholdDays,
      recipientId: documentExpiryReminders.recipientId,
    })
    .from(documentExpiryReminders)
    .where(inArray(documentExpiryReminders.driverId, driverIds));
}

describe('sendExpiryReminders', () => {
  let w: World;
  // What the run announces to the open inboxes, on every instance.
  const bus = createInProcessLocationBus();
  const announced: AlertNotice[] = [];
  bus.subscribeAlerts((notice) => announced.push(notice));
  beforeAll(async () => {
    w = await createWorld();
  });

  it('mails each franchise and city dealer one list of its own drivers, in its language', async () => {
    const run = await sendExpiryReminders(db, mailer, { appUrl: APP_URL, bus });
    expect(run).not.toBeNull();
    const mailTo = async (who: { email: string }) => receiver.waitForMail(who.email);

    // Dealer A: both franchises' drivers in one mail, soonest first; never B's driver.
    const dealerA = await mailTo(w.dealerA);
    expect(dealerA.subject).toBe(m.reminderMailSubject());
    expect(dealerA.text).toContain(m.reminderMailGreeting({ name: `Dealer A ${w.tag}` }));
    expect(linesOf(dealerA.text)).toEqual([
      line(w.drivers.a2.name, 'Fitness Certificate', 0),
      line(w.drivers.a2.name, 'Health insurance', 0),
      line(w.drivers.a1.name, 'RC Certificate', 5),
      line(w.drivers.a1.name, 'Driver Licence', 20),
    ]);
    expect(dealerA.text).toContain(`${APP_URL}/compliance`);

    // Each franchise: its own drivers only.
    expect(linesOf((await mailTo(w.franchiseA1)).text)).toEqual([
      line(w.drivers.a1.name, 'RC Certificate', 5),
      line(w.drivers.a1.name, 'Driver Licence', 20),
    ]);
    expect(linesOf((await mailTo(w.franchiseA2)).text)).toEqual([
      line(w.drivers.a2.name, 'Fitness Certificate', 0),
      line(w.drivers.a2.name, 'Health insurance', 0),
    ]);

    // Dealer B reads Hindi, and is named by its email (no name); the disabled franchise gets
    // nothing, but its dealer still hears of its driver.
    const dealerB = await mailTo(w.dealerB);
    const hi = { locale: 'hi' } as const;
    expect(dealerB.subject).toBe(m.reminderMailSubject({}, hi));
    expect(dealerB.text).toContain(m.reminderMailGreeting({ name: w.dealerB.email }, hi));
    const inHindi = (driver: string, key: DocumentKey, days: number) =>
      `- ${m.reminderMailExpiresIn(
        {
          driver,
          document: inLanguage('hi', () => documentLabel(key)),
          date: formatCalendarDate(plusDays(today, days)),
          days,
        },
        hi,
      )}`;
    expect(linesOf(dealerB.text)).toEqual([
      inHindi(w.drivers.b1.name, 'driverLicence', 10),
      inHindi(w.drivers.closed.name, 'rcCertificate', 12),
    ]);
    expect(linesOf((await mailTo(w.franchiseB1)).text)).toHaveLength(1);
    expect(mailCounts(w)).toEqual([1, 1, 1, 1, 1, 0]);

    // What the run answers: our recipients among those mailed.
    const sentTo = new Map(run!.sent.map((sent) => [sent.to, sent.documents.length]));
    expect(sentTo.get(w.dealerA.email)).toBe(4);
    expect(sentTo.get(w.franchiseB1.email)).toBe(1);
    expect(sentTo.has(w.closed.email)).toBe(false);
  });

  it('puts the same reminders in each recipient’s inbox, once however often it runs', async () => {
    const inboxOf = async (accountId: string) =>
      (await db.select().from(notifications).where(eq(notifications.accountId, accountId)))
        .map((row) => ({ kind: row.kind, recordId: row.recordId, detail: row.detail }))
        .sort((a, b) =>
          String((a.detail as { documentKey: string }).documentKey).localeCompare(
            String((b.detail as { documentKey: string }).documentKey),
          ),
        );
    expect(await inboxOf(w.franchiseA1.id)).toEqual([
      {
        kind: 'document_expiring',
        recordId: w.drivers.a1.id,
        detail: {
          driverName: w.drivers.a1.name,
          documentKey: 'driverLicence',
          expiresOn: plusDays(today, 20),
        },
      },
      {
        kind: 'document_expiring',
        recordId: w.drivers.a1.id,
        detail: {
          driverName: w.drivers.a1.name,
          documentKey: 'rcCertificate',
          expiresOn: plusDays(today, 5),
        },
      },
    ]);
    expect(await inboxOf(w.dealerA.id)).toHaveLength(4);
    expect(await inboxOf(w.closed.id)).toEqual([]);
    // Pushed to the tabs open on them, once: a later run tells no one again.
    const told = announced.flatMap((notice) => (notice.kind === 'inbox' ? notice.accountIds : []));
    expect(told).toEqual(expect.arrayContaining([w.franchiseA1.id, w.dealerA.id, w.franchiseB1.id]));
    expect(told).not.toContain(w.closed.id);
    announced.length = 0;
    await sendExpiryReminders(db, mailer, { appUrl: APP_URL, bus });
    expect(await inboxOf(w.dealerA.id)).toHaveLength(4);
    expect(announced.flatMap((notice) => (notice.kind === 'inbox' ? notice.accountIds : []))).not.toContain(
      w.dealerA.id,
    );
  });

  it('records the smallest threshold that applies with the larger ones, so nothing is mailed twice', async () => {
    const rows = await remindersOf([w.drivers.a1.id]);
    const thresholds = (key: string) =>
      rows
        .filter((row) => row.key === key && row.recipientId === w.franchiseA1.id)
        .map((row) => row.threshold)
        .sort((a, b) => a - b);
    expect(thresholds('driverLicence')).toEqual([30]);
    // First seen 5 days before expiry: the 7-day reminder, and the 30-day one marked done.
    expect(thresholds('rcCertificate')).toEqual([7, 30]);
    expect(thresholds('pollutionCertificate')).toEqual([]);
    expect(thresholds('fitnessCertificate')).toEqual([]);
    expect(await remindersOf([w.drivers.deleted.id, w.drivers.loose.id])).toEqual([]);

    const before = mailCounts(w);
    expect(await sendExpiryReminders(db, mailer, { appUrl: APP_URL })).not.toBeNull();
    expect(mailCounts(w)).toEqual(before);
  });

  it('mails again when a document comes within the next threshold', async () => {
    const before = mailCounts(w);
    // Two days on: the RC (5 days) is now 3 days away, still within 7: nothing new.
    await sendExpiryReminders(db, mailer, { appUrl: APP_URL, today: plusDays(today, 2) });
    expect(mailCounts(w)).toEqual(before);

    // Thirteen days on: the licence (20 days) is 7 days away.
    const later = plusDays(today, 13);
    await sendExpiryReminders(db, mailer, { appUrl: APP_URL, today: later });
    const mail = await receiver.waitForMail(w.franchiseA1.email, { already: before[2] });
    expect(linesOf(mail.text)).toEqual([line(w.drivers.a1.name, 'Driver Licence', 7, later)]);
    expect(receiver.mailsTo(w.franchiseA2.email)).toHaveLength(before[3]!);

    // Four days on, the RC is 1 day away: the 1-day reminder.
    const dayBefore = plusDays(today, 4);
    await sendExpiryReminders(db, mailer, { appUrl: APP_URL, today: dayBefore });
    const last = await receiver.waitForMail(w.franchiseA1.email, { already: before[2]! + 1 });
    expect(linesOf(last.text)).toEqual([line(w.drivers.a1.name, 'RC Certificate', 1, dayBefore)]);
  });

  it('sends each reminder once when two runs start together', async () => {
    const franchise = await createAccount(db, { role: 'franchise', dealerId: w.dealerA.id });
    const driver = await createDriver(db, { name: `Gita Menon ${w.tag}`, franchiseId: franchise.id });
    await insertDocuments(db, [
      buildDocumentRow(
        driver.id,
        { key: 'vehiclePermit', status: 'approved', expiresOn: plusDays(today, 25) },
        null,
        'images/x.jpg',
        10,
      ),
    ]);
    const runs = await Promise.all([
      sendExpiryReminders(db, mailer, { appUrl: APP_URL }),
      sendExpiryReminders(db, mailer, { appUrl: APP_URL }),
    ]);
    const mailed = runs.flatMap((run) => run?.sent ?? []).filter((sent) => sent.to === franchise.email);
    expect(mailed).toHaveLength(1);
    await receiver.waitForMail(franchise.email);
    expect(receiver.mailsTo(franchise.email)).toHaveLength(1);
  });
});

describe('a reminder whose mail fails', () => {
  it('is not recorded, and the next run sends it', async () => {
    const dealer = await createAccount(db, { role: 'city_dealer' });
    const franchise = await createAccount(db, { role: 'franchise', dealerId: dealer.id });
    const driver = await createDriver(db, { name: `Harish Iyer ${uniqueTag()}`, franchiseId: franchise.id });
    await insertDocuments(db, [
      buildDocumentRow(
        driver.id,
        { key: 'pollutionCertificate', status: 'approved', expiresOn: plusDays(today, 3) },
        null,
        'images/x.jpg',
        10,
      ),
    ]);
    // The mail server refuses the franchise's mail once; the dealer's goes through.
    let refuse = true;
    const flaky: Pick<Mailer, 'send'> = {
      send: async (mail: Mail) => {
        if (mail.to === franchise.email && refuse) {
          refuse = false;
          throw new Error('451 try again later');
        }
        return mailer.send(mail);
      },
    };
    const first = await sendExpiryReminders(db, flaky, { appUrl: APP_URL });
    expect(first!.failed).toContainEqual({ to: franchise.email, documents: 1, error: '451 try again later' });
    await receiver.waitForMail(dealer.email);
    const recorded = await remindersOf([driver.id]);
    expect(recorded.filter((row) => row.recipientId === franchise.id)).toEqual([]);
    const thresholdsOf = (rows: { threshold: number }[]) =>
      rows.map((row) => row.threshold).sort((a, b) => a - b);
    expect(thresholdsOf(recorded.filter((row) => row.recipientId === dealer.id))).toEqual([7, 30]);

    const second = await sendExpiryReminders(db, flaky, { appUrl: APP_URL });
    expect(second!.failed.filter((failed) => failed.to === franchise.email)).toEqual([]);
    const mail = await receiver.waitForMail(franchise.email);
    expect(linesOf(mail.text)).toEqual([line(driver.name, 'Pollution Certificate', 3)]);
    expect(receiver.mailsTo(dealer.email)).toHaveLength(1);
    const again = await remindersOf([driver.id]);
    expect(thresholdsOf(again.filter((row) => row.recipientId === franchise.id))).toEqual([7, 30]);
  });
});

describe('msUntilIndianHour', () => {
  it('counts to the next 09:00 in India, today or tomorrow', () => {
    // 02:00 UTC is 07:30 IST: 1.5 hours to go.
    expect(msUntilIndianHour(9, new Date('2026-11-24T02:00:00Z'))).toBe(1.5 * 3_600_000);
    // 03:30 UTC is 09:00 IST exactly: the next one is a day away.
    expect(msUntilIndianHour(9, new Date('2026-11-24T03:30:00Z'))).toBe(24 * 3_600_000);
    // 20:00 UTC is 01:30 IST the next day: 7.5 hours to go.
    expect(msUntilIndianHour(9, new Date('2026-11-24T20:00:00Z'))).toBe(7.5 * 3_600_000);
  });
});
