import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { envSchema, REPO_ROOT } from './config';

// Docker cannot build here: the deploy kit is checked against what it relies on instead.
const read = (file: string) => readFileSync(join(REPO_ROOT, file), 'utf8');
// The configuration's variables, and those read by Node and the C library before the server starts.
const VARIABLES = new Set([...Object.keys(envSchema.shape), 'NODE_OPTIONS', 'MALLOC_ARENA_MAX']);
const scriptsOf = (file: string) =>
  new Set(Object.keys((JSON.parse(read(file)) as { scripts: Record<string, string> }).scripts));

type Service = { build?: unknown; environment?: Record<string, string>; volumes?: string[] };

describe('the deploy kit', () => {
  const dockerfile = read('Dockerfile');
  const compose = parse(read('compose.yaml'), { merge: true }) as { services: Record<string, Service> };
  const consoles = Object.entries(compose.services).filter(([, service]) => service.build);

  it('the Dockerfile sets only variables of the configuration, runs as a non-root user and checks health', () => {
    const set = [...dockerfile.matchAll(/^\s*(?:ENV\s+)?([A-Z][A-Z0-9_]+)=/gm)].map((found) => found[1]!);
    expect(set.length).toBeGreaterThan(0);
    expect(set.filter((name) => !VARIABLES.has(name))).toEqual([]);
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/^HEALTHCHECK .*\n.*\/api\/health/m);
    expect(dockerfile.match(/^FROM /gm)).toHaveLength(2);
  });

  it('the commands it runs exist', () => {
    const root = scriptsOf('package.json');
    const api = scriptsOf('apps/api/package.json');
    const web = scriptsOf('apps/web/package.json');
    const runs = [...dockerfile.matchAll(/npm run ([\w:-]+)(?: --workspace (@bmet\/\w+))?/g)];
    runs.push(...[...read('compose.yaml').matchAll(/npm run ([\w:-]+)()/g)]);
    expect(runs.length).toBeGreaterThan(0);
    for (const [, script, workspace] of runs) {
      const scripts = workspace === '@bmet/api' ? api : workspace === '@bmet/web' ? web : root;
      expect(scripts.has(script!), `npm run ${script} ${workspace ?? ''}`).toBe(true);
    }
    // The container runs the compiled server that `npm start` runs, built in the first stage.
    expect(dockerfile).toContain('npm run build --workspace @bmet/api');
    const start = read('apps/api/package.json').match(/"start": "node (dist\/[\w.]+)"/)?.[1];
    expect(start).toBeDefined();
    expect(dockerfile).toContain(`CMD ["node", "apps/api/${start}"]`);
  });

  it('two console instances share what several instances need, with variables of the configuration only', () => {
    expect(consoles.length).toBe(2);
    for (const [name, service] of consoles) {
      const environment = service.environment ?? {};
      expect(
        Object.keys(environment).filter((variable) => !VARIABLES.has(variable)),
        name,
      ).toEqual([]);
      for (const needed of ['DATABASE_URL', 'JWT_SECRET', 'REDIS_URL', 'S3_BUCKET', 'TRUST_PROXY']) {
        expect(environment[needed], `${name} ${needed}`).toBeTruthy();
      }
    }
    const [[, first], [, second]] = consoles as [[string, Service], [string, Service]];
    expect(second.environment).toEqual(first.environment);
    // Each value is a valid configuration (the secret stands in for the one the operator gives).
    const values = { ...first.environment, JWT_SECRET: 'x'.repeat(48), DEMO_DATA: 'false' };
    expect(envSchema.safeParse(values).success).toBe(true);
  });

  it('the proxy and the files the kit mounts exist', () => {
    for (const service of Object.values(compose.services)) {
      for (const volume of service.volumes ?? []) {
        const source = volume.split(':')[0]!;
        if (source.startsWith('./')) expect(existsSync(join(REPO_ROOT, source)), source).toBe(true);
      }
    }
    expect(read('deploy/Caddyfile')).toMatch(/reverse_proxy console-1:3000 console-2:3000/);
    expect(read('.dockerignore')).toMatch(/^node_modules$/m);
  });
});
