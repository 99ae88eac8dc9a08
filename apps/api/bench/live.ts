/**
 * Live positions at fleet scale, against the real server on the benchmark data (bench-data.ts):
 * drivers' phones report through the driver-app endpoint (10,000 drivers every 5 seconds: 2,000
 * reports a second) while dashboards hold live streams open (2,000, on as many drivers). It
 * prints how fast reports are answered, how long a position takes from the phone to a dashboard,
 * and how many acknowledged positions never reached the dashboard watching that driver. Each
 * dashboard's tab also holds the SOS banner's stream, and phones press the panic button during the
 * measured seconds (live-sos.ts): from the press to every tab, and the deliveries lost.
 *
 *   npm run bench:live                          the embedded database (PGlite in BENCH_DATA_DIR)
 *   BENCH_DATABASE_URL=postgres://.../bench npm run bench:live
 *   REDIS_URL=redis://127.0.0.1:6379            positions through Redis, as with several instances
 *   BENCH_LIVE_DRIVERS=10000 BENCH_LIVE_DASHBOARDS=2000 BENCH_LIVE_INTERVAL=5 BENCH_LIVE_SECONDS=30
 *   BENCH_LIVE_WARMUP=5                         seconds of reports before the measured ones
 *   BENCH_LIVE_SOS=1                            panic buttons pressed a second while measuring
 *
 * The figures are of the reports sent in the measured seconds, after a warm-up of one interval in
 * which every phone reports once: a fleet's phones do not all start at the same instant against a
 * server just started (its code not yet compiled, its connections to the database not yet open,
 * its devices not yet known), and that instant would otherwise set the p99 of a 30-second run.
 * The warm-up's own figures are printed too, and a position lost in it counts as lost.
 *
 * Writes bench/results/live-<database>[-redis].json and latest.json. It fails on nothing.
 */
import { Agent } from 'node:http';
import { sql } from 'drizzle-orm';
import { generateDeviceToken } from '../src/modules/driver-locations/device-tokens';
import { insertDeviceTokens, openBenchDatabase, prepare, rowsOf, sendPosition } from './bench-data';
import { startServer } from './bench-server';
import { controlRoomSessions, createSosTally, openTabStream } from './live-sos';
import { writeResults } from './results';

const DRIVERS = Number(process.env.BENCH_LIVE_DRIVERS ?? 10_000);
const DASHBOARDS = Number(process.env.BENCH_LIVE_DASHBOARDS ?? 2_000);
const INTERVAL_S = Number(process.env.BENCH_LIVE_INTERVAL ?? 5);
const SECONDS = Number(process.env.BENCH_LIVE_SECONDS ?? 30);
const WARMUP_S = Number(process.env.BENCH_LIVE_WARMUP ?? INTERVAL_S);
const SOS_PER_SECOND = Number(process.env.BENCH_LIVE_SOS ?? 1);
const LABEL = 'Benchmark phone';
// Reports are sent every 10 ms, 20 at a time at 2,000 a second: phones report independently, and
// sending a second's reports in 20 bursts of 100 (every 50 ms) made each report wait behind up to
// 99 others that no fleet sends at the same instant.
const TICK_MS = 10;

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** Device tokens for the reporting drivers, written straight into the database (hashed, as staff issue them). */
async function setUp(url: string | undefined) {
  const database = await openBenchDatabase(url);
  const { db } = database;
  await prepare(db, database.kind);
  // Tokens of an earlier run are revoked so that they do not pile up.
  await db.execute(
    sql`update driver_device_tokens set revoked_at = now() where label = ${LABEL} and revoked_at is null`,
  );
  const ids = rowsOf(
    await db.execute(sql`select id from drivers where deleted_at is null order by id limit ${DRIVERS}`),
  ).map((row) => String(row.id));
  const phones = ids.map((driverId) => ({ driverId, token: generateDeviceToken() }));
  await insertDeviceTokens(db, phones, LABEL);
  // A session for each dashboard's tab, ten tabs to a staff member (the streams' caps per account).
  const sessions = await controlRoomSessions(db, Math.min(DASHBOARDS, phones.length));
  await database.close();
  return { phones, sessions, kind: database.kind };
}

/**
 * The share of reports the server answered within each of these times (seconds, buckets of its
 * request histogram), by its own clock: the load generator shares the two cores, and its own
 * delays (2,000 streams to read) add to the times it measures.
 */
async function serverBuckets(baseUrl: string, bounds: number[]) {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  const count = (le: string) =>
    text
      .split('\n')
      .filter(
        (line) =>
          line.startsWith('bmet_http_request_duration_seconds_bucket{') &&
          line.includes('route="/api/driver-app/location"') &&
          line.includes(`le="${le}"`),
      )
      .reduce((sum, line) => sum + Number(line.split(' ').at(-1)), 0);
  return { all: count('+Inf'), within: bounds.map((bound) => count(String(bound))) };
}
type Buckets = Awaited<ReturnType<typeof serverBuckets>>;

/** The share of the reports between two readings of the server's histogram within each bound. */
function reportsWithin(bounds: number[], before: Buckets, after: Buckets) {
  const all = after.all - before.all;
  return bounds.map((bound, i) => ({
    ms: bound * 1000,
    percent: all === 0 ? 0 : Math.round(((after.within[i]! - before.within[i]!) / all) * 1000) / 10,
  }));
}

async function main() {
  const url = process.env.BENCH_DATABASE_URL;
  const { phones, sessions, kind } = await setUp(url);
  const server = await startServer({
    url,
    env: process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {},
  });
  const { port } = new URL(server.baseUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: 128 });

  // Each report on a watched driver until its dashboard shows it: when it was sent, and whether in
  // the measured seconds.
  const sentAt = new Map<string, { sent: number; measured: boolean }>();
  const delivered: number[] = [];
  const deliveredInWarmUp: number[] = [];
  const watched = new Set<string>();
  const onLocation = (driverId: string, at: string) => {
    const report = sentAt.get(`${driverId}|${at}`);
    if (report === undefined) return;
    sentAt.delete(`${driverId}|${at}`);
    (report.measured ? delivered : deliveredInWarmUp).push(Date.now() - report.sent);
  };
  try {
    // Each dashboard's tab holds one stream: its driver's positions, and the SOS banner's alerts.
    const tabs = Math.min(DASHBOARDS, phones.length);
    const sos = createSosTally(tabs);
    const streams: (() => void)[] = [];
    for (let i = 0; i < tabs; i += 100) {
      const batch = phones.slice(i, Math.min(i + 100, tabs));
      streams.push(
        ...(await Promise.all(
          batch.map((phone, k) => {
            watched.add(phone.driverId);
            return openTabStream(
              server.baseUrl,
              sessions[i + k]!,
              { raised: (driverId) => sos.delivered(i + k, driverId), location: onLocation },
              `?drivers=${phone.driverId}`,
            );
          }),
        )),
      );
    }
    console.log(
      `${streams.length} dashboards open, each tab with one stream (its driver's positions and the SOS banner's alerts); ${phones.length} phones report every ${INTERVAL_S} s for ${SECONDS} s.`,
    );
    // The phones that press the panic button, once each, from the end of the list.
    let pressed = 0;
    const press = () => {
      const phone = phones[phones.length - 1 - pressed++]!;
      sos.pressed(phone.driverId, Date.now());
      void fetch(`${server.baseUrl}/api/driver-app/sos`, {
        method: 'POST',
        headers: { authorization: `Bearer ${phone.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ lat: 18.52, long: 73.85 }),
      })
        .then((response) => {
          if (response.status !== 201) sos.failedPress();
          return response.arrayBuffer();
        })
        .catch(() => sos.failedPress());
    };

    const answered: number[] = [];
    const answeredInWarmUp: number[] = [];
    // The slowest answer to a report sent in each second of the run (the warm-up's first), to tell
    // a steady delay from stalls.
    const slowest: number[] = [];
    let runStarted = Date.now();
    let failed = 0;
    let acknowledgedWatched = 0;
    const report = (phone: (typeof phones)[number], step: number) =>
      new Promise<void>((resolve) => {
        const at = new Date().toISOString();
        const body = JSON.stringify({
          lat: 18 + (step % 1000) / 10_000,
          long: 73 + (step % 7) / 1000,
          recordedAt: at,
        });
        const started = Date.now();
        const measured = started - runStarted >= WARMUP_S * 1000;
        if (watched.has(phone.driverId)) sentAt.set(`${phone.driverId}|${at}`, { sent: started, measured });
        sendPosition(
          { port, agent },
          phone.token,
          body,
          (status) => {
            (measured ? answered : answeredInWarmUp).push(Date.now() - started);
            const second = Math.floor((started - runStarted) / 1000);
            slowest[second] = Math.max(slowest[second] ?? 0, Date.now() - started);
            if (status !== 204) {
              failed++;
              sentAt.delete(`${phone.driverId}|${at}`);
            } else if (measured && watched.has(phone.driverId)) acknowledgedWatched++;
            resolve();
          },
          () => {
            failed++;
            sentAt.delete(`${phone.driverId}|${at}`);
            resolve();
          },
        );
      });

    const bounds = [0.005, 0.01, 0.025, 0.05, 0.1];
    const started = Date.now();
    runStarted = started;
    // Reports not yet answered (a count: a list of all 70,000 promises grew the load generator's heap).
    let inFlight = 0;
    const perTick = (phones.length / INTERVAL_S) * (TICK_MS / 1000);
    let sent = 0;
    let atMeasuring: Buckets | undefined;
    // Every tick, the reports due by then: each phone once per interval, evenly spread.
    while (Date.now() - started < (WARMUP_S + SECONDS) * 1000) {
      const due = Math.floor(((Date.now() - started) / TICK_MS) * perTick);
      for (; sent < due; sent++) {
        const phone = phones[sent % phones.length]!;
        inFlight++;
        void report(phone, Math.floor(sent / phones.length)).then(() => inFlight--);
      }
      await new Promise((resolve) => setTimeout(resolve, TICK_MS));
      const measuring = Date.now() - started - WARMUP_S * 1000;
      while (measuring > 0 && pressed < Math.floor((measuring / 1000) * SOS_PER_SECOND)) press();
      // The server's own count of answers when the measured seconds begin (those of the warm-up
      // still in flight then count as measured: a few dozen).
      if (!atMeasuring && Date.now() - started >= WARMUP_S * 1000) {
        atMeasuring = await serverBuckets(server.baseUrl, bounds);
      }
    }
    while (inFlight > 0) await new Promise((resolve) => setTimeout(resolve, TICK_MS));
    const elapsed = (Date.now() - started) / 1000 - WARMUP_S;
    // A last moment for the pushes still on their way.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const lost = sentAt.size;
    for (const close of streams) close();
    const sosFigures = sos.figures();
    const serverSide = reportsWithin(
      bounds,
      atMeasuring ?? { all: 0, within: bounds.map(() => 0) },
      await serverBuckets(server.baseUrl, bounds),
    );

    for (const list of [answered, answeredInWarmUp, delivered, deliveredInWarmUp]) list.sort((a, b) => a - b);
    const latency = (sorted: number[]) => ({
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      max: sorted.at(-1) ?? 0,
    });
    const figures = {
      database: kind,
      redis: Boolean(process.env.REDIS_URL),
      phones: phones.length,
      dashboards: streams.length,
      warmUpSeconds: WARMUP_S,
      measuredSeconds: SECONDS,
      reportsPerSecond: Math.round(answered.length / elapsed),
      reports: answered.length,
      failedReports: failed,
      reportMs: latency(answered),
      warmUpReportMs: latency(answeredInWarmUp),
      slowestReportMsBySecond: Array.from(slowest, (ms) => ms ?? 0),
      deliveries: delivered.length,
      deliveryMs: latency(delivered),
      warmUpDeliveryMs: latency(deliveredInWarmUp),
      acknowledgedWatched,
      lost,
      serverSide,
      sos: sosFigures,
      serverErrors: server.errors(),
    };
    const shown = (ms: { p50: number; p99: number; max: number }) =>
      `p50 ${ms.p50} ms, p99 ${ms.p99} ms, max ${ms.max} ms`;
    console.log(
      `\nLive positions (${kind}${figures.redis ? ', Redis' : ''}), ${SECONDS} s measured after ${WARMUP_S} s of warm-up:`,
    );
    console.log(
      `  reports answered      ${figures.reports} (${figures.reportsPerSecond}/s), failed ${failed} (warm-up included)`,
    );
    console.log(`  report latency        ${shown(figures.reportMs)}`);
    console.log(
      `  answered by the server within ${serverSide.map((share) => `${share.ms} ms: ${share.percent}%`).join(', ')} (its own clock)`,
    );
    console.log(`  phone to dashboard    ${shown(figures.deliveryMs)}`);
    console.log(
      `  delivered             ${figures.deliveries} of ${acknowledgedWatched} acknowledged on watched drivers; lost ${lost} (warm-up included)`,
    );
    console.log(
      `  warm-up               reports ${shown(figures.warmUpReportMs)}; phone to dashboard ${shown(figures.warmUpDeliveryMs)}`,
    );
    console.log(
      `  slowest report of each second, warm-up first: ${figures.slowestReportMsBySecond.join(' ')} ms`,
    );
    console.log(
      `  SOS press to every tab ${shown(sosFigures.deliveryMs)}: ${sosFigures.presses} presses (${sosFigures.failedPresses} failed) to ${sosFigures.tabs} tabs, ${sosFigures.deliveries} deliveries, lost ${sosFigures.lost}`,
    );
    console.log(`  server errors logged  ${figures.serverErrors}`);
    // The first few, to tell what went wrong without a second run.
    for (const line of server
      .log()
      .split('\n')
      .filter((entry) => /"level":(50|60)/.test(entry))
      .slice(0, 3))
      console.log(`    ${line.slice(0, 600)}`);
    writeResults(`live-${kind}${figures.redis ? '-redis' : ''}`, {
      date: new Date().toISOString(),
      ...figures,
    });
  } finally {
    agent.destroy();
    await server.stop();
  }
}

await main();
