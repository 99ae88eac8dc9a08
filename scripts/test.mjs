// The one test command: lint and format check, type check, unit/API/component tests (vitest),
// then browser tests (Playwright). Prints a closing line with the totals.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const results = join(root, 'test-results');
mkdirSync(results, { recursive: true });
const vitestJson = join(results, 'vitest.json');
const playwrightJson = join(results, 'playwright.json');
rmSync(vitestJson, { force: true });
rmSync(playwrightJson, { force: true });

const steps = [
  // The texts of both languages, compiled into the functions every part imports.
  ['texts', 'node', ['scripts/compile-texts.mjs']],
  ['lint', 'npx', ['eslint', '.']],
  ['format', 'npx', ['prettier', '--check', '.']],
  ['types (api)', 'npx', ['tsc', '-p', 'apps/api']],
  ['types (web)', 'npx', ['tsc', '-p', 'apps/web']],
  ...(existsSync(join(root, 'e2e/tsconfig.json')) ? [['types (e2e)', 'npx', ['tsc', '-p', 'e2e']]] : []),
  [
    'unit, API and component tests',
    'npx',
    ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`],
  ],
  ['chromium', 'node', ['scripts/ensure-chromium.mjs']],
  ['web build', 'npm', ['run', 'build', '--workspace', '@bmet/web']],
  // What each screen makes a phone download on its first load, against the budgets.
  ['web budgets', 'node', ['apps/web/scripts/check-budgets.mjs']],
  [
    'browser tests',
    'npx',
    ['playwright', 'test', '--reporter=list,json'],
    { PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightJson },
  ],
];

let passed = 0;
let failed = 0;
let skipped = 0;
/** Adds a runner's counts as soon as its step ends (Playwright empties test-results/ when it starts). */
function countResults(file) {
  if (!existsSync(file)) return;
  const report = JSON.parse(readFileSync(file, 'utf8'));
  if (file === vitestJson) {
    passed += report.numPassedTests ?? 0;
    failed += report.numFailedTests ?? 0;
    skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  } else {
    const stats = report.stats ?? {};
    passed += (stats.expected ?? 0) + (stats.flaky ?? 0);
    failed += stats.unexpected ?? 0;
    skipped += stats.skipped ?? 0;
  }
}

const failedSteps = [];
for (const [name, command, args, env = {}] of steps) {
  console.log(`\n=== ${name} ===`);
  const started = Date.now();
  const run = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  countResults(vitestJson);
  countResults(playwrightJson);
  rmSync(vitestJson, { force: true });
  rmSync(playwrightJson, { force: true });
  if (run.status !== 0) {
    failedSteps.push(name);
    console.log(`--- ${name}: FAILED (${seconds} s)`);
    // Later steps are still worth running, except the browser tests without a browser or a build.
    if (['texts', 'chromium', 'web build'].includes(name)) break;
  } else {
    console.log(`--- ${name}: ok (${seconds} s)`);
  }
}

// A failing step without test counts (lint, types, build) still fails the run.
failed += failedSteps.filter((s) => !['unit, API and component tests', 'browser tests'].includes(s)).length;

console.log(failedSteps.length ? `\nFailed steps: ${failedSteps.join(', ')}` : '\nAll steps passed.');
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failedSteps.length || failed ? 1 : 0);
