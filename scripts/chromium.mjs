// The Chromium that the browser tests, the benchmarks and ensure-chromium.mjs use: Debian's
// package (a downloaded browser needs the internet), or another named by CHROMIUM_PATH.
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

// Headless on this machine: no sandbox (it runs as root), no GPU, and none of the background
// connections (updates, sync, QUIC) that a closed network refuses, many at a time.
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
