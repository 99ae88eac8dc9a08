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
/** The tests that failed, named again under the totals so the end of a long log says which. */
const failures = [];
/** The tests that failed once and passed when run again (CI runs each failure twice). */
const flaky = [];
/** Collects the failed specs of a Playwright report, whose suites nest. */
function playwrightFailures(suite, file) {
  for (const spec of suite.specs ?? []) {
    for (const test of spec.tests ?? []) {
      const name = `${spec.file ?? file}:${spec.line} [${test.projectName}] ${spec.title}`;
      if (test.status === 'unexpected') failures.push(name);
      if (test.status === 'flaky') flaky.push(name);
    }
  }
  for (const child of suite.suites ?? []) playwrightFailures(child, suite.file ?? file);
}
/** Adds a runner's counts as soon as its step ends (Playwright empties test-results/ when it starts). */
function countResults(file) {
  if (!existsSync(file)) return;
  const report = JSON.parse(readFileSync(file, 'utf8'));
  if (file === vitestJson) {
    passed += report.numPassedTests ?? 0;
    failed += report.numFailedTests ?? 0;
    skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
    for (const file of report.testResults ?? []) {
      const name = file.name.startsWith(root) ? file.name.slice(root.length + 1) : file.name;
      const failedTests = (file.assertionResults ?? []).filter((t) => t.status === 'failed');
      for (const test of file.assertionResults ?? []) {
        if (test.status === 'passed' && test.failureMessages?.length)
          flaky.push(`${name} > ${test.fullName}`);
      }
      for (const test of failedTests) {
        const reason = String(test.failureMessages?.[0] ?? '').split('\n')[0];
        failures.push(`${name} > ${test.fullName}: ${reason}`);
      }
      if (file.status === 'failed' && !failedTests.length)
        failures.push(`${name}: ${String(file.message ?? '').split('\n')[0]}`);
    }
  } else {
    const stats = report.stats ?? {};
    passed += (stats.expected ?? 0) + (stats.flaky ?? 0);
    failed += stats.unexpected ?? 0;
    skipped += stats.skipped ?? 0;
    for (const suite of report.suites ?? []) playwrightFailures(suite, suite.file);
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
for (const test of flaky) console.log(`  flaky (passed when run again): ${test.slice(0, 400)}`);
for (const failure of failures) console.log(`  failed: ${failure.slice(0, 400)}`);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failedSteps.length || failed ? 1 : 0);
