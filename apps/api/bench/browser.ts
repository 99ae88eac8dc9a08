import puppeteer from 'puppeteer-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../../scripts/chromium.mjs';

/** Headless Chromium as the benchmarks drive it, with the browser tests' flags. */
export function launchChromium(extraArgs: string[] = []) {
  return puppeteer.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_ARGS, ...extraArgs],
  });
}
