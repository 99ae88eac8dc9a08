import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client';
import { rowsOf } from '../db/rows';
import { getTestDatabase, openEmptyDatabase } from '../../test/test-database';
import { pushIdTime, startFirebaseServer, type FirebaseJson } from '../../test/firebase-server';
import { readUntil } from '../../test/read-until';
import { appBooking } from '../../test/app-booking';
import { FirebaseLink } from './link';
import { FirebaseRestClient, resolveAddress } from './rest-client';

/**
 * A console's first start beside the apps, on a database of its own (the worker's holds the other
 * tests' trips): the trips come in without their secondary indexes and foreign keys, which are
 * built once at the end, as they were.
 */

const TRIPS = 1200;
let empty: Database;
beforeAll(async () => {
  empty = await openEmptyDatabase();
}, 120_000);
afterAll(async () => {
  await empty?.close();
});

const quiet = { info: () => {}, warn: () => {} };

function startLink(firebaseUrl: string) {
  const link = new FirebaseLink(
    empty.db,
    new FirebaseRestClient(resolveAddress(firebaseUrl), { kind: 'none' }),
    {
      logger: quiet,
      concurrentIndexes: empty.kind === 'postgres',
    },
  );
  link.start();
  return link;
}

/** The indexes and constraints of the trips' tables, as the catalog of a database holds them. */
async function catalogOf(database: Database) {
  return rowsOf(
    await database.db.execute(sql`
      select 'index' as kind, indexname as name, indexdef as definition, null as validated from pg_indexes
      where tablename in ('trips', 'trip_messages')
      union all
      select 'constraint', conname, pg_get_constraintdef(oid), convalidated::text from pg_constraint
      where conrelid in ('trips'::regclass, 'trip_messages'::regclass) and contype in ('p', 'u', 'f')
      order by 1, 2`),
  );
}

const booking = (i: number, customer: string) =>
  appBooking(customer, `Rider ${i}`, {
    'pick-up': { location: `Temple Road ${i}`, lat: 12.97, long: 77.59 },
  });

const count = async (table: string) =>
  Number(rowsOf(await empty.db.execute(sql`select count(*) as n from ${sql.identifier(table)}`))[0]!.n);

describe('a first sync on an empty console', () => {
  it('brings every trip in, then builds the indexes it left out, as a migrated database has them', async () => {
    const booked = pushIdTime(Date.now() - 3_600_000);
    const trips: Record<string, FirebaseJson> = {};
    for (let i = 0; i < TRIPS; i++) {
      trips[`${booked}sync${String(i).padStart(6, '0')}`] = {
        ...booking(i, `cust-${i % 10}`),
        messages: i % 100 === 0 ? { m1: { message: 'On my way', sender: 'driver' } } : null,
      };
    }
    const firebase = await startFirebaseServer({
      data: {
        customer: Object.fromEntries(
          Array.from({ length: 10 }, (_, i) => [`cust-${i}`, { name: `Customer ${i}` }]),
        ),
        trips,
      },
    });
    const link = startLink(firebase.url);
    try {
      const status = await readUntil(
        async () => link.status(),
        (now) => (now.applied.trips ?? 0) >= TRIPS && !now.buildingIndexes,
        60_000,
        100,
      );
      expect(status.lastErrors).toEqual([]);
      expect(await count('trips')).toBe(TRIPS);
      expect(await count('trip_messages')).toBe(TRIPS / 100);
      // Every trip kept its customer, though no foreign key checked it while it was written.
      expect(
        Number(
          rowsOf(await empty.db.execute(sql`select count(*) as n from trips where customer_id is null`))[0]!
            .n,
        ),
      ).toBe(0);
      expect(await catalogOf(empty)).toEqual(await catalogOf(await getTestDatabase()));
      expect(rowsOf(await empty.db.execute(sql`select name from deferred_indexes`))).toEqual([]);

      // A later booking is written as usual, checked by the foreign keys built back.
      const later = firebase.pushId();
      firebase.tree.set(`trips/${later}`, booking(TRIPS, 'cust-1'));
      expect(
        await readUntil(
          () => count('trips'),
          (n) => n === TRIPS + 1,
        ),
      ).toBe(TRIPS + 1);
      const refused = await empty.db
        .execute(sql`update trips set customer_id = gen_random_uuid() where firebase_key = ${later}`)
        .catch((error: Error) => error);
      expect(String((refused as Error).cause)).toMatch(/foreign key/);
    } finally {
      await link.stop();
    }

    // An instance that died with indexes unbuilt: the next one to follow builds them first.
    await empty.db.execute(sql`drop index trips_title_search_idx`);
    await empty.db.execute(sql`
      insert into deferred_indexes (name, table_name, kind, definition)
      values ('trips_title_search_idx', 'trips',  'index',
        'CREATE INDEX trips_title_search_idx ON public.trips USING gin (lower(title) gin_trgm_ops)')`);
    const next = startLink(firebase.url);
    try {
      await readUntil(
        async () => rowsOf(await empty.db.execute(sql`select name from deferred_indexes`)),
        (rows) => rows.length === 0,
        30_000,
      );
      await readUntil(
        async () => next.status(),
        (now) => !now.buildingIndexes && now.connectedSince !== null,
      );
      expect(await catalogOf(empty)).toEqual(await catalogOf(await getTestDatabase()));
    } finally {
      await next.stop();
      await firebase.close();
    }
  }, 120_000);
});
