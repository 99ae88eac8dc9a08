import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite, types } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './client';
import { PgliteThread } from './pglite-thread';
import { rowsOf } from './rows';
import { againstPostgres } from '../../test/test-database';

const here = dirname(fileURLToPath(import.meta.url));
const folder = mkdtempSync(join(tmpdir(), 'bmet-thread-'));
let thread: PgliteThread;

beforeAll(async () => {
  thread = await PgliteThread.open(undefined);
  await thread.exec('create table things (id int primary key, name text not null)');
}, 60_000);
afterAll(async () => {
  await thread.close();
  rmSync(folder, { recursive: true, force: true });
});

const count = async () =>
  (await thread.query<{ n: number }>('select count(*)::int as n from things')).rows[0]!.n;

// The embedded database alone, whichever pass: see `againstPostgres`.
describe.skipIf(againstPostgres)('the embedded database in a thread of its own', () => {
  it("answers rows as PGlite does, and errors with PostgreSQL's fields for the server to word them", async () => {
    await thread.query('insert into things values ($1, $2)', [1, 'one']);
    const { rows } = await thread.query<{ id: number; name: string; at: Date }>(
      "select id, name, timestamptz '2026-11-25 10:00:00+05:30' as at from things",
    );
    expect(rows).toEqual([{ id: 1, name: 'one', at: new Date('2026-11-25T04:30:00Z') }]);

    const duplicate = await thread
      .query('insert into things values (1, $1)', ['again'])
      .catch((e: unknown) => e);
    expect(duplicate).toBeInstanceOf(Error);
    expect(duplicate).toMatchObject({ code: '23505', constraint: 'things_pkey', table: 'things' });
    expect((duplicate as Error).message).toMatch(/duplicate key/);
  });

  it("reads values with the caller's parsers, and refuses a value it could not carry across", async () => {
    const raw = (value: unknown) => value;
    const { rows } = await thread.query<unknown[]>("select timestamptz '2026-11-25 10:00:00+05:30'", [], {
      rowMode: 'array',
      parsers: { [types.TIMESTAMPTZ]: raw },
    });
    expect(rows).toEqual([['2026-11-25 04:30:00+00']]);
    const doubled = await thread.query('select 21 as n', [], {
      parsers: { [types.INT4]: (value) => Number(value) * 2 },
    });
    expect(doubled.rows).toEqual([{ n: 42 }]);
    await expect(thread.query('select $1::int', [() => 1])).rejects.toThrow(/could not be cloned/);
    expect((await thread.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
  });

  it('answers every statement as PGlite itself does: rows in both modes, fields, commands and counts', async () => {
    const direct = await PGlite.create();
    try {
      const setup = 'create table pairs (id int primary key, tags text[], doc jsonb, at timestamptz)';
      await direct.exec(setup);
      await thread.exec(setup);
      const keep = (value: unknown) => value;
      const statements: [string, unknown[]][] = [
        [
          `select array[1, 2]::int[] as ints, array['a', null, 'b "c"', ''] as texts, $1::jsonb as doc,
                  8000000000::bigint as big, 1.5::numeric as num, 2.5::float8 as f, true as yes,
                  '\\x0102'::bytea as bytes, null::text as nothing, 'नमस्ते' as hindi, $2::text[] as given,
                  $3::boolean as flag, $4::timestamptz as at, date '2026-11-25' as day, '00000000-0000-0000-0000-000000000000'::uuid as id,
                  interval '90 minutes' as span, array[timestamptz '2026-11-25 10:00+05:30'] as ats,
                  1 as same, 2 as same, 'x' as "__proto__", E'\\uFEFFmarked' as "\uFEFFmark"`,
          [{ a: [1, 'x'] }, ['x', 'y, z', null], false, new Date('2026-11-25T04:30:00Z')],
        ],
        [
          'insert into pairs values ($1, $2, $3, $4), ($5, $6, $7, $8)',
          [1, ['a', 'b'], { k: 1 }, new Date('2026-11-25T04:30:00Z'), 2, [], null, '2026-11-26 10:00+05:30'],
        ],
        ['select * from pairs order by id', []],
        ['update pairs set doc = $1 where id = any($2)', [{ k: 2 }, [1, 2]]],
        ['insert into pairs values (3) returning id, tags', []],
        ['delete from pairs where id > $1', [1]],
        ['select * from pairs where id < 0', []],
        ['', []],
      ];
      const modes = [
        undefined,
        { rowMode: 'array' as const },
        {
          rowMode: 'array' as const,
          parsers: { [types.TIMESTAMPTZ]: keep, [types.DATE]: keep, [types.INTERVAL]: keep, 1185: keep },
        },
      ];
      for (const [index, [text, params]] of statements.entries()) {
        // A statement that writes runs once, in one of the modes.
        for (const options of text.startsWith('select') ? modes : [modes[index % modes.length]]) {
          const expected = await direct.query(text, params, options);
          const answered = await thread.query(text, params, options);
          expect({ text, options, answered }).toEqual({ text, options, answered: expected });
        }
      }
    } finally {
      await direct.close();
    }
  });

  it('answers a statement whose table changed as PGlite would, prepared anew, and refuses bad ones as PGlite does', async () => {
    await thread.exec('create table changing (id int, size int)');
    const read = 'select * from changing';
    const write = 'insert into changing (id, size) values ($1, $2) returning size';
    expect((await thread.query(read)).fields.map((field) => field.name)).toEqual(['id', 'size']);
    expect((await thread.query(write, [1, 2])).rows).toEqual([{ size: 2 }]);
    await thread.exec('alter table changing add column name text');
    await thread.exec('alter table changing alter column size type text');
    // PostgreSQL refuses kept statements whose columns or types changed; outside a transaction
    // they are prepared anew at once, as PGlite prepares every statement.
    expect((await thread.query(read)).fields.map((field) => field.name)).toEqual(['id', 'size', 'name']);
    expect((await thread.query(write, [2, 'large'])).rows).toEqual([{ size: 'large' }]);

    // Inside a transaction PostgreSQL has failed the transaction by then: the next asking succeeds.
    await thread.exec('alter table changing add column seats int');
    await expect(thread.transaction((tx) => tx.query(read))).rejects.toMatchObject({ code: '0A000' });
    expect((await thread.query(read)).fields.map((field) => field.name)).toEqual([
      'id',
      'size',
      'name',
      'seats',
    ]);

    await expect(thread.query('select * from nowhere')).rejects.toMatchObject({
      code: '42P01',
      query: 'select * from nowhere',
    });
    await expect(thread.query('select $1::int', ['x'])).rejects.toMatchObject({ code: '22P02' });
    expect((await thread.query('select $1::int as n', ['7'])).rows).toEqual([{ n: 7 }]);
  });

  it('keeps statements prepared in a transaction that rolled back, and one that failed inside it', async () => {
    await expect(
      thread.transaction(async (tx) => {
        await tx.query('select name from things where id = $1', [1]);
        await tx.query('select 1 / $1::int', [0]);
      }),
    ).rejects.toMatchObject({ code: '22012' });
    expect((await thread.query('select name from things where id = $1', [1])).rows).toEqual([
      { name: 'one' },
    ]);
    expect((await thread.query('select 1 / $1::int as n', [1])).rows).toEqual([{ n: 1 }]);
  });

  it('keeps one statement per text, and closes one that could not be bound, inside a failed transaction too', async () => {
    const text = 'select 10 / $1::int as n';
    const kept = async () =>
      (
        await thread.query<{ n: number }>(
          'select count(*)::int as n from pg_prepared_statements where statement = $1',
          [text],
        )
      ).rows[0]!.n;
    expect((await thread.query(text, [2])).rows).toEqual([{ n: 5 }]);
    expect(await kept()).toBe(1);
    await expect(
      thread.transaction(async (tx) => {
        await tx.query(text, [0]).catch(() => {});
        // Refused, as the transaction has failed; the failed statement is closed all the same.
        await tx.query('select 11');
      }),
    ).rejects.toMatchObject({ code: '25P02' });
    await thread.query('select 12');
    expect(await kept()).toBe(0);
    for (const divisor of [5, 10]) await thread.query(text, [divisor]);
    expect(await kept()).toBe(1);
  });

  it('commits a transaction when its work returns, rolls it back when it throws, and others wait for its end', async () => {
    const before = await count();
    let outside: Promise<number> | undefined;
    await thread.transaction(async (tx) => {
      await tx.query('insert into things values (10, $1)', ['ten']);
      // Asked while the transaction is open: answered after its commit, so it sees the row.
      outside = count();
      await tx.query('insert into things values (11, $1)', ['eleven']);
    });
    expect(await outside).toBe(before + 2);

    const failure = new Error('the work failed');
    await expect(
      thread.transaction(async (tx) => {
        await tx.query('insert into things values (12, $1)', ['twelve']);
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await count()).toBe(before + 2);

    // A statement that fails inside rolls the whole transaction back.
    await expect(
      thread.transaction(async (tx) => {
        await tx.query('insert into things values (13, $1)', ['thirteen']);
        await tx.query('insert into things values (10, $1)', ['ten again']);
      }),
    ).rejects.toMatchObject({ code: '23505' });
    expect(await count()).toBe(before + 2);
  });

  it('runs transactions asked at once one after the other, each with its own statements', async () => {
    const before = await count();
    const results = await Promise.allSettled([
      thread.transaction(async (tx) => {
        await tx.query('insert into things values (20, $1)', ['twenty']);
        await new Promise((resolve) => setTimeout(resolve, 20));
        await tx.query('insert into things values (21, $1)', ['twenty-one']);
        return 'first';
      }),
      thread.transaction(async (tx) => {
        await tx.query('insert into things values (22, $1)', ['twenty-two']);
        // Fails: the first transaction's row 20 is committed by now, so this one rolls back alone.
        await tx.query('insert into things values (20, $1)', ['twenty again']);
      }),
      count(),
    ]);
    expect(results[0]).toEqual({ status: 'fulfilled', value: 'first' });
    expect(results[1]).toMatchObject({ status: 'rejected', reason: { code: '23505' } });
    expect(await count()).toBe(before + 2);
    const names = await thread.query<{ name: string }>('select name from things where id >= 20 order by id');
    expect(names.rows.map((row) => row.name)).toEqual(['twenty', 'twenty-one']);
  });

  it('refuses options to exec that it would not carry across', async () => {
    await expect(thread.exec('select 1', { rowMode: 'array' } as never)).rejects.toThrow(/no options/);
  });

  it('refuses a statement on a transaction that has ended', async () => {
    let kept: Parameters<Parameters<PgliteThread['transaction']>[0]>[0] | undefined;
    await thread.transaction(async (tx) => {
      kept = tx;
    });
    expect(kept!.closed).toBe(true);
    await expect(kept!.query('select 1')).rejects.toThrow(/closed/);
  });

  it('delivers notifications to listeners until they stop listening', async () => {
    const heard: string[] = [];
    const unlisten = await thread.listen('things', (payload) => heard.push(payload));
    await thread.query("select pg_notify('things', 'first')");
    await expect.poll(() => heard).toEqual(['first']);
    await unlisten();
    await thread.query("select pg_notify('things', 'second')");
    await thread.query('select 1');
    expect(heard).toEqual(['first']);
  });

  it("leaves the server's thread free while a long query runs", async () => {
    const order: string[] = [];
    const long = thread
      .query('select count(*) from generate_series(1, 3000000) a join generate_series(1, 1) b on true')
      .then(() => order.push('query answered'));
    await new Promise((resolve) => setTimeout(resolve, 1)).then(() => order.push('timer ran'));
    await long;
    expect(order).toEqual(['timer ran', 'query answered']);
  });
});

describe.skipIf(againstPostgres)('the embedded database through Drizzle, in its thread', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ dataDir: folder });
    await database.db.execute(sql`create table kept (id int primary key)`);
  }, 60_000);

  it('rolls back a nested transaction that fails and keeps the outer one', async () => {
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into kept values (1)`);
      await tx
        .transaction(async (inner) => {
          await inner.execute(sql`insert into kept values (2)`);
          throw new Error('inner failed');
        })
        .catch(() => {});
    });
    expect(rowsOf(await database.db.execute(sql`select id from kept`))).toEqual([{ id: 1 }]);
  });

  it('writes its rows to the folder on close, and finds them when opened again', async () => {
    await database.close();
    await expect(database.db.execute(sql`select 1`)).rejects.toThrow();
    database = await openDatabase({ dataDir: folder });
    expect(rowsOf(await database.db.execute(sql`select id from kept`))).toEqual([{ id: 1 }]);
    await database.close();
  }, 60_000);

  it('lets go of the folder when opening fails after the thread started, so it opens again', async () => {
    const other = mkdtempSync(join(tmpdir(), 'bmet-thread-'));
    try {
      // A folder holding a type the first migration creates: migrating it fails after the thread
      // has opened the folder.
      const first = await openDatabase({ dataDir: other, migrate: false });
      await first.db.execute(sql`create type document_status as enum ('x')`);
      await first.close();
      await expect(openDatabase({ dataDir: other })).rejects.toThrow(/document_status/);
      const again = await openDatabase({ dataDir: other, migrate: false });
      expect(rowsOf(await again.db.execute(sql`select 1 as one`))).toEqual([{ one: 1 }]);
      await again.close();
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  }, 90_000);
});

describe.skipIf(againstPostgres)('a database thread that ends unasked', () => {
  it('ends when PGlite traps, answering the call with its error, and tells the server', async () => {
    const broken = await PgliteThread.open(undefined, { faults: true });
    const heard: string[] = [];
    broken.onStop((error) => heard.push(error.message));
    const fault = (broken as unknown as { call: (call: { op: 'fault' }) => Promise<unknown> }).call({
      op: 'fault',
    });
    await expect(fault).rejects.toThrow(/unreachable/);
    await expect.poll(() => heard).toEqual([expect.stringMatching(/exited with 1/)]);
    await expect(broken.query('select 1')).rejects.toThrow(/embedded database stopped/);
    await broken.close();
  }, 60_000);

  it('takes no fault unless opened for the tests, and goes on', async () => {
    const fault = (thread as unknown as { call: (call: { op: 'fault' }) => Promise<unknown> }).call({
      op: 'fault',
    });
    await expect(fault).rejects.toThrow(/takes no faults/);
    expect((await thread.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
  });

  it('refuses the queries waiting and those after, and tells the server, which then ends', async () => {
    const doomed = await PgliteThread.open(undefined);
    const heard: string[] = [];
    doomed.onStop((error) => heard.push(error.message));
    const waiting = doomed.query('select count(*) from generate_series(1, 3000000)');
    // As if PGlite had aborted: the thread is ended from outside.
    await (doomed as unknown as { worker: { terminate: () => Promise<number> } }).worker.terminate();
    await expect(waiting).rejects.toThrow(/embedded database stopped/);
    await expect(doomed.query('select 1')).rejects.toThrow(/embedded database stopped/);
    expect(heard).toEqual([expect.stringMatching(/embedded database stopped/)]);
    await doomed.close();
    expect(heard).toHaveLength(1);
  }, 60_000);
});

describe.skipIf(againstPostgres)('a process with the embedded database open', () => {
  it('ends when its work is done, as it did with PGlite in its own thread', () => {
    const script = `
      import { PgliteThread } from ${JSON.stringify(join(here, 'pglite-thread.ts'))};
      const thread = await PgliteThread.open(undefined);
      // A value that cannot cross threads is refused, and leaves nothing waiting behind it.
      await thread.query('select $1::int', [() => 1]).catch(() => {});
      const { rows } = await thread.query('select 41 + 1 as answer');
      console.log(rows[0].answer);
    `;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: here,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.stderr).not.toMatch(/Error/);
    expect(run.stdout.trim()).toBe('42');
    expect(run.status).toBe(0);
  }, 90_000);
});
