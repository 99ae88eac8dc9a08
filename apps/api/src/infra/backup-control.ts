import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

/**
 * While a server runs on the embedded database, it owns the data folder (data-dir.lock) and no
 * other process may open the database. It leaves this file there for `npm run backup`: where to
 * reach it, and the key its backup route asks for. Whoever can read the data folder can read the
 * data already, so the file (mode 0600) is the credential.
 */
export const CONTROL_FILE = 'control.json';

export type Control = { url: string; key: string };

export const newControlKey = () => randomBytes(32).toString('base64url');

/** An address this machine reaches the server at, whichever address it listens on. */
export function loopbackUrl(listening: (AddressInfo | string)[]): string {
  const addresses = listening.filter((address): address is AddressInfo => typeof address === 'object');
  const loopback = addresses.find((address) => /^(127\.|::1$)/.test(address.address));
  const chosen = loopback ?? addresses[0];
  if (!chosen) throw new Error('The server listens on no address.');
  const host = { '0.0.0.0': '127.0.0.1', '::': '::1' }[chosen.address] ?? chosen.address;
  return `http://${host.includes(':') ? `[${host}]` : host}:${chosen.port}`;
}

/**
 * Writes the control file (whole or not at all: written beside, then renamed) and answers the
 * function that removes it, which leaves alone a file another server wrote since.
 */
export function writeControl(dataDir: string, control: Control): () => void {
  const path = join(dataDir, CONTROL_FILE);
  const partial = `${path}.${process.pid}.partial`;
  writeFileSync(partial, JSON.stringify(control), { mode: 0o600 });
  renameSync(partial, path);
  let removed = false;
  const remove = () => {
    if (removed) return;
    removed = true;
    process.off('exit', remove);
    if (readControl(dataDir)?.key !== control.key) return;
    try {
      unlinkSync(path);
    } catch {
      // already gone
    }
  };
  process.on('exit', remove);
  return remove;
}

/** The control file of the server running on the data folder, or null when there is none. */
export function readControl(dataDir: string): Control | null {
  try {
    const value = JSON.parse(readFileSync(join(dataDir, CONTROL_FILE), 'utf8')) as Partial<Control>;
    return typeof value.url === 'string' && typeof value.key === 'string'
      ? { url: value.url, key: value.key }
      : null;
  } catch {
    return null;
  }
}

/** Whether an Authorization header carries the key (compared in constant time). */
export function carriesKey(header: string | undefined, key: string): boolean {
  if (!header?.startsWith('Bearer ')) return false;
  const given = Buffer.from(header.slice(7));
  const expected = Buffer.from(key);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
