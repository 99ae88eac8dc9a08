// Where a browser-test run keeps its database and mails: test-results/ for the usual port (3100).
// A run on another port (E2E_PORT, with its own --output) keeps them in a folder of its own
// outside test-results/, which every run empties as it starts: two runs side by side in one
// checkout then leave each other's database alone.
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** @param {string} port */
export function e2eFolder(port) {
  return port === '3100' ? join(root, 'test-results') : join(tmpdir(), `bmet-e2e-${port}`);
}
