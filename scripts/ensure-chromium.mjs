// Browser tests drive Debian's chromium (Playwright's own browser download cannot work offline).
// Installs it with apt-get when missing and running as root; otherwise says what to install.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (existsSync(path)) process.exit(0);

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const hasApt = (() => {
  try {
    execSync('command -v apt-get', { stdio: 'ignore', shell: '/bin/sh' });
    return true;
  } catch {
    return false;
  }
})();

if (isRoot && hasApt) {
  console.log(`Chromium not found at ${path}: installing Debian's chromium package...`);
  execSync('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium', {
    stdio: 'inherit',
    shell: '/bin/sh',
  });
  if (existsSync(path)) process.exit(0);
}

console.error(
  `Browser tests need Chromium at ${path}.\n` +
    `Install it (Debian/Ubuntu: sudo apt-get install chromium) or point CHROMIUM_PATH at a Chromium binary.`,
);
process.exit(1);
