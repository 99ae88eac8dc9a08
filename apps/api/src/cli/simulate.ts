import { parseArgs } from 'node:util';
import type { z } from 'zod';
import { errorBodySchema } from '@bmet/shared/errors';
import { signInResponseSchema } from '@bmet/shared/schemas/auth';
import { driverListResponseSchema, issuedDeviceTokenResponseSchema } from '@bmet/shared/schemas/driver';
import { deviceSosResponseSchema } from '@bmet/shared/schemas/sos';
import { drive, gpsReading, startVehicle, type Vehicle } from './simulate-route';

const usage = `Usage: npm run simulate -- [--drivers 25] [--interval 2] [--minutes 30] [--sos-after 20]
Moves demo drivers around their cities through the API, as their phones would: signs in as the
demo admin, issues a device token per driver ('Simulator'), reports positions every interval, and
revokes the tokens when it stops (after --minutes, or on Ctrl-C).

  --drivers N      how many drivers to move (default 25, at most 10,000; drivers with a known position)
  --interval S     seconds between reports, at least 1 (default 2)
  --minutes M      stop after this long (default 30)
  --email E        the admin to sign in as (default admin@bookmyetaxi.test)
  --sos-after S    after S seconds, the first driver presses the panic button (an SOS alert from
                   its phone, with its position): the control room and every screen in scope see it

Environment: API_URL (default http://localhost:3000), DEMO_PASSWORD (default etaxi-demo-2026).

Every report counts toward the server's limit per client address (RATE_LIMIT_PER_MINUTE, 1200 by
default): for a large fleet start the server with a higher one, for example 10,000 drivers every
5 s with RATE_LIMIT_PER_MINUTE=200000, and seed that many drivers (npm run seed -- --drivers 12000).`;

type Options = { drivers: number; interval: number; minutes: number; email: string; sosAfter: number | null };

/** Device tokens issued at once when the run starts. */
const ISSUE_AT_ONCE = 16;
/** Reports of a tick go out in slices this far apart. */
const SLICE_MS = 50;

function readOptions(): Options | null {
  const { values } = parseArgs({
    options: {
      drivers: { type: 'string', default: '25' },
      interval: { type: 'string', default: '2' },
      minutes: { type: 'string', default: '30' },
      email: { type: 'string', default: 'admin@bookmyetaxi.test' },
      'sos-after': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) return null;
  const number = (name: string, text: string, min: number, max: number, integer = false) => {
    const value = Number(text);
    if (!Number.isFinite(value) || value < min || value > max || (integer && !Number.isInteger(value))) {
      throw new Error(`--${name} must be ${integer ? 'a whole number' : 'a number'} from ${min} to ${max}`);
    }
    return value;
  };
  return {
    drivers: number('drivers', values.drivers, 1, 10_000, true),
    // The report endpoint allows 60 reports a minute per device token.
    interval: number('interval', values.interval, 1, 600),
    minutes: number('minutes', values.minutes, 0.1, 24 * 60),
    email: values.email,
    sosAfter:
      values['sos-after'] === undefined ? null : number('sos-after', values['sos-after'], 0, 24 * 3600),
  };
}

/** Every request goes to this one server. */
function apiBase(): string {
  const url = new URL(process.env.API_URL ?? 'http://localhost:3000');
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('API_URL must be http(s)://');
  return url.origin;
}

class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Calls the API and checks the answer against the shared contract. */
async function call<T extends z.ZodType>(
  base: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; schema?: T } = {},
): Promise<z.infer<T>> {
  const response = await fetch(`${base}/api${path}`, {
    method,
    headers: {
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await response.text();
  if (!response.ok) {
    const error = errorBodySchema.safeParse(safeJson(text));
    throw new ApiError(
      response.status,
      `${method} ${path}: ${response.status} ${error.success ? error.data.error : text.slice(0, 200)}`,
    );
  }
  return options.schema ? options.schema.parse(safeJson(text)) : (undefined as z.infer<T>);
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

const time = () => new Date().toTimeString().slice(0, 8);
const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });

type Simulated = {
  id: string;
  name: string;
  tokenId: string;
  token: string;
  vehicle: Vehicle;
  live: boolean;
};

async function main() {
  const options = readOptions();
  if (!options) {
    console.log(usage);
    return;
  }
  const base = apiBase();
  const password = process.env.DEMO_PASSWORD ?? 'etaxi-demo-2026';

  const signIn = async () =>
    (
      await call(base, 'POST', '/auth/sign-in', {
        body: { email: options.email, password, role: 'admin' },
        schema: signInResponseSchema,
      })
    ).data.idToken;
  let adminToken = await signIn();
  console.log(`${time()} signed in to ${base} as ${options.email}`);

  // Drivers with a known position, page by page, until there are enough.
  const picked: { id: string; name: string; lat: number; long: number }[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 500 && picked.length < options.drivers; page++) {
    const query = new URLSearchParams({ limit: '200', ...(cursor ? { cursor } : {}) });
    const list: z.infer<typeof driverListResponseSchema> = await call(base, 'GET', `/drivers?${query}`, {
      token: adminToken,
      schema: driverListResponseSchema,
    });
    for (const driver of Object.values(list.data)) {
      if (driver.position && picked.length < options.drivers) {
        picked.push({ id: driver.id, name: driver.name, ...driver.position });
      }
    }
    cursor = list.nextCursor;
    if (!cursor) break;
  }
  if (picked.length === 0) throw new Error('No driver with a known position: load the demo data first.');

  const stop = new AbortController();
  let interrupted = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    // npm and the terminal may both deliver one Ctrl-C; only a second press a moment later forces.
    if (interrupted && Date.now() - interrupted > 1000) {
      console.log(`${time()} ${signal} again: leaving without revoking the device tokens`);
      process.exit(130);
    }
    if (!interrupted) console.log(`\n${time()} ${signal}: stopping (Ctrl-C again to leave at once)`);
    interrupted ||= Date.now();
    stop.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  const simulated: Simulated[] = [];
  try {
    // A few at a time: a fleet of thousands would take minutes one by one.
    for (let i = 0; i < picked.length && !stop.signal.aborted; i += ISSUE_AT_ONCE) {
      const issued = await Promise.all(
        picked.slice(i, i + ISSUE_AT_ONCE).map(async (driver) => {
          const token = await call(base, 'POST', `/drivers/driver/${driver.id}/device-tokens`, {
            token: adminToken,
            body: { label: 'Simulator' },
            schema: issuedDeviceTokenResponseSchema,
          });
          return { driver, token };
        }),
      );
      for (const { driver, token } of issued) {
        simulated.push({
          id: driver.id,
          name: driver.name,
          tokenId: token.data.id,
          token: token.data.token,
          vehicle: startVehicle({ lat: driver.lat, long: driver.long }),
          live: true,
        });
      }
    }
    console.log(
      `${time()} moving ${simulated.length} drivers every ${options.interval} s for ${options.minutes} min ` +
        '(Ctrl-C to stop)',
    );

    const startedAt = Date.now();
    let sosRaised = false;
    const deadline = startedAt + options.minutes * 60_000;
    let tick = 0;
    while (!stop.signal.aborted && Date.now() < deadline) {
      const started = Date.now();
      tick++;
      const live = simulated.filter((driver) => driver.live);
      if (live.length === 0) {
        console.log(`${time()} no driver left to move`);
        break;
      }
      const speeds: number[] = [];
      const reportOne = async (driver: Simulated) => {
        speeds.push(drive(driver.vehicle, options.interval));
        try {
          await call(base, 'POST', '/driver-app/location', {
            token: driver.token,
            body: { ...gpsReading(driver.vehicle.position), recordedAt: new Date().toISOString() },
          });
          return 'ok';
        } catch (error) {
          // A token revoked from the dashboard (or a driver deleted) ends that driver's run.
          if (error instanceof ApiError && error.status === 401) {
            driver.live = false;
            console.log(`${time()} ${driver.name}: device token no longer accepted; leaving it parked`);
          }
          return error instanceof ApiError ? String(error.status) : 'unreachable';
        }
      };
      // The reports of one interval are spread over its first half, as phones are not in step.
      const slices = Math.max(1, Math.min(live.length, Math.floor((options.interval * 1000) / 2 / SLICE_MS)));
      const pending: Promise<string>[] = [];
      for (let slice = 0; slice < slices && !stop.signal.aborted; slice++) {
        const from = Math.floor((slice * live.length) / slices);
        const to = Math.floor(((slice + 1) * live.length) / slices);
        pending.push(...live.slice(from, to).map(reportOne));
        if (slice < slices - 1) await sleep(SLICE_MS, stop.signal);
      }
      const outcomes = await Promise.all(pending);
      if (options.sosAfter !== null && !sosRaised && Date.now() - startedAt >= options.sosAfter * 1000) {
        sosRaised = true;
        const driver = live[0]!;
        try {
          const raised = await call(base, 'POST', '/driver-app/sos', {
            token: driver.token,
            body: { ...gpsReading(driver.vehicle.position), recordedAt: new Date().toISOString() },
            schema: deviceSosResponseSchema,
          });
          console.log(`${time()} ${driver.name} pressed the panic button: ${raised.data.number}`);
        } catch (error) {
          console.log(`${time()} ${driver.name}'s SOS was refused: ${(error as Error).message}`);
        }
      }
      const counts = new Map<string, number>();
      for (const outcome of outcomes) counts.set(outcome, (counts.get(outcome) ?? 0) + 1);
      const failures = [...counts].filter(([outcome]) => outcome !== 'ok');
      const first = live[0]!;
      const average = speeds.reduce((a, b) => a + b, 0) / speeds.length;
      console.log(
        `${time()} tick ${tick}: ${counts.get('ok') ?? 0}/${live.length} reported` +
          (failures.length ? ` (failed: ${failures.map(([o, n]) => `${n}x ${o}`).join(', ')})` : '') +
          ` · avg ${average.toFixed(0)} km/h · ${first.name} at ` +
          `${first.vehicle.position.lat.toFixed(5)}, ${first.vehicle.position.long.toFixed(5)}`,
      );
      await sleep(Math.max(0, options.interval * 1000 - (Date.now() - started)), stop.signal);
    }
  } finally {
    await revokeAll(simulated);
  }

  async function revokeAll(list: Simulated[]) {
    if (list.length === 0) return;
    let revoked = 0;
    for (const driver of list) {
      const revoke = () =>
        call(base, 'DELETE', `/drivers/driver/${driver.id}/device-tokens/${driver.tokenId}`, {
          token: adminToken,
        });
      try {
        await revoke().catch(async (error: unknown) => {
          // A long run can outlive the admin's ID token.
          if (!(error instanceof ApiError && error.status === 401)) throw error;
          adminToken = await signIn();
          await revoke();
        });
        revoked++;
      } catch (error) {
        console.log(`${time()} could not revoke the token of ${driver.name}: ${(error as Error).message}`);
      }
    }
    console.log(`${time()} revoked ${revoked} of ${list.length} simulator device tokens`);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
