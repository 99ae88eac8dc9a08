import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const HELPER = join(import.meta.dirname, 'stopped-early.ts');
const folder = mkdtempSync(join(tmpdir(), 'bmet-stopped-early-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Runs a script that hands `work` to failIfStoppedEarly, as the backup and restore commands do. */
function run(work: string) {
  const script = join(folder, `script-${Math.random().toString(36).slice(2)}.ts`);
  writeFileSync(
    script,
    `import { failIfStoppedEarly } from ${JSON.stringify(HELPER)};\n` +
      `const done = (async () => { ${work} })();\nfailIfStoppedEarly(done, 'restore');\n`,
  );
  const result = spawnSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8' });
  return { code: result.status, output: result.stdout + result.stderr };
}

describe('a command that stops before it finishes', () => {
  it('fails and says so when a step waits for something that never comes', () => {
    const { code, output } = run('await new Promise(() => {}); console.log("restored");');
    expect(code).toBe(1);
    expect(output).toContain('The restore stopped before it finished');
    expect(output).not.toContain('restored');
  });

  it('ends as before when the work finishes', () => {
    const { code, output } = run(
      'await new Promise((resolve) => setTimeout(resolve, 10)); console.log("restored");',
    );
    expect(code).toBe(0);
    expect(output.trim()).toBe('restored');
  });
});
