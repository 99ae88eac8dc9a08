/**
 * Live positions at fleet scale, against the real server on the benchmark data (bench-data.ts):
 * drivers' phones report through the driver-app endpoint (10,000 drivers every 5 seconds: 2,000
 * reports a second) while dashboards hold live streams open (2,000, on as many drivers). It
 * prints how fast reports are answered, how long a position takes from the phone to a dashboard,
 * and how many acknowledged positions never reached the dashboard watching that driver.
 *
 *   npm run bench:live                          the embedded database (PGlite in BENCH_DATA_DIR)
 *   BENCH_DATABASE_URL=postgres://.../bench npm run bench:live
 *   REDIS_URL=redis://127.0.0.1:6379            positions through Redis, as with several instances
 *   BENCH_LIVE_DRIVERS=10000 BENCH_LIVE_DASHBOARDS=2000 BENCH_LIVE_INTERVAL=5 BENCH_LIVE_SECONDS=30
 *
 * Writes bench/results/live.json. It fails on nothing.
 */
import { randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../db/client';
import { generateDeviceToken, hashDeviceToken } from '../modules/driver-locations/device-tokens';
import { DATA_DIR, headersOf, prepare, rowsOf } from './bench-data';
import { startServer } from './bench-server';
import { writeResults } from './results';

const DRIVERS = Number(process.env.BENCH_LIVE_DRIVERS ?? 10_000);
const DASHBOARDS = Number(process.env.BENCH_LIVE_DASHBOARDS ?? 2_000);
const INTERVAL_S = Number(process.env.BENCH_LIVE_INTERVAL ?? 5);
const SECONDS = Number(process.env.BENCH_LIVE_SECONDS ?? 30);
const STREAMS_PER_SESSION = 10;
const LABEL = 'Benchmark phone';

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** Device tokens for the reporting drivers, written straight into the database (hashed, as staff issue them). */
async function setUp(url: string | undefined) {
  const database = await openDatabase(
    url ? { databaseUrl: url, dataDir: 'memory://' } : { dataDir: DATA_DIR },
  );
  const { db } = database;
  const people = await prepare(db, database.kind);
  // Tokens of an earlier run are revoked so that they do not pile up.
  await db.execute(
    sql`update driver_device_tokens set revoked_at = now() where label = ${LABEL} and revoked_at is null`,
  );
  const ids = rowsOf(
    await db.execute(sql`select id from drivers where deleted_at is null order by id limit ${DRIVERS}`),
  ).map((row) => String(row.id));
  const phones = ids.map((driverId) => ({ driverId, token: generateDeviceToken() }));
  for (let i = 0; i < phones.length; i += 2_000) {
    const rows = phones.slice(i, i + 2_000).map((phone) => ({
      id: randomUUID(),
      driver_id: phone.driverId,
      token_hash: hashDeviceToken(phone.token),
      label: LABEL,
    }));
    await db.execute(sql`
      insert into driver_device_tokens (id, driver_id, token_hash, label)
      select id, driver_id, token_hash, label
      from json_populate_recordset(null::driver_device_tokens, ${JSON.stringify(rows)}::json)`);
  }
  const sessions: string[] = [];
  for (let i = 0; i < Math.ceil(DASHBOARDS / STREAMS_PER_SESSION); i++) {
    sessions.push((await headersOf(db, people.admin, 2)).authorization);
  }
  await database.close();
  return { phones, sessions, kind: database.kind };
}

type Stream = { driverId: string; close: () => void };

/** A dashboard's live stream, read as the web app reads it (fetch, then Server-Sent Events). */
async function openStream(
  baseUrl: string,
  driverId: string,
  authorization: string,
  onLocation: (driverId: string, at: string) => void,
): Promise<Stream> {
  const controller = new AbortController();
  const response = await fetch(`${baseUrl}/api/drivers/location/${driverId}/stream`, {
    headers: { authorization, accept: 'text/event-stream' },
    signal: controller.signal,
  });
  if (!response.ok || !response.body) throw new Error(`stream answered ${response.status}`);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  void (async () => {
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += value;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (!block.startsWith('event: location')) continue;
          const data = block.split('\n').find((line) => line.startsWith('data: '));
          if (data) onLocation(driverId, (JSON.parse(data.slice(6)) as { at: string }).at);
        }
      }
    } catch {
      // Aborted at the end of the run.
    }
  })();
  return { driverId, close: () => controller.abort() };
}

/**
 * The share of reports the server answered within each of these times (seconds, buckets of its
 * request histogram), by its own clock: the load generator shares the two cores, and its own
 * delays (2,000 streams to read) add to the times it measures.
 */
async function reportsWithin(baseUrl: string, bounds: number[]) {
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
  const all = count('+Inf');
  return bounds.map((bound) => ({
    ms: bound * 1000,
    percent: all === 0 ? 0 : Math.round((count(String(bound)) / all) * 1000) / 10,
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

  const sentAt = new Map<string, number>();
  const delivered: number[] = [];
  const watched = new Set<string>();
  const onLocation = (driverId: string, at: string) => {
    const sent = sentAt.get(`${driverId}|${at}`);
    if (sent === undefined) return;
    sentAt.delete(`${driverId}|${at}`);
    delivered.push(Date.now() - sent);
  };
  try {
    const streams: Stream[] = [];
    for (let i = 0; i < Math.min(DASHBOARDS, phones.length); i += 100) {
      const batch = phones.slice(i, Math.min(i + 100, DASHBOARDS));
      streams.push(
        ...(await Promise.all(
          batch.map((phone, k) => {
            watched.add(phone.driverId);
            return openStream(
              server.baseUrl,
              phone.driverId,
              sessions[Math.floor((i + k) / STREAMS_PER_SESSION)]!,
              onLocation,
            );
          }),
        )),
      );
    }
    console.log(
      `${streams.length} dashboards open; ${phones.length} phones report every ${INTERVAL_S} s for ${SECONDS} s.`,
    );

    const answered: number[] = [];
    // The slowest answer to a report sent in each second of the run, to tell a steady delay from stalls.
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
        if (watched.has(phone.driverId)) sentAt.set(`${phone.driverId}|${at}`, started);
        const req = request(
          {
            host: '127.0.0.1',
            port,
            method: 'POST',
            path: '/api/driver-app/location',
            agent,
            headers: {
              authorization: `Bearer ${phone.token}`,
              'content-type': 'application/json',
              'content-length': Buffer.byteLength(body),
            },
          },
          (response) => {
            response.resume();
            response.on('end', () => {
              answered.push(Date.now() - started);
              const second = Math.floor((started - runStarted) / 1000);
              slowest[second] = Math.max(slowest[second] ?? 0, Date.now() - started);
              if (response.statusCode !== 204) {
                failed++;
                sentAt.delete(`${phone.driverId}|${at}`);
              } else if (watched.has(phone.driverId)) acknowledgedWatched++;
              resolve();
            });
          },
        );
        req.on('error', () => {
          failed++;
          sentAt.delete(`${phone.driverId}|${at}`);
          resolve();
        });
        req.end(body);
      });

    const started = Date.now();
    runStarted = started;
    const inFlight: Promise<void>[] = [];
    const perTick = (phones.length / INTERVAL_S) * 0.05;
    let sent = 0;
    // Every 50 ms, the reports due by then: each phone once per interval, evenly spread.
    while (Date.now() - started < SECONDS * 1000) {
      const due = Math.floor(((Date.now() - started) / 50) * perTick);
      for (; sent < due; sent++) {
        const phone = phones[sent % phones.length]!;
        inFlight.push(report(phone, Math.floor(sent / phones.length)));
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await Promise.all(inFlight);
    const elapsed = (Date.now() - started) / 1000;
    // A last moment for the pushes still on their way.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const lost = sentAt.size;
    for (const stream of streams) stream.close();
    const serverSide = await reportsWithin(server.baseUrl, [0.025, 0.05, 0.1]);

    answered.sort((a, b) => a - b);
    delivered.sort((a, b) => a - b);
    const figures = {
      database: kind,
      redis: Boolean(process.env.REDIS_URL),
      phones: phones.length,
      dashboards: streams.length,
      reportsPerSecond: Math.round(answered.length / elapsed),
      reports: answered.length,
      failedReports: failed,
      reportMs: { p50: percentile(answered, 50), p99: percentile(answered, 99), max: answered.at(-1) ?? 0 },
      slowestReportMsBySecond: Array.from(slowest, (ms) => ms ?? 0),
      deliveries: delivered.length,
      deliveryMs: {
        p50: percentile(delivered, 50),
        p99: percentile(delivered, 99),
        max: delivered.at(-1) ?? 0,
      },
      acknowledgedWatched,
      lost,
      serverSide,
      serverErrors: server.errors(),
    };
    console.log(`\nLive positions (${kind}${figures.redis ? ', Redis' : ''}):`);
    console.log(
      `  reports answered      ${figures.reports} (${figures.reportsPerSecond}/s), failed ${failed}`,
    );
    console.log(
      `  report latency        p50 ${figures.reportMs.p50} ms, p99 ${figures.reportMs.p99} ms, max ${figures.reportMs.max} ms`,
    );
    console.log(`  slowest report of each second: ${figures.slowestReportMsBySecond.join(' ')} ms`);
    console.log(
      `  answered by the server within ${serverSide.map((share) => `${share.ms} ms: ${share.percent}%`).join(', ')} (its own clock)`,
    );
    console.log(
      `  phone to dashboard    p50 ${figures.deliveryMs.p50} ms, p99 ${figures.deliveryMs.p99} ms, max ${figures.deliveryMs.max} ms`,
    );
    console.log(
      `  delivered             ${figures.deliveries} of ${acknowledgedWatched} acknowledged on watched drivers; lost ${lost}`,
    );
    console.log(`  server errors logged  ${figures.serverErrors}`);
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
