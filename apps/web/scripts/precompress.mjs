// Writes brotli (.br) and gzip (.gz) copies of the built text files next to them, so the server
// sends them compressed without compressing on each request (it picks by Accept-Encoding).
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const dist = fileURLToPath(new URL('../dist', import.meta.url));
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|xml|webmanifest)$/i;
// Below this, the headers cost more than compression saves.
const MIN_BYTES = 1024;

function* files(folder) {
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else yield path;
  }
}

let original = 0;
let brotli = 0;
let count = 0;
for (const path of files(dist)) {
  if (!COMPRESSIBLE.test(path)) continue;
  const content = readFileSync(path);
  if (content.length < MIN_BYTES) continue;
  const br = brotliCompressSync(content, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
    },
  });
  const gz = gzipSync(content, { level: 9 });
  // A copy that is not smaller is useless: the server then sends the file itself.
  if (br.length < content.length) writeFileSync(`${path}.br`, br);
  if (gz.length < content.length) writeFileSync(`${path}.gz`, gz);
  original += content.length;
  brotli += Math.min(br.length, content.length);
  count++;
}
const kb = (bytes) => `${(bytes / 1024).toFixed(0)} KB`;
console.log(
  `precompressed ${count} files in ${relative(process.cwd(), dist) || dist}: ${kb(original)} -> ${kb(brotli)} (brotli)`,
);
