/**
 * What a phone meets: Lighthouse (mobile, its default simulated slow 4G) on the sign-in screen, the
 * trip list, the driver list, a driver dashboard and the dashboard, signed in by script, and the
 * trip list's own timings on a million trips (first rows after navigation, results after the last
 * keystroke), in Debian's Chromium against the real server on the benchmark data (bench-data.ts).
 *
 *   npm run bench:web                  the embedded database (PGlite in BENCH_DATA_DIR)
 *   BENCH_DATABASE_URL=postgres://.../bench npm run bench:web
 *   CHROMIUM_PATH=/usr/bin/chromium    the browser
 *   BENCH_WEB_SCREENS="driver dashboard" BENCH_WEB_CACHE=app
 *                                      only those screens (sign-in always), only that cache
 *
 * Builds nothing: run it after `npm run build --workspace @bmet/web` (npm run bench:web does).
 * Prints a table and writes bench/results/web.json. It fails on nothing.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import lighthouse from 'lighthouse';
import type { Page } from 'puppeteer-core';
import { DEMO_ACCOUNTS } from '../src/seed/demo';
import { COMMON, benchEmail, prepare, rowsOf, openBenchDatabase } from './bench-data';
import { startServer } from './bench-server';
import { launchChromium } from './browser';
import { writeResults } from './results';
import { REPO_ROOT } from '../src/config';
import { sql } from 'drizzle-orm';

const PASSWORD = 'bench-password-not-secret';
const RUNS = Number(process.env.BENCH_WEB_RUNS ?? 3);
const REPORTS = join(REPO_ROOT, 'bench', 'results', 'lighthouse');
/** To measure one change: only these screens (comma-separated names as printed), only one cache. */
const ONLY_SCREENS = process.env.BENCH_WEB_SCREENS?.split(',').map((name) => name.trim());
const ONLY_CACHE = process.env.BENCH_WEB_CACHE as 'app' | 'empty' | undefined;

type Score = {
  screen: string;
  score: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  scriptKB: number;
  /** Every run's score and blocking time, lowest first: how far this machine's runs spread. */
  spread?: { scores: number[]; tbtMs: number[] };
};

/** A screen's runs as printed: scores and blocking times from lowest to highest. */
const spreadOf = (score: Score) =>
  score.spread && score.spread.scores.length > 1
    ? `${score.spread.scores.join(' ')}; ${score.spread.tbtMs.join(' ')}`
    : '';

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * Lighthouse on one screen. `cache`: 'empty' is a first visit (the session, in session storage,
 * kept); 'app' is how staff meet a screen after signing in, the app's files cached by the sign-in
 * screen (hashed files are cached for a year).
 */
async function audit(page: Page, screen: string, url: string, cache: 'empty' | 'app'): Promise<Score> {
  const runs: Score[] = [];
  for (let run = 0; run < RUNS; run++) {
    if (cache === 'empty') {
      const cdp = await page.createCDPSession();
      await cdp.send('Network.clearBrowserCache');
      await cdp.detach();
    } else {
      await openWelcome(page, new URL(url).origin);
    }
    const result = await runLighthouse(page, url);
    if (!result) continue;
    // The whole report, to see what a score is made of (bench/results is not kept in git).
    mkdirSync(REPORTS, { recursive: true });
    writeFileSync(
      join(REPORTS, `${screen.replaceAll(' ', '-')}-${cache}-cache.json`),
      JSON.stringify(result.lhr),
    );
    const { audits, categories } = result.lhr;
    // A run Lighthouse could not score (NO_NAVSTART, NO_FCP on a busy machine) is told and left
    // out: counted as 0, it pulled the median down and showed in the spread as a score.
    if (typeof categories.performance?.score !== 'number') {
      console.warn(
        `Lighthouse could not score ${url} (run ${run + 1}): ${result.lhr.runtimeError?.code ?? 'no score'}`,
      );
      continue;
    }
    const scripts = (
      audits['resource-summary']?.details as { items?: { resourceType: string; transferSize: number }[] }
    )?.items?.find((item) => item.resourceType === 'script');
    runs.push({
      screen: `${screen} (${cache === 'empty' ? 'first visit' : 'after sign-in'})`,
      score: Math.round(categories.performance.score * 100),
      fcpMs: Math.round(audits['first-contentful-paint']?.numericValue ?? 0),
      lcpMs: Math.round(audits['largest-contentful-paint']?.numericValue ?? 0),
      tbtMs: Math.round(audits['total-blocking-time']?.numericValue ?? 0),
      scriptKB: Number(((scripts?.transferSize ?? 0) / 1024).toFixed(1)),
    });
  }
  if (runs.length === 0) {
    return {
      screen: `${screen} (no run finished)`,
      score: NaN,
      fcpMs: NaN,
      lcpMs: NaN,
      tbtMs: NaN,
      scriptKB: NaN,
    };
  }
  // The median run by score, as Lighthouse's own advice for noisy machines, with the spread of all.
  const byScore = runs.sort((a, b) => a.score - b.score);
  return {
    ...byScore[Math.floor(runs.length / 2)]!,
    spread: {
      scores: byScore.map((run) => run.score),
      tbtMs: runs.map((run) => run.tbtMs).sort((a, b) => a - b),
    },
  };
}

/**
 * One Lighthouse run, tried again when Lighthouse loses its protocol session on a busy machine
 * ("Session closed"), as happens now and then: a lost run is told and left out, not the end of
 * the benchmark.
 */
async function runLighthouse(page: Page, url: string) {
  for (let attempt = 1; attempt <= 3; attempt++) {
    try {
      const result = await lighthouse(
        url,
        { output: 'json', logLevel: 'error', onlyCategories: ['performance'], disableStorageReset: true },
        undefined,
        page,
      );
      if (result) return result;
      console.warn(`Lighthouse gave no result for ${url} (attempt ${attempt})`);
    } catch (error) {
      console.warn(`Lighthouse failed on ${url} (attempt ${attempt}): ${(error as Error).message}`);
    }
  }
  return undefined;
}

/**
 * The welcome screen, shown. Signed-in screens keep streams open (the SOS alerts, the inbox) and
 * the network never goes idle: its heading is waited for instead.
 */
async function openWelcome(page: Page, baseUrl: string) {
  await page.goto(`${baseUrl}/welcome`, { waitUntil: 'load' });
  await page.waitForSelector('main h2');
}

async function signIn(page: Page, baseUrl: string) {
  await page.goto(`${baseUrl}/admin`, { waitUntil: 'networkidle0' });
  await page.type('input[type=email]', benchEmail(DEMO_ACCOUNTS.admin));
  await page.type('input[type=password]', PASSWORD);
  await Promise.all([page.waitForNavigation().catch(() => undefined), page.click('button[type=submit]')]);
  await page.waitForFunction("location.pathname === '/welcome'");
}

/** First rows after navigating to the trip list, and results after the last key of a search. */
async function tripListTimings(page: Page, baseUrl: string) {
  const firstRows: number[] = [];
  const searchResults: number[] = [];
  for (let run = 0; run < 5; run++) {
    await openWelcome(page, baseUrl);
    await page.goto(`${baseUrl}/trips`);
    await page.waitForSelector('tbody tr');
    firstRows.push(
      // Evaluated in the page (this file is compiled without the DOM's types).
      await page.evaluate<[], () => number>(
        "Math.round(performance.now() - (performance.getEntriesByType('navigation')[0]?.startTime ?? 0))" as never,
      ),
    );
    const search = await page.$('input[placeholder="Search Trips"]');
    if (!search) throw new Error('The trip list has no search box');
    const text = run % 2 === 0 ? COMMON : 'iyer';
    await search.type(text, { delay: 60 });
    const lastKey = Date.now();
    await page.waitForFunction(
      `(() => {
        // A trip is found by its title, its driver, its places: the word is somewhere in its row.
        const rows = [...document.querySelectorAll('tbody tr')].map((row) => (row.textContent ?? '').toLowerCase());
        return rows.length > 0 && rows.every((row) => row.includes(${JSON.stringify(text)}));
      })()`,
      // On each change of the page: animation frames may not run in a page Lighthouse has left.
      { polling: 'mutation' },
    );
    searchResults.push(Date.now() - lastKey);
  }
  return { firstRowsMs: median(firstRows), searchResultsMs: median(searchResults), firstRows, searchResults };
}

async function main() {
  const url = process.env.BENCH_DATABASE_URL;
  const database = await openBenchDatabase(url);
  await prepare(database.db, database.kind);
  const [driver] = rowsOf(
    await database.db.execute(
      sql`select id from drivers where deleted_at is null and lat is not null limit 1`,
    ),
  );
  await database.close();

  const server = await startServer({ url });
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const scores: Score[] = [];
    scores.push(await audit(page, 'sign-in', `${server.baseUrl}/admin`, 'empty'));
    await signIn(page, server.baseUrl);
    const screens: [string, string][] = [
      ['trips', '/trips'],
      ['drivers', '/drivers'],
      ['driver dashboard', `/drivers/${String(driver?.id)}`],
      ['dashboard', '/dashboard'],
    ];
    for (const cache of ['app', 'empty'] as const) {
      if (ONLY_CACHE && cache !== ONLY_CACHE) continue;
      for (const [screen, path] of screens) {
        if (ONLY_SCREENS && !ONLY_SCREENS.includes(screen)) continue;
        scores.push(await audit(page, screen, `${server.baseUrl}${path}`, cache));
      }
    }

    await page.emulateNetworkConditions(null);
    // Lighthouse left the page a phone's: at that width the trip list shows cards, not a table.
    await page.setViewport({ width: 1440, height: 900 });
    // The Lighthouse figures are printed even when the trip list's own timings cannot be taken.
    const trips = await tripListTimings(page, server.baseUrl).catch((error: Error) => {
      console.warn(`The trip list's timings were not taken: ${error.message.split('\n')[0]}`);
      return null;
    });

    console.log(
      `\nLighthouse ${RUNS > 1 ? `(median of ${RUNS} runs) ` : ''}mobile, simulated slow 4G (${database.kind}):`,
    );
    console.log(
      `  ${'screen'.padEnd(18)} ${'score'.padStart(5)} ${'FCP ms'.padStart(7)} ${'LCP ms'.padStart(7)} ${'TBT ms'.padStart(7)} ${'JS KB'.padStart(7)}  every run (score, TBT ms)`,
    );
    for (const s of scores) {
      console.log(
        `  ${s.screen.padEnd(34)} ${String(s.score).padStart(5)} ${String(s.fcpMs).padStart(7)} ${String(s.lcpMs).padStart(7)} ${String(s.tbtMs).padStart(7)} ${String(s.scriptKB).padStart(7)}  ${spreadOf(s)}`,
      );
    }
    if (trips) {
      console.log('\nTrip list on this machine, unthrottled (median of 5):');
      console.log(`  first rows after navigation   ${trips.firstRowsMs} ms  (${trips.firstRows.join(', ')})`);
      console.log(
        `  results after the last key    ${trips.searchResultsMs} ms  (${trips.searchResults.join(', ')})`,
      );
    }
    console.log(`  server errors logged: ${server.errors()}`);
    for (const line of server.errorLines()) console.log(`    ${line.slice(0, 400)}`);
    writeResults('web', {
      date: new Date().toISOString(),
      database: database.kind,
      lighthouse: scores,
      trips,
    });
  } finally {
    await browser.close();
    await server.stop();
  }
}

await main();
