/**
 * The fleet map at fleet scale, in Debian's Chromium against the real server on the benchmark data
 * (bench-data.ts): 10,000 drivers move every 5 seconds through the driver-app endpoint (the
 * simulator's driving, the live benchmark's phones) while an admin's /fleet is open. It pans and
 * zooms the map with the mouse as a person does and prints frames per second (requestAnimationFrame
 * count), main-thread busy time (the browser's task time and long tasks), and the page's JavaScript
 * heap when the map has loaded and after some minutes of moving cars; and how long the whole
 * fleet (GET /api/fleet, every located driver of 100,000) takes to answer.
 *
 *   npm run bench:fleet                       the embedded database (PGlite in BENCH_DATA_DIR)
 *   npm run bench:fleet -- --minutes 5        the heap after five minutes (default 1)
 *   BENCH_DATABASE_URL=postgres://.../bench npm run bench:fleet
 *   BENCH_FLEET_DRIVERS=10000 BENCH_FLEET_INTERVAL=5 CHROMIUM_PATH=/usr/bin/chromium
 *
 * Builds nothing: run it after `npm run build --workspace @bmet/web` (npm run bench:fleet does).
 * Writes bench/results/fleet.json. It fails on nothing.
 */
import { Agent } from 'node:http';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import type { CDPSession, Page } from 'puppeteer-core';
import { drive, gpsReading, startVehicle, type Vehicle } from '../src/cli/simulate-route';
import { generateDeviceToken } from '../src/modules/driver-locations/device-tokens';
import {
  headersOf,
  insertDeviceTokens,
  openBenchDatabase,
  prepare,
  rowsOf,
  sendPosition,
} from './bench-data';
import { startServer } from './bench-server';
import { launchChromium } from './browser';
import { writeResults } from './results';

const { values: args } = parseArgs({ options: { minutes: { type: 'string', default: '1' } } });
const MINUTES = Number(args.minutes);
const DRIVERS = Number(process.env.BENCH_FLEET_DRIVERS ?? 10_000);
const INTERVAL_S = Number(process.env.BENCH_FLEET_INTERVAL ?? 5);
const LABEL = 'Fleet benchmark phone';
const PHASE_MS = 15_000;
const VIEWPORT = { width: 1366, height: 768 };
/** Reports waiting for an answer, at most. */
const MAX_IN_FLIGHT = 2_000;

type Phone = { driverId: string; token: string; vehicle: Vehicle };

/** Device tokens for the moving drivers (hashed, as staff issue them), and an admin's session. */
async function setUp(url: string | undefined) {
  const database = await openBenchDatabase(url);
  const { db } = database;
  const people = await prepare(db, database.kind);
  await db.execute(
    sql`update driver_device_tokens set revoked_at = now() where label = ${LABEL} and revoked_at is null`,
  );
  const located = rowsOf(
    await db.execute(sql`
      select id, lat, long from drivers
      where deleted_at is null and lat is not null and long is not null
      order by id limit ${DRIVERS}`),
  );
  const phones: Phone[] = located.map((row) => ({
    driverId: String(row.id),
    token: generateDeviceToken(),
    vehicle: startVehicle({ lat: Number(row.lat), long: Number(row.long) }),
  }));
  await insertDeviceTokens(db, phones, LABEL);
  const { authorization } = await headersOf(db, people.admin, 3);
  await database.close();
  return { phones, idToken: authorization.slice('Bearer '.length), kind: database.kind };
}

/** Every phone reports once per interval, evenly spread, each a few metres further on its loop. */
function startPhones(port: number, phones: Phone[]) {
  const agent = new Agent({ keepAlive: true, maxSockets: 128 });
  let sent = 0;
  let answered = 0;
  let failed = 0;
  let skipped = 0;
  let inFlight = 0;
  let stopped = false;
  const report = (phone: Phone) => {
    drive(phone.vehicle, INTERVAL_S);
    // A server that falls behind is not buried under a queue without end: the report is skipped.
    if (inFlight >= MAX_IN_FLIGHT) {
      skipped++;
      return;
    }
    inFlight++;
    const body = JSON.stringify({
      ...gpsReading(phone.vehicle.position),
      recordedAt: new Date().toISOString(),
    });
    sendPosition(
      { port, agent },
      phone.token,
      body,
      (status) => {
        inFlight--;
        if (status === 204) answered++;
        else failed++;
      },
      () => {
        inFlight--;
        failed++;
      },
    );
  };
  const started = Date.now();
  const perTick = (phones.length / INTERVAL_S) * 0.05;
  const loop = async () => {
    while (!stopped) {
      const due = Math.floor(((Date.now() - started) / 50) * perTick);
      for (; sent < due; sent++) report(phones[sent % phones.length]!);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  void loop();
  return {
    stats: () => ({
      sent,
      answered,
      failed,
      skipped,
      perSecond: Math.round(answered / ((Date.now() - started) / 1000)),
    }),
    stop: () => {
      stopped = true;
      agent.destroy();
    },
  };
}

/** Counts frames and long tasks in the page from now on. */
const START_COUNTING = `(() => {
  const state = { frames: 0, start: performance.now(), longest: 0, gaps: 0, longTasks: 0, longTaskMs: 0, last: performance.now() };
  window.__bench = state;
  const tick = (now) => {
    if (window.__bench !== state) return;
    state.frames++;
    const gap = now - state.last;
    if (gap > state.longest) state.longest = gap;
    if (gap > 50) state.gaps++;
    state.last = now;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  new PerformanceObserver((list) => {
    if (window.__bench !== state) return;
    for (const entry of list.getEntries()) { state.longTasks++; state.longTaskMs += entry.duration; }
  }).observe({ type: 'longtask' });
})()`;
const READ_COUNTING = `(() => {
  const s = window.__bench;
  const seconds = (performance.now() - s.start) / 1000;
  return { fps: s.frames / seconds, longestFrameMs: s.longest, framesOver50Ms: s.gaps, longTasks: s.longTasks, longTaskMs: s.longTaskMs, seconds };
})()`;

async function taskSeconds(cdp: CDPSession): Promise<number> {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return metrics.find((metric) => metric.name === 'TaskDuration')?.value ?? 0;
}

/** The page's JavaScript heap after a garbage collection, in MB. */
async function heapMb(cdp: CDPSession): Promise<number> {
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  return Math.round((usedSize / 2 ** 20) * 10) / 10;
}

type Phase = {
  phase: string;
  fps: number;
  longestFrameMs: number;
  framesOver50Ms: number;
  longTasks: number;
  longTaskMs: number;
  /** Share of the wall time the page's main thread was busy. */
  mainThreadBusy: number;
};

/** Runs `act` for a while and measures frames and the main thread meanwhile. */
async function measure(page: Page, cdp: CDPSession, phase: string, act: (until: number) => Promise<void>) {
  await page.evaluate(START_COUNTING);
  const busyBefore = await taskSeconds(cdp);
  const started = Date.now();
  await act(started + PHASE_MS);
  const wall = (Date.now() - started) / 1000;
  const busy = (await taskSeconds(cdp)) - busyBefore;
  const counted = (await page.evaluate(READ_COUNTING)) as Omit<Phase, 'phase' | 'mainThreadBusy'>;
  const result: Phase = {
    phase,
    fps: Math.round(counted.fps * 10) / 10,
    longestFrameMs: Math.round(counted.longestFrameMs),
    framesOver50Ms: counted.framesOver50Ms,
    longTasks: counted.longTasks,
    longTaskMs: Math.round(counted.longTaskMs),
    mainThreadBusy: Math.round((busy / wall) * 1000) / 1000,
  };
  console.log(
    `  ${phase.padEnd(34)} ${String(result.fps).padStart(6)} fps  busy ${(result.mainThreadBusy * 100).toFixed(1).padStart(5)}%  ` +
      `long tasks ${result.longTasks} (${result.longTaskMs} ms)  longest frame ${result.longestFrameMs} ms`,
  );
  return result;
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Drags the map in a circle, a few pixels every frame, as a hand does. */
async function pan(page: Page, until: number) {
  const box = { x: 250 + 400, y: 300 + 200 };
  await page.mouse.move(box.x, box.y);
  await page.mouse.down();
  let angle = 0;
  while (Date.now() < until) {
    angle += 0.05;
    await page.mouse.move(box.x + Math.cos(angle) * 150, box.y + Math.sin(angle) * 120);
    await pause(16);
  }
  await page.mouse.up();
}

/** Zooms in and out with the wheel, one step every 700 ms, panning a little between steps. */
async function zoom(page: Page, until: number) {
  let step = 0;
  while (Date.now() < until) {
    await page.mouse.move(650 + (step % 5) * 20, 480 - (step % 3) * 20);
    await page.mouse.wheel({ deltaY: step % 6 < 3 ? -120 : 120 });
    step++;
    await pause(700);
  }
}

async function main() {
  const url = process.env.BENCH_DATABASE_URL;
  console.log(`Preparing ${DRIVERS} moving drivers...`);
  const { phones, idToken, kind } = await setUp(url);
  const server = await startServer({ url });
  const { port } = new URL(server.baseUrl);

  // The whole fleet as the map loads it: every located driver of the benchmark data.
  const wholeStarted = performance.now();
  const whole = await fetch(`${server.baseUrl}/api/fleet`, {
    headers: { authorization: `Bearer ${idToken}` },
  });
  const wholeBody = await whole.text();
  const wholeMs = Math.round(performance.now() - wholeStarted);
  const cars = (JSON.parse(wholeBody) as { data: unknown[] }).data.length;
  const wholeKb = {
    json: Math.round(wholeBody.length / 1024),
    gzip: Math.round(gzipSync(wholeBody).length / 1024),
  };
  console.log(
    `GET /api/fleet: ${cars} cars in ${wholeMs} ms, ${wholeKb.json} KB of JSON (${wholeKb.gzip} KB gzip)`,
  );

  const phoneLoad = startPhones(Number(port), phones);
  const browser = await launchChromium([`--window-size=${VIEWPORT.width},${VIEWPORT.height}`]);
  try {
    const page = await browser.newPage();
    await page.setViewport(VIEWPORT);
    const expirationTime = Date.now() + 3 * 3_600_000;
    await page.evaluateOnNewDocument(
      `sessionStorage.setItem('idToken', ${JSON.stringify(idToken)});
       sessionStorage.setItem('expirationTime', '${expirationTime}');
       sessionStorage.setItem('currentClaim', 'admin');`,
    );
    const cdp = await page.createCDPSession();
    await cdp.send('Performance.enable');
    const opened = Date.now();
    await page.goto(`${server.baseUrl}/fleet`);
    await page.waitForFunction(
      `document.querySelector('[data-testid=fleet-mode]')?.textContent === 'Live' &&
       !document.body.textContent.includes('Loading the fleet') &&
       Number(document.querySelector('.fleet-map')?.dataset.clusters ?? 0) > 0`,
      { timeout: 120_000, polling: 200 },
    );
    const loadedMs = Date.now() - opened;
    console.log(
      `/fleet showed the fleet ${loadedMs} ms after navigation; phones ${JSON.stringify(phoneLoad.stats())}`,
    );
    await pause(5_000);
    const heapStart = await heapMb(cdp);

    console.log(`\nWith ${phones.length} drivers moving every ${INTERVAL_S} s (${kind}):`);
    const phases: Phase[] = [];
    phases.push(await measure(page, cdp, 'whole country, idle', (until) => pause(until - Date.now())));
    phases.push(await measure(page, cdp, 'whole country, panning', (until) => pan(page, until)));
    // Into one city: the first car of the list in view, then back out to see its streets' clusters.
    await page.click('button[aria-label^="Show "]');
    await pause(2_000);
    await page.focus('.fleet-map');
    for (let i = 0; i < 3; i++) {
      await page.keyboard.press('Minus');
      await pause(800);
    }
    const drawn = await page.evaluate(
      `({ markers: document.querySelector('.fleet-map').dataset.markers, clusters: document.querySelector('.fleet-map').dataset.clusters })`,
    );
    console.log(`  (city view: ${JSON.stringify(drawn)})`);
    phases.push(await measure(page, cdp, 'city, panning', (until) => pan(page, until)));
    phases.push(await measure(page, cdp, 'city, zooming in and out', (until) => zoom(page, until)));

    // The heap after minutes of moving cars (the page left open at a city, as staff leave it).
    const heapSamples: { minute: number; mb: number }[] = [{ minute: 0, mb: heapStart }];
    const heapStarted = Date.now();
    for (let minute = 1; minute <= MINUTES; minute++) {
      await pause(Math.max(0, heapStarted + minute * 60_000 - Date.now()));
      heapSamples.push({ minute, mb: await heapMb(cdp) });
      console.log(`  heap after ${minute} min: ${heapSamples.at(-1)!.mb} MB`);
    }
    const heapEnd = heapSamples.at(-1)!.mb;
    const phoneStats = phoneLoad.stats();

    console.log(`\nFleet map (${kind}), ${phones.length} drivers every ${INTERVAL_S} s:`);
    for (const p of phases) {
      console.log(
        `  ${p.phase.padEnd(34)} ${String(p.fps).padStart(6)} fps, main thread busy ${(p.mainThreadBusy * 100).toFixed(1)}%`,
      );
    }
    console.log(
      `  JS heap                            ${heapStart} MB at start, ${heapEnd} MB after ${MINUTES} min`,
    );
    console.log(`  reports                            ${JSON.stringify(phoneStats)}`);
    console.log(`  server errors logged               ${server.errors()}`);
    writeResults('fleet', {
      date: new Date().toISOString(),
      database: kind,
      drivers: phones.length,
      intervalSeconds: INTERVAL_S,
      viewport: VIEWPORT,
      wholeFleet: { cars, ms: wholeMs, kb: wholeKb },
      loadedMs,
      phases,
      heapMb: heapSamples,
      reports: phoneStats,
      serverErrors: server.errors(),
    });
  } finally {
    phoneLoad.stop();
    await browser.close();
    await server.stop();
  }
}

await main();
