import { readFileSync } from 'node:fs';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { createLocalObjectStore } from '../infra/object-store';
import { afterAll, describe, expect, it } from 'vitest';
import { accounts } from './schema';
import { openDatabase } from './client';
import { DEMO_ACCOUNTS, seedDemoIfEmpty } from '../seed/demo';

const url = process.env.TEST_DATABASE_URL;
const journal = JSON.parse(
  readFileSync(new URL('./migrations/meta/_journal.json', import.meta.url), 'utf8'),
) as { entries: unknown[] };

// Instances starting together on one PostgreSQL database: only a server database has them.
describe.skipIf(!url)('instances starting together on a fresh PostgreSQL database', () => {
  const name = `bmet_lock_${process.pid}`;
  const admin = url ? postgres(url, { max: 1, onnotice: () => {} }) : null;
  const fresh = () => {
    const address = new URL(url!);
    address.pathname = `/${name}`;
    return address.toString();
  };
  afterAll(async () => {
    if (!admin) return;
    await admin`drop database if exists ${admin(name)} with (force)`;
    await admin.end({ timeout: 5 });
  });

  it('apply the migrations once and load the demo data once', async () => {
    await admin!`drop database if exists ${admin!(name)} with (force)`;
    await admin!`create database ${admin!(name)}`;
    const databaseUrl = fresh();
    const [first, second] = await Promise.all([
      openDatabase({ databaseUrl, dataDir: 'memory://' }),
      openDatabase({ databaseUrl, dataDir: 'memory://' }),
    ]);
    try {
      const check = postgres(databaseUrl, { max: 1, onnotice: () => {} });
      const applied = await check`select count(*)::int as n from drizzle.__drizzle_migrations`;
      await check.end({ timeout: 5 });
      expect(applied[0]!.n).toBe(journal.entries.length);

      const images = mkdtempSync(join(tmpdir(), 'bmet-lock-'));
      const options = { password: 'lock-test-password-2026', objectStore: createLocalObjectStore(images) };
      const loads = await Promise.all([
        seedDemoIfEmpty(first.db, options),
        seedDemoIfEmpty(second.db, options),
      ]);
      expect(loads.filter(Boolean)).toHaveLength(1);
      const rows = await first.db.select({ email: accounts.email }).from(accounts);
      // The documents' images went to the object store the instances were given.
      expect(readdirSync(join(images, 'images', 'demo')).length).toBeGreaterThan(0);
      rmSync(images, { recursive: true, force: true });
      for (const email of Object.values(DEMO_ACCOUNTS)) {
        expect(rows.filter((row) => row.email === email)).toHaveLength(1);
      }
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  }, 180_000);
});
