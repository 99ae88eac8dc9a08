import puppeteer from 'puppeteer-core';

/** Debian's Chromium, as the browser tests use it (CHROMIUM_PATH names another). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Headless Chromium as the benchmarks drive it: no sandbox (root), no GPU, and none of the
 * background connections that this machine's closed network refuses.
 */
export function launchChromium(extraArgs: string[] = []) {
  return puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
      ...extraArgs,
    ],
  });
}
