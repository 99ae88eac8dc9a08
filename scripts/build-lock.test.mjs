import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { hashInputs, isUpToDate, markUpToDate } from './build-lock.mjs';

const folders = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});
function newFolder() {
  const folder = mkdtempSync(join(tmpdir(), 'bmet-build-lock-'));
  folders.push(folder);
  return folder;
}

const LOCK_MODULE = fileURLToPath(new URL('./build-lock.mjs', import.meta.url));

/** A process that builds under the lock: it writes "begin", waits, then "end" into one log. */
function buildInChild(root, log, name) {
  const script = `
    import { appendFileSync } from 'node:fs';
    import { withBuildLock } from ${JSON.stringify(LOCK_MODULE)};
    await withBuildLock(${JSON.stringify(root)}, '.build', async () => {
      appendFileSync(${JSON.stringify(log)}, 'begin ${name}\\n');
      await new Promise((resolve) => setTimeout(resolve, 300));
      appendFileSync(${JSON.stringify(log)}, 'end ${name}\\n');
    });`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: 'inherit' });
  return new Promise((resolve, reject) =>
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`exit ${code}`)))),
  );
}

describe('builds of one checkout', () => {
  it('take turns: two at once never overlap', async () => {
    const root = newFolder();
    const log = join(root, 'log');
    writeFileSync(log, '');
    await Promise.all([buildInChild(root, log, 'a'), buildInChild(root, log, 'b')]);
    const lines = readFileSync(log, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0].replace('begin', 'end')).toBe(lines[1]);
    expect(lines[2].replace('begin', 'end')).toBe(lines[3]);
  }, 30_000);

  it('are up to date until an input changes', () => {
    const root = newFolder();
    mkdirSync(join(root, 'src'));
    mkdirSync(join(root, 'dist'));
    writeFileSync(join(root, 'src', 'a.ts'), 'one');
    const before = hashInputs(root, ['src']);
    expect(isUpToDate(join(root, 'dist'), before)).toBe(false);
    markUpToDate(join(root, 'dist'), before);
    expect(isUpToDate(join(root, 'dist'), hashInputs(root, ['src']))).toBe(true);
    writeFileSync(join(root, 'src', 'a.ts'), 'two');
    expect(isUpToDate(join(root, 'dist'), hashInputs(root, ['src']))).toBe(false);
    writeFileSync(join(root, 'src', 'a.ts'), 'one');
    writeFileSync(join(root, 'src', 'b.ts'), '');
    expect(isUpToDate(join(root, 'dist'), hashInputs(root, ['src']))).toBe(false);
  });
});
