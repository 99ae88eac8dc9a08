// Starts the real server for the browser tests on a fresh database with the demo data.
// Run by Playwright's webServer; it stops the server with SIGTERM, which is passed on.
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SMTPServer } from 'smtp-server';
import { e2eFolder } from './e2e-folder.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const port = process.env.E2E_PORT ?? '3100';
const dataDir = join(e2eFolder(port), 'e2e-data');

// A fresh folder each run: the tests rely on the demo data as seeded, and on no earlier lockouts.
rmSync(dataDir, { recursive: true, force: true });
mkdirSync(dataDir, { recursive: true });

// A mail receiver for the server's mails (password reset links): each mail becomes a file in
// test-results/e2e-mail/, named <time>-<recipient>-<id>.eml, where the browser tests read it.
const mailDir = join(e2eFolder(port), 'e2e-mail');
rmSync(mailDir, { recursive: true, force: true });
const mailReceiver = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS', 'AUTH'],
  logger: false,
  onData(stream, session, callback) {
    const chunks = [];
    stream.on('data', (chunk) => chunks.push(chunk));
    stream.on('end', () => {
      // Created on each mail: Playwright may empty test-results after this script has started.
      mkdirSync(mailDir, { recursive: true });
      for (const { address } of session.envelope.rcptTo) {
        const name = `${Date.now()}-${address.toLowerCase().replace(/[^a-z0-9@.-]/g, '_')}-${randomUUID()}.eml`;
        writeFileSync(join(mailDir, name), Buffer.concat(chunks));
      }
      callback();
    });
  },
});
const mailPort = await new Promise((resolvePort) => {
  mailReceiver.listen(0, '127.0.0.1', () => resolvePort(mailReceiver.server.address().port));
});

// The embedded database in that folder, whatever the calling shell points at.
const env = { ...process.env };
delete env.DATABASE_URL;
delete env.DEMO_DATA;

// The compiled server, as `npm start` and the container run it, built afresh from the sources
// (a fraction of a second). Run by node itself, not through npm or npx: those and their shells do
// not pass SIGTERM on, which would leave the server running after the tests.
const build = spawnSync(process.execPath, ['apps/api/scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(1);
const child = spawn(process.execPath, ['apps/api/dist/server.js'], {
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
    SMTP_URL: `smtp://127.0.0.1:${mailPort}`,
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
