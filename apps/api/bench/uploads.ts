/**
 * What document uploads cost the server while it answers everyone else: four uploads at once of a
 * crafted 16-bit 7000 x 7000 PNG (a 392 MB decode from a small file), then of four 24-megapixel
 * phone photos, against a real server on a fresh embedded database with the demo data. Prints the
 * answers, the latency of /api/health polled every 50 ms meanwhile (goal: under 300 ms), and the
 * server's memory (RSS) before, at its peak and 30 s after (goal: back within 150 MB).
 *
 *   npm run bench:uploads
 *
 * Run it with MALLOC_ARENA_MAX=2, as the container image sets it, for the memory a deployed server
 * gives back; without it the C library keeps an arena per thread that allocated.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { startServer } from './bench-server';
import { writeResults } from './results';

const PASSWORD = 'bench-uploads-password-2026';
const SETTLE_S = 30;

const rssMb = (pid: number) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
};

async function run(
  label: string,
  baseUrl: string,
  pid: number,
  token: string,
  driverIds: string[],
  body: Buffer,
  type: string,
) {
  // The route and its plugins warmed up first: the figures are of the uploads' cost, not of a first request.
  await fetch(`${baseUrl}/api/health`).then((response) => response.arrayBuffer());
  const latencies: number[] = [];
  let peak = rssMb(pid);
  const before = peak;
  let polling = true;
  const poll = (async () => {
    while (polling) {
      const started = performance.now();
      await fetch(`${baseUrl}/api/health`).then((response) => response.arrayBuffer());
      latencies.push(performance.now() - started);
      peak = Math.max(peak, rssMb(pid));
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  const started = performance.now();
  const answers = await Promise.all(
    driverIds.map((id) =>
      fetch(`${baseUrl}/api/drivers/driver/${id}/documents/panCard/image`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${token}`, 'content-type': type },
        body,
      }).then(async (response) => ({
        status: response.status,
        code: ((await response.json()) as { code?: string }).code,
      })),
    ),
  );
  const seconds = (performance.now() - started) / 1000;
  polling = false;
  await poll;
  await new Promise((resolve) => setTimeout(resolve, SETTLE_S * 1000));
  const after = rssMb(pid);
  latencies.sort((a, b) => a - b);
  const figures = {
    uploads: answers.map((answer) => `${answer.status}${answer.code ? ` ${answer.code}` : ''}`),
    seconds: Number(seconds.toFixed(2)),
    healthMaxMs: Math.round(latencies.at(-1) ?? 0),
    healthP99Ms: Math.round(latencies[Math.floor(latencies.length * 0.99)] ?? 0),
    healthPolls: latencies.length,
    rssBeforeMb: before,
    rssPeakMb: peak,
    rssAfter30sMb: after,
  };
  console.log(`\n${label}`);
  console.log(`  answers ${figures.uploads.join(', ')} in ${figures.seconds} s`);
  console.log(
    `  /api/health: max ${figures.healthMaxMs} ms, p99 ${figures.healthP99Ms} ms over ${figures.healthPolls} polls`,
  );
  console.log(`  server RSS: ${before} MB before, ${peak} MB at peak, ${after} MB ${SETTLE_S} s after`);
  return figures;
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'bmet-bench-uploads-'));
  const server = await startServer({
    env: { DATA_DIR: dataDir, NODE_ENV: 'development', DEMO_DATA: 'true', DEMO_PASSWORD: PASSWORD },
  });
  try {
    const signIn = await fetch(`${server.baseUrl}/api/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@bookmyetaxi.test', password: PASSWORD, role: 'admin' }),
    });
    const token = ((await signIn.json()) as { data: { idToken: string } }).data.idToken;
    const list = await fetch(`${server.baseUrl}/api/drivers?limit=4`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const driverIds = Object.keys(((await list.json()) as { data: Record<string, unknown> }).data);

    console.log('Making the images...');
    const heavyPng = await sharp({
      create: { width: 7000, height: 7000, channels: 4, background: { r: 30, g: 60, b: 90, alpha: 1 } },
    })
      .toColourspace('rgb16')
      .png({ compressionLevel: 9 })
      .toBuffer();
    // A photo's pixels (a little texture scaled up, so that it stays under the 5 MB an upload may be).
    const texture = Buffer.alloc(600 * 400 * 3).map(() => Math.floor(Math.random() * 256));
    const photo = await sharp(texture, { raw: { width: 600, height: 400, channels: 3 } })
      .resize(6000, 4000)
      .jpeg({ quality: 80 })
      .toBuffer();
    console.log(
      `16-bit PNG ${Math.round(heavyPng.length / 1024)} KB, photo ${Math.round(photo.length / 1024)} KB`,
    );
    await new Promise((resolve) => setTimeout(resolve, 5_000));

    const png = await run(
      'Four crafted 16-bit 7000 x 7000 PNGs at once',
      server.baseUrl,
      server.pid,
      token,
      driverIds,
      heavyPng,
      'image/png',
    );
    const photos = await run(
      'Four 24-megapixel photos at once',
      server.baseUrl,
      server.pid,
      token,
      driverIds,
      photo,
      'image/jpeg',
    );
    writeResults('uploads', { mallocArenaMax: process.env.MALLOC_ARENA_MAX ?? null, heavyPng: png, photos });
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
