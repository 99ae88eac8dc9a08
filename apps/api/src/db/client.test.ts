import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from './client';
import { createCustomer } from './seed/factories';

const folder = mkdtempSync(join(tmpdir(), 'bmet-client-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

async function statisticsRows(db: Db, table: string): Promise<number> {
  const result = (await db.execute(
    sql`select count(*)::int as n from pg_stats where tablename = ${table}`,
  )) as unknown as {
    rows: { n: number }[];
  };
  return result.rows[0]!.n;
}

describe('opening the embedded database', () => {
  it('refreshes the planner statistics of rows loaded since the last start (PGlite has no autovacuum)', async () => {
    const first = await openDatabase({ dataDir: folder });
    for (let i = 0; i < 20; i++) await createCustomer(first.db);
    expect(await statisticsRows(first.db, 'customers')).toBe(0);
    await first.close();

    const again = await openDatabase({ dataDir: folder });
    try {
      expect(await statisticsRows(again.db, 'customers')).toBeGreaterThan(0);
    } finally {
      await again.close();
    }
  }, 60_000);
});
