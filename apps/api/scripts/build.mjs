// Compiles the server into dist/server.js for `npm start` and the container: one bundle of our
// TypeScript (the shared package included, since it ships as TypeScript), the packages it
// depends on left to node_modules. No TypeScript compiler is loaded when it runs.
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const apiRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const { dependencies } = JSON.parse(readFileSync(join(apiRoot, 'package.json'), 'utf8'));
const external = Object.keys(dependencies).filter((name) => !name.startsWith('@bmet/'));

// Whatever built this folder before, `npm start` must not take it for up to date after this build.
rmSync(join(apiRoot, 'dist', '.inputs-hash'), { force: true });
const started = Date.now();
const result = await build({
  absWorkingDir: apiRoot,
  // The embedded database's thread loads from its own file beside the server (db/pglite-thread.ts).
  entryPoints: { server: 'src/server.ts', 'pglite-worker': 'src/db/pglite-worker.ts' },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  // Packages and their subpaths (drizzle-orm/pg-core, @aws-sdk/client-s3...) load from node_modules.
  external: external.flatMap((name) => [name, `${name}/*`]),
  sourcemap: true,
  logLevel: 'warning',
  metafile: true,
});
const bytes = Object.values(result.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0);
console.log(`API compiled into apps/api/dist (${Math.round(bytes / 1024)} KB) in ${Date.now() - started} ms`);
