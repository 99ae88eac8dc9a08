// `npm start`: builds what changed (the texts, the web app, the server), then runs the compiled
// server in this process's place. Builds of one checkout take turns, and a second start beside a
// running one rebuilds nothing that is up to date, so it never empties the folders the first
// serves from.
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { hashInputs, isUpToDate, markUpToDate, withBuildLock } from './build-lock.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const SHARED_INPUTS = ['packages/shared', 'package-lock.json', 'tsconfig.base.json'];
const BUILDS = [
  {
    name: 'web app',
    outdir: 'apps/web/dist',
    inputs: ['apps/web', ...SHARED_INPUTS],
    command: ['npm', ['run', 'build', '--workspace', '@bmet/web']],
  },
  {
    name: 'server',
    outdir: 'apps/api/dist',
    inputs: ['apps/api/src', 'apps/api/scripts', 'apps/api/package.json', ...SHARED_INPUTS],
    command: [process.execPath, ['apps/api/scripts/build.mjs']],
  },
];

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

run(process.execPath, ['scripts/compile-texts.mjs']);
await withBuildLock(root, '.build', async () => {
  for (const build of BUILDS) {
    const outdir = join(root, build.outdir);
    const inputs = hashInputs(root, build.inputs);
    if (isUpToDate(outdir, inputs)) {
      console.log(`The ${build.name} is up to date (${build.outdir}).`);
      continue;
    }
    run(...build.command);
    markUpToDate(outdir, inputs);
  }
});

// The server gets the signals itself, and this process ends as it does.
const server = spawn(process.execPath, ['dist/server.js'], { cwd: join(root, 'apps/api'), stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => server.kill(signal));
}
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
