import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './scripts/chromium.mjs';

const port = Number(process.env.E2E_PORT ?? 3100);
const baseURL = `http://localhost:${port}`;

// Debian's chromium, not a downloaded one: `playwright install` needs the internet.
const chromium = { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS };

const desktop = { viewport: { width: 1366, height: 768 } };
const phone = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 3,
  isMobile: true,
  hasTouch: true,
  userAgent: devices['Pixel 7'].userAgent,
};

/** The SOS control room's tests (see the control-room projects). */
const CONTROL_ROOM = /sos\.spec\.ts$/;

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: true,
  forbidOnly: Boolean(process.env.CI),
  // Two cores here: a third browser only slows the other two down.
  workers: 2,
  // Two cores shared by the server, two browsers and the database, on machines whose speed differs
  // several times over: a whole test may wait far longer than on a quiet machine (a franchise
  // renaming itself and changing its password, 15 s alone, passed 30 s under load), and a lazily
  // loaded screen may take more than 5 s to appear. Time limits, not waits: a passing test ends as
  // soon as it can.
  timeout: 90_000,
  expect: { timeout: 10_000 },
  retries: process.env.CI ? 1 : 0,
  reporter: [['list'], ['html', { open: 'never' }]],
  use: {
    baseURL,
    browserName: 'chromium',
    launchOptions: chromium,
    screenshot: 'only-on-failure',
    // A trace is recorded when a failed test runs again (CI runs each failure twice), not for every
    // test in case it fails: recording them all cost a fifth of the run on two cores (the
    // accessibility walks 488 s summed with it, 394 s without). DOM snapshots without the
    // screencast, which costs as much again. `--trace on` records every test.
    trace: { mode: 'on-first-retry', screenshots: false },
  },
  projects: [
    {
      name: 'desktop',
      // The phone flows need the burger, which a laptop-wide screen does not show.
      grepInvert: /@phone/,
      testIgnore: CONTROL_ROOM,
      use: desktop,
    },
    { name: 'phone', grep: /@phone/, testIgnore: CONTROL_ROOM, use: phone },
    // An open SOS alert shows its banner on every page in scope: its tests come after all others.
    {
      name: 'control-room',
      grepInvert: /@phone/,
      testMatch: CONTROL_ROOM,
      dependencies: ['desktop', 'phone'],
      use: desktop,
    },
    {
      name: 'control-room-phone',
      grep: /@phone/,
      testMatch: CONTROL_ROOM,
      dependencies: ['desktop', 'phone'],
      use: phone,
    },
  ],
  webServer: {
    command: 'node scripts/e2e-server.mjs',
    url: `${baseURL}/api/docs/json`,
    timeout: 180_000,
    reuseExistingServer: false,
    // SIGTERM lets the server close the embedded database instead of being killed mid-write.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
    stdout: 'pipe',
    stderr: 'pipe',
    env: { E2E_PORT: String(port) },
  },
});
