/**
 * How fast the dashboard's figures answer on a million trips: every /api/stats endpoint, for each
 * role, over the periods the dashboard offers (today, 7 and 30 days), a custom year and a period
 * given as moments (whose partial days are read from the trips), and the compliance summary the
 * dashboard and the header also ask for, through the app (inject).
 * Prints the median and 95th percentile of each; the goal is 150 ms or less.
 *
 *   npm run bench:stats                                    PGlite kept in $BENCH_DATA_DIR
 *   BENCH_DATABASE_URL=postgres://.../bmet_bench npm run bench:stats    PostgreSQL
 *
 * Reuses (or seeds once) the benchmark data of bench-data.ts. Writes bench/results/stats-<kind>.json
 * and fails on nothing: read the figures.
 */
import { DATA_DIR, headersOf, prepare, type Staff, openBenchDatabase, buildBenchApp } from './bench-data';
import { writeResults } from './results';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 20);
const GOAL_MS = 150;
const ENDPOINTS = ['overview', 'daily', 'car-types', 'hours', 'franchises', 'states'] as const;
/** Who may read what (the rest answers 403 and is not measured). */
const ALLOWED: Record<Staff['role'], readonly (typeof ENDPOINTS)[number][]> = {
  admin: ENDPOINTS,
  city_dealer: ['overview', 'daily', 'car-types', 'hours', 'franchises'],
  franchise: ['overview', 'daily', 'car-types', 'hours'],
};

/** A date in India, `daysAgo` days before today. */
const indianDate = (daysAgo: number) =>
  new Date(Date.now() + 5.5 * 3_600_000 - daysAgo * 86_400_000).toISOString().slice(0, 10);

const percentile = (sorted: number[], share: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)]!;

async function main() {
  const database = await openBenchDatabase();
  const { db } = database;
  console.log(`Database: ${database.kind}${database.kind === 'pglite' ? ` in ${DATA_DIR}` : ''}`);
  const { admin, dealer, franchise, newDealer } = await prepare(db, database.kind);
  const app = await buildBenchApp(db, {
    // Thousands of requests from one address within a minute: the measure, not an attack.
    rateLimitPerMinute: 1_000_000,
  });

  const periods: [string, { from: string; to: string }][] = [
    ['today', { from: indianDate(0), to: indianDate(0) }],
    ['7 days', { from: indianDate(6), to: indianDate(0) }],
    ['30 days', { from: indianDate(29), to: indianDate(0) }],
    ['366 days', { from: indianDate(365), to: indianDate(0) }],
    [
      '30 days from 10:30 to now (moments)',
      { from: `${indianDate(29)}T10:30:00+05:30`, to: new Date().toISOString() },
    ],
  ];
  const callers: [string, Staff][] = [
    ['admin', admin],
    ['city dealer', dealer],
    ['franchise', franchise],
    ['new city dealer', newDealer],
  ];

  const figures: Record<string, unknown>[] = [];
  let over = 0;
  console.log(
    `\n=== /api/stats and /api/compliance/summary: first (cold), median and 95th percentile of ${REQUESTS} requests`,
  );
  for (const [name, who] of callers) {
    const headers = await headersOf(db, who);
    type Request = [period: string, endpoint: string, url: string];
    const requests: Request[] = [
      ...periods.flatMap(([periodName, period]) =>
        ALLOWED[who.role].map((endpoint): Request => [
          periodName,
          endpoint,
          `/api/stats/${endpoint}?${new URLSearchParams(period)}`,
        ]),
      ),
      // Counted as of today: no period.
      ['now', 'compliance', '/api/compliance/summary'],
    ];
    for (const [periodName, endpoint, url] of requests) {
      const times: number[] = [];
      for (let i = 0; i <= REQUESTS; i++) {
        const start = performance.now();
        const response = await app.inject({ method: 'GET', url, headers });
        times.push(performance.now() - start);
        if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
      }
      const [first, ...rest] = times;
      rest.sort((a, b) => a - b);
      const median = percentile(rest, 0.5);
      const p95 = percentile(rest, 0.95);
      if (p95 > GOAL_MS) over += 1;
      figures.push({
        role: name,
        period: periodName,
        endpoint,
        firstMs: first,
        medianMs: median,
        p95Ms: p95,
      });
      console.log(
        `  ${name.padEnd(16)} ${periodName.padEnd(36)} ${endpoint.padEnd(11)} first ${first!.toFixed(1).padStart(7)} ms` +
          `   median ${median.toFixed(1).padStart(6)} ms   p95 ${p95.toFixed(1).padStart(6)} ms${p95 > GOAL_MS ? '   OVER' : ''}`,
      );
    }
  }
  console.log(
    over
      ? `\n${over} of ${figures.length} over ${GOAL_MS} ms at the 95th percentile.`
      : `\nEvery endpoint within ${GOAL_MS} ms at the 95th percentile.`,
  );
  writeResults(`stats-${database.kind}`, {
    database: database.kind,
    requests: REQUESTS,
    goalMs: GOAL_MS,
    figures,
  });
  await app.close();
  await database.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
