import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { drivers } from './schema';
import { useTestApp } from '../../test/test-app';
import { uniqueTag } from '../../test/driver-fixtures';
import { queryShapes } from './query-shapes';
import { rowReader } from './row-reader';

const t = useTestApp();

type Values = { name: string; since: string };

/** Drivers called `name` who joined after `since`, as a list's query is built. */
const driversNamed = (values: Values) => ({
  page: t.db
    .select({ id: drivers.id, name: drivers.name })
    .from(drivers)
    .where(and(eq(drivers.name, values.name), sql`${drivers.createdAt} > ${values.since}::timestamptz`))
    .orderBy(drivers.id),
  label: 'kept as it is',
});

const read = rowReader({ id: drivers.id, name: drivers.name });

describe('queries built once per shape', () => {
  it('builds a shape once and answers each call with its own values', async () => {
    const tag = uniqueTag();
    const [asha, ravi] = await t.db
      .insert(drivers)
      .values([{ name: `Asha ${tag}` }, { name: `Ravi ${tag}` }])
      .returning({ id: drivers.id });
    let builds = 0;
    const shapes = queryShapes({ check: false });
    const query = (values: Values) =>
      shapes('named', values, (v) => {
        builds++;
        return driversNamed(v);
      });
    const first = query({ name: `Asha ${tag}`, since: '2020-01-01T00:00:00Z' });
    const second = query({ name: `Ravi ${tag}`, since: '2021-06-01T00:00:00Z' });
    const none = query({ name: `Ravi ${tag}`, since: '2999-01-01T00:00:00Z' });
    expect(builds).toBe(1);
    expect(second.label).toBe('kept as it is');
    expect(second.page.toSQL()).toEqual(
      driversNamed({ name: `Ravi ${tag}`, since: '2021-06-01T00:00:00Z' }).page.toSQL(),
    );
    expect(await read(t.db, first.page)).toEqual([{ id: asha!.id, name: `Asha ${tag}` }]);
    expect(await read(t.db, second.page)).toEqual([{ id: ravi!.id, name: `Ravi ${tag}` }]);
    expect(await read(t.db, none.page)).toEqual([]);
  });

  it('refuses, outside production, a builder that takes a value from elsewhere than its values', () => {
    const shapes = queryShapes({ check: true });
    let outside = 'Asha Rao';
    const query = (values: Values) =>
      shapes('leaky', values, (v) => ({
        page: t.db
          .select({ id: drivers.id })
          .from(drivers)
          .where(and(eq(drivers.name, outside), sql`${drivers.createdAt} > ${v.since}::timestamptz`)),
      }));
    query({ name: 'unused', since: '2026-01-01T00:00:00Z' });
    outside = 'Ravi Kumar';
    expect(() => query({ name: 'unused', since: '2026-01-01T00:00:00Z' })).toThrow(
      /otherwise than its values would/,
    );
  });

  it('refuses, outside production, a shape name that misses a difference in the text', () => {
    const shapes = queryShapes({ check: true });
    const query = (descending: boolean, values: Values) =>
      shapes('no order in the name', values, (v) => ({
        page: t.db
          .select({ id: drivers.id })
          .from(drivers)
          .where(eq(drivers.name, v.name))
          .orderBy(descending ? desc(drivers.id) : asc(drivers.id)),
      }));
    query(false, { name: 'Asha Rao', since: '2026-01-01T00:00:00Z' });
    expect(() => query(true, { name: 'Asha Rao', since: '2026-01-01T00:00:00Z' })).toThrow(
      /otherwise than its values would/,
    );
  });

  it('refuses, outside production, a query that one build has and the other has not', () => {
    const shapes = queryShapes({ check: true });
    const query = (counted: boolean, values: Values) =>
      shapes('count left out of the name', values, (v) => ({
        page: driversNamed(v).page,
        total: counted ? t.db.select({ id: drivers.id }).from(drivers).where(eq(drivers.name, v.name)) : null,
      }));
    query(false, { name: 'Asha Rao', since: '2026-01-01T00:00:00Z' });
    expect(() => query(true, { name: 'Asha Rao', since: '2026-01-01T00:00:00Z' })).toThrow(
      /shape count left out of the name built total otherwise/,
    );
  });
});
