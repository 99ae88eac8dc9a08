import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../src/config';

/**
 * Writes one benchmark's figures to bench/results/<part>.json and into bench/results/latest.json
 * beside the other parts' latest figures, with the machine they were taken on.
 */
export function writeResults(part: string, figures: unknown): void {
  const folder = join(REPO_ROOT, 'bench', 'results');
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, `${part}.json`), `${JSON.stringify(figures, null, 2)}\n`);
  const latestPath = join(folder, 'latest.json');
  let latest: Record<string, unknown> = {};
  try {
    latest = JSON.parse(readFileSync(latestPath, 'utf8')) as Record<string, unknown>;
  } catch {
    // First run: nothing to keep.
  }
  latest.machine = {
    cores: cpus().length,
    cpu: cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
  };
  latest[part] = figures;
  writeFileSync(latestPath, `${JSON.stringify(latest, null, 2)}\n`);
  console.log(`\nFigures written to bench/results/${part}.json and bench/results/latest.json`);
}
