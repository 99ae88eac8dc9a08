import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ConfigError,
  envSchema,
  loadConfig,
  loadToolConfig,
  readEnvFile,
  REPO_ROOT,
  severalInstanceWarnings,
} from './config';

// A secret is given unless a test is about secrets: without one, loadConfig writes one to DATA_DIR.
const SECRET = 'a-config-test-secret-of-more-than-32-chars';

function configError(env: NodeJS.ProcessEnv): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('loadConfig accepted the environment');
}

const folders: string[] = [];
/** A fresh folder, removed after the test. */
const tempFolder = () => {
  const folder = mkdtempSync(join(tmpdir(), 'bmet-config-'));
  folders.push(folder);
  return folder;
};
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe('loadConfig', () => {
  it('has defaults: port 3000, tokens for 3 hours, PGlite in ./data', () => {
    const config = loadConfig({ JWT_SECRET: SECRET });
    expect(config.port).toBe(3000);
    expect(config.host).toBe('0.0.0.0');
    expect(config.tokenTtlHours).toBe(3);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.demoData).toBe(true);
    expect(config.trustProxy).toBe(false);
    expect(config.env).toBe('development');
    expect(isAbsolute(config.dataDir)).toBe(true);
    expect(config.dataDir.endsWith('/data')).toBe(true);
    expect(config.webDist).toBe(join(REPO_ROOT, 'apps/web/dist'));
  });

  it('reads the values it is given', () => {
    const config = loadConfig({
      JWT_SECRET: SECRET,
      PORT: '8080',
      TOKEN_TTL_HOURS: '1.5',
      DATABASE_URL: 'postgresql://app@db.internal:5432/etaxi',
      TRUST_PROXY: '1',
      NODE_ENV: 'production',
    });
    expect(config).toMatchObject({
      port: 8080,
      tokenTtlHours: 1.5,
      databaseUrl: 'postgresql://app@db.internal:5432/etaxi',
      trustProxy: 1,
      env: 'production',
      // Production data comes from a real install, not the demo seed.
      demoData: false,
      jwtSecret: SECRET,
    });
  });

  it('loads no demo data in production, even on the embedded database', () => {
    expect(loadConfig({ NODE_ENV: 'production', DATA_DIR: tempFolder() }).demoData).toBe(false);
    expect(loadConfig({ NODE_ENV: 'test', DATA_DIR: tempFolder() }).demoData).toBe(true);
  });

  it('refuses DEMO_DATA=true in production, where the demo password would open an admin account', () => {
    const error = configError({ NODE_ENV: 'production', DEMO_DATA: 'true', DATA_DIR: tempFolder() });
    expect(error.message).toMatch(/^Invalid configuration:\n {2}DEMO_DATA: .*published password/);
    expect(error.message).toContain('npm run create-admin');
  });

  it('lets a command that signs no token run on DATABASE_URL without JWT_SECRET, and writes no secret', () => {
    const folder = tempFolder();
    const config = loadToolConfig({
      DATABASE_URL: 'postgres://app@db.internal:5432/etaxi',
      DATA_DIR: folder,
    });
    expect(config.databaseUrl).toBe('postgres://app@db.internal:5432/etaxi');
    expect(config).not.toHaveProperty('jwtSecret');
    expect(existsSync(join(folder, 'jwt-secret'))).toBe(false);
    expect(() =>
      loadConfig({ DATABASE_URL: 'postgres://app@db.internal:5432/etaxi', DATA_DIR: folder }),
    ).toThrow(/JWT_SECRET: required with DATABASE_URL/);
  });

  it('names PORT in a readable error when it is not a number', () => {
    const error = configError({ JWT_SECRET: SECRET, PORT: 'abc' });
    expect(error.message).toMatch(/^Invalid configuration:\n {2}PORT: /);
    expect(error.message.split('\n')).toHaveLength(2);
  });

  it('refuses a port out of range', () => {
    expect(configError({ JWT_SECRET: SECRET, PORT: '70000' }).message).toMatch(/PORT: /);
  });

  it('names DATABASE_URL when it is not a PostgreSQL URL', () => {
    const error = configError({ JWT_SECRET: SECRET, DATABASE_URL: 'mysql://x' });
    expect(error.message).toBe(
      'Invalid configuration:\n  DATABASE_URL: must start with postgres:// or postgresql://',
    );
  });

  it('lists one line per bad variable', () => {
    const error = configError({
      PORT: 'abc',
      DATABASE_URL: 'mysql://x',
      JWT_SECRET: 'short',
      TRUST_PROXY: 'maybe',
    });
    const lines = error.message.split('\n').slice(1);
    expect(lines.map((line) => line.trim().split(':')[0]).sort()).toEqual([
      'DATABASE_URL',
      'JWT_SECRET',
      'PORT',
      'TRUST_PROXY',
    ]);
    expect(error.message).toContain('JWT_SECRET: must be at least 32 characters');
    expect(error.message).toContain('TRUST_PROXY: must be false, a number of proxies');
  });

  it('reads TRUST_PROXY as a hop count or the proxies\' addresses, never as "trust anyone"', () => {
    const trust = (value: string) => loadConfig({ JWT_SECRET: SECRET, TRUST_PROXY: value }).trustProxy;
    expect(trust('false')).toBe(false);
    expect(trust('2')).toBe(2);
    expect(trust('10.0.0.5, 10.1.0.0/16,::1')).toBe('10.0.0.5,10.1.0.0/16,::1');
    expect(trust('loopback')).toBe('loopback');
    expect(configError({ JWT_SECRET: SECRET, TRUST_PROXY: 'true' }).message).toContain(
      'TRUST_PROXY: true would believe any X-Forwarded-For a client writes',
    );
    expect(configError({ JWT_SECRET: SECRET, TRUST_PROXY: '10.0.0.0/33' }).message).toContain('TRUST_PROXY');
    expect(trust('10.0.0.0/8,fd00::/16,::ffff:10.0.0.0/104')).toBe(
      '10.0.0.0/8,fd00::/16,::ffff:10.0.0.0/104',
    );
    // Ranges that together cover everyone are "true" in disguise.
    for (const wide of [
      '0.0.0.0/1,128.0.0.0/1',
      '0.0.0.0/0',
      '::/0',
      '2000::/3',
      '::ffff:0:0/96',
      '::ffff:10.0.0.0/100',
    ]) {
      expect(configError({ JWT_SECRET: SECRET, TRUST_PROXY: wide }).message).toContain(
        'would believe the X-Forwarded-For of almost any address',
      );
    }
  });

  it.each(['production', 'development', 'test'])(
    'requires JWT_SECRET with DATABASE_URL (NODE_ENV=%s)',
    (env) => {
      const error = configError({ NODE_ENV: env, DATABASE_URL: 'postgres://db/etaxi' });
      expect(error.message).toBe(
        'Invalid configuration:\n  JWT_SECRET: required with DATABASE_URL (32+ characters, the same for every instance)',
      );
    },
  );

  it('creates a secret in DATA_DIR once and keeps it across starts', () => {
    const dataDir = tempFolder();
    const first = loadConfig({ DATA_DIR: dataDir });
    expect(first.dataDir).toBe(dataDir);
    expect(first.jwtSecret.length).toBeGreaterThanOrEqual(32);
    const file = join(dataDir, 'jwt-secret');
    expect(existsSync(file)).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe(first.jwtSecret);
    expect(statSync(file).mode & 0o077).toBe(0);
    expect(loadConfig({ DATA_DIR: dataDir }).jwtSecret).toBe(first.jwtSecret);
  });
});

describe('severalInstanceWarnings', () => {
  const withDatabase = { DATABASE_URL: 'postgres://db/etaxi', JWT_SECRET: SECRET };

  it('says what breaks with several instances when Redis or the object store is missing', () => {
    const warnings = severalInstanceWarnings(loadConfig(withDatabase));
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/^DATABASE_URL is set without REDIS_URL: /);
    expect(warnings[1]).toMatch(/^DATABASE_URL is set without S3_BUCKET: /);
  });

  it('says nothing with Redis and S3, nor on the embedded database', () => {
    expect(
      severalInstanceWarnings(
        loadConfig({ ...withDatabase, REDIS_URL: 'redis://cache:6379', S3_BUCKET: 'documents' }),
      ),
    ).toEqual([]);
    expect(
      severalInstanceWarnings({
        databaseUrl: undefined,
        redisUrl: undefined,
        objectStore: { kind: 'local', root: '/x' },
      }),
    ).toEqual([]);
  });
});

describe('.env and .env.example', () => {
  it('.env.example names every variable of the configuration, and nothing else', () => {
    const example = readFileSync(join(REPO_ROOT, '.env.example'), 'utf8');
    const named = [...example.matchAll(/^#? ?([A-Z][A-Z0-9_]+)=/gm)].map((found) => found[1]);
    expect([...named].sort()).toEqual(Object.keys(envSchema.shape).sort());
    expect(named.filter((name, i) => named.indexOf(name) !== i)).toEqual([]);
  });

  it('every value .env.example shows passes the configuration check', () => {
    const example = readFileSync(join(REPO_ROOT, '.env.example'), 'utf8');
    const shown = Object.fromEntries(
      [...example.matchAll(/^# ([A-Z][A-Z0-9_]+)=(.+)$/gm)].map((found) => [found[1], found[2]]),
    );
    expect(() => loadConfig({ ...shown, JWT_SECRET: SECRET, DATA_DIR: tempFolder() })).not.toThrow();
  });

  it('reads .env when present; the environment wins over it', () => {
    const folder = tempFolder();
    writeFileSync(
      join(folder, '.env'),
      'PORT=4321\nLOG_LEVEL=debug\n# a comment\nMAP_ATTRIBUTION="Tiles, with a comma"\n',
    );
    const env: NodeJS.ProcessEnv = { LOG_LEVEL: 'warn' };
    expect(readEnvFile(env, folder)).toBe(join(folder, '.env'));
    expect(env).toEqual({ LOG_LEVEL: 'warn', PORT: '4321', MAP_ATTRIBUTION: 'Tiles, with a comma' });
    expect(readEnvFile({}, tempFolder())).toBeNull();
  });
});

describe('the Firebase link', () => {
  const URL = 'https://bmet-prod-default-rtdb.asia-southeast1.firebasedatabase.app';

  it('is off without FIREBASE_DATABASE_URL', () => {
    expect(loadConfig({ JWT_SECRET: SECRET }).firebase).toBeNull();
  });

  it('writes back unless FIREBASE_WRITE_BACK=false (a first week read-only)', () => {
    const env = { JWT_SECRET: SECRET, FIREBASE_DATABASE_URL: URL, FIREBASE_DATABASE_SECRET: 's' };
    expect(loadConfig({ ...env, FIREBASE_WRITE_BACK: 'false' }).firebase?.writeBack).toBe(false);
    expect(configError({ ...env, FIREBASE_WRITE_BACK: 'sometimes' }).message).toMatch(/FIREBASE_WRITE_BACK/);
  });

  it('takes a database secret, or a service account key file that exists', () => {
    expect(
      loadConfig({ JWT_SECRET: SECRET, FIREBASE_DATABASE_URL: URL, FIREBASE_DATABASE_SECRET: 's' }).firebase,
    ).toEqual({
      address: { origin: URL, namespace: null },
      credentials: { kind: 'secret', secret: 's' },
      writeBack: true,
    });
    const keyFile = join(tempFolder(), 'key.json');
    writeFileSync(keyFile, '{}');
    expect(
      loadConfig({ JWT_SECRET: SECRET, FIREBASE_DATABASE_URL: URL, GOOGLE_APPLICATION_CREDENTIALS: keyFile })
        .firebase?.credentials,
    ).toEqual({ kind: 'service-account', keyFile });
    expect(
      configError({
        JWT_SECRET: SECRET,
        FIREBASE_DATABASE_URL: URL,
        GOOGLE_APPLICATION_CREDENTIALS: `${keyFile}.gone`,
      }).message,
    ).toMatch(/GOOGLE_APPLICATION_CREDENTIALS: .* does not exist/);
    expect(configError({ JWT_SECRET: SECRET, FIREBASE_DATABASE_URL: URL }).message).toMatch(
      /FIREBASE_DATABASE_URL: needs GOOGLE_APPLICATION_CREDENTIALS .* or FIREBASE_DATABASE_SECRET/,
    );
  });

  it("goes to the emulator as Firebase's SDKs do, and to plain http on loopback only", () => {
    expect(
      loadConfig({
        JWT_SECRET: SECRET,
        FIREBASE_DATABASE_URL: URL,
        FIREBASE_DATABASE_EMULATOR_HOST: '127.0.0.1:9000',
      }).firebase,
    ).toEqual({
      address: { origin: 'http://127.0.0.1:9000', namespace: 'bmet-prod-default-rtdb' },
      credentials: { kind: 'emulator' },
      writeBack: true,
    });
    expect(
      loadConfig({ JWT_SECRET: SECRET, FIREBASE_DATABASE_URL: 'http://127.0.0.1:9000/?ns=demo' }).firebase,
    ).toEqual({
      address: { origin: 'http://127.0.0.1:9000', namespace: 'demo' },
      credentials: { kind: 'none' },
      writeBack: true,
    });
    expect(
      configError({ JWT_SECRET: SECRET, FIREBASE_DATABASE_URL: 'http://db.example.in/?ns=demo' }).message,
    ).toMatch(/FIREBASE_DATABASE_URL: .*https/);
  });
});
