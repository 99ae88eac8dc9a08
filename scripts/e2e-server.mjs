// Starts the real server for the browser tests on a fresh database with the demo data.
// Run by Playwright's webServer; it stops the server with SIGTERM, which is passed on.
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = join(root, 'test-results', 'e2e-data');
const port = process.env.E2E_PORT ?? '3100';

// A fresh folder each run: the tests rely on the demo data as seeded, and on no earlier lockouts.
rmSync(dataDir, { recursive: true, force: true });
mkdirSync(dataDir, { recursive: true });

// The embedded database in that folder, whatever the calling shell points at.
const env = { ...process.env };
delete env.DATABASE_URL;
delete env.DEMO_DATA;

// tsx as a loader in one node process, not `npx tsx`: npx and its shell do not pass SIGTERM on,
// which would leave the server running after the tests.
const child = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/server.ts'], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...env,
    DATA_DIR: dataDir,
    PORT: port,
    LOG_LEVEL: 'warn',
    LOG_PRETTY: 'false',
    DEMO_PASSWORD: 'e2e-demo-password-2026',
    NODE_ENV: 'test',
  },
});

for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => {
    if (child.exitCode === null) child.kill(signal);
  });
}

child.on('exit', (code, signal) => {
  process.exit(code ?? (signal ? 1 : 0));
});
