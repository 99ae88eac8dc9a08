// Browser tests drive Debian's chromium (Playwright's own browser download cannot work offline),
// with a Devanagari font so that Hindi screens are drawn (and measured) as people see them.
// Installs what is missing with apt-get when running as root; otherwise says what to install.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { CHROMIUM_PATH } from './chromium.mjs';

const path = CHROMIUM_PATH;

const succeeds = (command) => {
  try {
    execSync(command, { stdio: 'ignore', shell: '/bin/sh' });
    return true;
  } catch {
    return false;
  }
};
// fontconfig lists the fonts that cover Hindi; without fontconfig there is nothing to check.
const hasDevanagari = () =>
  !succeeds('command -v fc-list') || execSync('fc-list :lang=hi family', { encoding: 'utf8' }).trim() !== '';

const missing = [...(existsSync(path) ? [] : ['chromium']), ...(hasDevanagari() ? [] : ['fonts-lohit-deva'])];
if (missing.length === 0) process.exit(0);

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
if (isRoot && succeeds('command -v apt-get')) {
  console.log(`Installing Debian's ${missing.join(' and ')} for the browser tests...`);
  execSync(
    `apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${missing.join(' ')}`,
    {
      stdio: 'inherit',
      shell: '/bin/sh',
    },
  );
  if (existsSync(path) && hasDevanagari()) process.exit(0);
}

if (!existsSync(path)) {
  console.error(
    `Browser tests need Chromium at ${path}.\n` +
      `Install it (Debian/Ubuntu: sudo apt-get install chromium) or point CHROMIUM_PATH at a Chromium binary.`,
  );
  process.exit(1);
}
// Without the font the tests still run; Hindi is drawn as empty boxes in screenshots.
console.warn('No font covers Hindi (Debian/Ubuntu: sudo apt-get install fonts-lohit-deva).');
