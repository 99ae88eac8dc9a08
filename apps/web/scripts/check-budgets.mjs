// Checks what each screen makes a phone download on its first load against the budgets, from the
// build's manifest: the entry with everything it imports, plus the screen's own chunk with
// everything that imports (what a lazy route loads before it can render). The signed-in screens
// also count the signed-in routes' chunk (src/app/staff-routes.tsx), which the page fetches beside
// the entry when there is a session. Chunks a screen loads later (a dialog, the map) are not part
// of its first load. Sizes are gzip, as sent by the server.
// Exits 1 above a budget; `--json FILE` also writes the figures.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const KB = 1024;
export const BUDGETS = {
  signInJs: 120 * KB,
  screenJs: 160 * KB,
  initialCss: 30 * KB,
};
const SIGN_IN = 'src/features/auth/sign-in-screen.tsx';
const SCREEN = /^src\/features\/.+-screen\.tsx$/;
const STAFF_ROUTES = 'src/app/staff-routes.tsx';

const dist = fileURLToPath(new URL('../dist', import.meta.url));
const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));

const gzipped = new Map();
function gzipSize(file) {
  if (!gzipped.has(file)) gzipped.set(file, gzipSync(readFileSync(join(dist, file)), { level: 9 }).length);
  return gzipped.get(file);
}

/** The JS and CSS files a chunk needs before it runs: itself and its static imports, transitively. */
function closure(key, js = new Set(), css = new Set()) {
  const chunk = manifest[key];
  if (!chunk || js.has(chunk.file)) return { js, css };
  js.add(chunk.file);
  for (const file of chunk.css ?? []) css.add(file);
  for (const imported of chunk.imports ?? []) closure(imported, js, css);
  return { js, css };
}

const sum = (files) => [...files].reduce((total, file) => total + gzipSize(file), 0);
const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
// The style sheets the page links: with the CSS in one sheet (decision 041) the manifest lists it
// apart from every chunk, so it is read from the page itself.
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const linked = [...html.matchAll(/<link rel="stylesheet"[^>]*href="\/([^"]+)"/g)].map((match) => match[1]);
const shell = closure(entryKey, new Set(), new Set(linked));
// The screens opened through the signed-in routes start from the entry and that chunk.
const staffShell = closure(STAFF_ROUTES, new Set(shell.js), new Set(shell.css));
const staffScreens = new Set(manifest[STAFF_ROUTES]?.dynamicImports ?? []);

// The sign-in screen may be part of the entry itself (no chunk of its own): then its first load is the entry's.
const screens = Object.keys(manifest).filter((key) => SCREEN.test(key));
if (!screens.includes(SIGN_IN)) screens.push(SIGN_IN);
const rows = screens.sort().map((key) => {
  const start = staffScreens.has(key) ? staffShell : shell;
  const { js, css } = closure(key, new Set(start.js), new Set(start.css));
  const budget = key === SIGN_IN ? BUDGETS.signInJs : BUDGETS.screenJs;
  return { screen: key.replace(/^src\/features\//, ''), js: sum(js), css: sum(css), budget };
});

const initialCss = sum(shell.css);
const failures = [
  ...rows.filter((row) => row.js > row.budget).map((row) => `${row.screen}: JavaScript over its budget`),
  ...(initialCss > BUDGETS.initialCss ? ['initial CSS over its budget'] : []),
];

const kb = (bytes) => `${(bytes / KB).toFixed(1)} KB`;
console.log('First load per screen (gzip):');
console.log(`  ${'screen'.padEnd(52)} ${'JS'.padStart(9)} ${'budget'.padStart(9)} ${'CSS'.padStart(8)}`);
for (const row of rows) {
  const mark = row.js > row.budget ? '  OVER' : '';
  console.log(
    `  ${row.screen.padEnd(52)} ${kb(row.js).padStart(9)} ${kb(row.budget).padStart(9)} ${kb(row.css).padStart(8)}${mark}`,
  );
}
console.log(`  initial CSS ${kb(initialCss)} (budget ${kb(BUDGETS.initialCss)})`);

const jsonAt = process.argv.indexOf('--json');
if (jsonAt > 0) {
  writeFileSync(
    process.argv[jsonAt + 1],
    JSON.stringify({ budgets: BUDGETS, initialCss, screens: rows }, null, 2),
  );
}
if (failures.length) {
  console.error(`\nOver budget:\n  ${failures.join('\n  ')}`);
  process.exit(1);
}
console.log('All screens within their budgets.');
