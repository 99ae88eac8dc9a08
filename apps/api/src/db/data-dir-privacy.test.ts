import {
  chmodSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { countEntries, findEntriesOpenToOthers } from '../../test/open-entries';
import { openDatabase } from './client';
import { restrictToOwner } from './data-dir-privacy';
import { againstPostgres } from '../../test/test-database';

const folder = mkdtempSync(join(tmpdir(), 'bmet-privacy-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

/** Opens every folder and file under `path` to everyone, as a copy made with a loose umask would. */
function openToEveryone(path: string): void {
  const stat = lstatSync(path);
  if (stat.isSymbolicLink()) return;
  chmodSync(path, stat.isDirectory() ? 0o777 : 0o666);
  if (stat.isDirectory()) for (const name of readdirSync(path)) openToEveryone(join(path, name));
}

// The embedded database alone, whichever pass: see `againstPostgres`.
describe.skipIf(againstPostgres)('a private data folder', () => {
  it('is created private, the embedded database files included, without a warning', async () => {
    const warn = vi.spyOn(console, 'warn');
    // A folder that does not exist yet, under one that does, as DATA_DIR on a first start.
    const dataDir = join(folder, 'fresh', 'data');
    const database = await openDatabase({ dataDir });
    try {
      expect(countEntries(dataDir)).toBeGreaterThan(1000);
      expect(findEntriesOpenToOthers(dataDir)).toEqual([]);
      expect(statSync(dataDir).mode & 0o777).toBe(0o700);
      expect(statSync(join(dataDir, 'pglite', 'global', '1213')).mode & 0o777).toBe(0o600);
    } finally {
      await database.close();
    }
    expect(warn).not.toHaveBeenCalled();
  }, 60_000);

  it('is made private when an existing one is open to others, with one warning saying how much', async () => {
    const dataDir = join(folder, 'existing');
    await (await openDatabase({ dataDir })).close();
    openToEveryone(dataDir);
    const opened = findEntriesOpenToOthers(dataDir).length;
    expect(opened).toBeGreaterThan(1000);

    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const database = await openDatabase({ dataDir, migrate: false });
    try {
      expect(findEntriesOpenToOthers(dataDir)).toEqual([]);
    } finally {
      await database.close();
    }
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]![0]).toBe(
      `Warning: the data folder ${dataDir} was open to other local users: ${opened} entries made ` +
        'private to this user (folders 0700, files 0600).',
    );
  }, 60_000);

  it('leaves what a symbolic link points to alone', () => {
    const root = mkdtempSync(join(folder, 'links-'));
    const outside = join(folder, 'outside.txt');
    writeFileSync(outside, 'not ours to change');
    chmodSync(outside, 0o644);
    symlinkSync(outside, join(root, 'link'));
    writeFileSync(join(root, 'image.jpg'), 'bytes');
    chmodSync(join(root, 'image.jpg'), 0o644);

    expect(restrictToOwner(root)).toBe(1);
    expect(statSync(outside).mode & 0o777).toBe(0o644);
    expect(statSync(join(root, 'image.jpg')).mode & 0o777).toBe(0o600);
  });
});
