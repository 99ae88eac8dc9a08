import { setTimeout as sleep } from 'node:timers/promises';
import type { Db } from './client';

/** The pause before an attempt again, in ms: a random share of this times the attempts made. */
const PAUSE_MS = 25;

/**
 * Runs a transaction again when PostgreSQL chose it as the victim of a deadlock: two instances
 * storing batches of the same drivers at once may lock them in opposite orders (rare: a driver
 * reports every few seconds); the work is then simply done again, up to `attempts` times.
 *
 * It waits a moment first. The transaction that won was waiting for the failed one, and PostgreSQL
 * wakes it without handing it the rows: an attempt made at once may take them first, meet it in
 * the same deadlock and be failed again (seen on a busy machine: three attempts where two do). A
 * random pause also keeps two instances retrying the same batches from meeting again in step.
 */
export async function retryOnDeadlock<T>(work: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      const code =
        (error as { code?: string; cause?: { code?: string } }).code ??
        (error as { cause?: { code?: string } }).cause?.code;
      if (code !== '40P01' || attempt >= attempts) throw error;
    }
    await sleep(Math.round(PAUSE_MS * attempt * (0.5 + Math.random())));
  }
}

type Transaction = Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * A transaction run again whole when PostgreSQL failed it to end a deadlock. Only for work that is
 * all statements on `tx`, with nothing outside the database kept from a first attempt (a count, a
 * report, a mail, a one-shot promise): a repeat would do that twice. Staff changes that take
 * several drivers' rows (a vehicle given to another driver moves its documents between the two,
 * through the documents' triggers) meet the apps' position batches, which take many drivers' rows
 * in no set order; PostgreSQL then fails one of the two, and the staff member was answered
 * "Something went wrong on our side" with nothing written.
 */
export function retriedTransaction<T>(db: Db, work: (tx: Transaction) => Promise<T>): Promise<T> {
  return retryOnDeadlock(() => db.transaction(work));
}
