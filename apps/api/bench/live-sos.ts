/**
 * The SOS half of `npm run bench:live`: every dashboard tab also holds the SOS banner's stream, as
 * the console does on every screen, and phones press the panic button during the measured seconds.
 * Measured: from the press to each in-scope staff screen (every admin's tab sees every alert, the
 * most a server has to deliver), and how many of those deliveries never came.
 *
 * The tabs belong to many staff members, as in a control room: an account keeps at most
 * SESSIONS_PER_ACCOUNT sessions and STREAMS_PER_ACCOUNT streams (10 and 20 by default), so 2,000
 * tabs of two streams each are 200 admins of ten tabs.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../src/db/client';
import { rowsOf } from '../src/db/rows';
import { accounts } from '../src/db/schema';
import { createAccount } from '../src/seed/factories';
import { headersOf } from './bench-data';
import { readServerSentEvents } from './server-sent-events';

const TABS_PER_ACCOUNT = 10;
const EMAIL = (n: number) => `bench.control.room.${n}@bench.bookmyetaxi.in`;

type ControlRoomAccount = { id: string; role: 'admin'; email: string; displayName: string | null };

const controlRoomAccounts = async (db: Db) =>
  rowsOf(
    await db.execute(sql`select id, role, email, display_name as "displayName" from accounts
      where email like 'bench.control.room.%' order by email`),
  ) as ControlRoomAccount[];

/** A session for each tab, ten tabs to an admin account (the accounts are made once and kept). */
export async function controlRoomSessions(db: Db, tabs: number): Promise<string[]> {
  const wanted = Math.ceil(tabs / TABS_PER_ACCOUNT);
  let have = await controlRoomAccounts(db);
  if (have.length < wanted) {
    // One password hashed for all: nobody signs in to them by password.
    const { passwordHash } = await createAccount(db, {
      role: 'admin',
      email: EMAIL(have.length),
      displayName: `Control room ${have.length}`,
    });
    const missing = Array.from({ length: wanted - have.length - 1 }, (_, k) => have.length + 1 + k);
    if (missing.length > 0)
      await db.insert(accounts).values(
        missing.map((n) => ({
          role: 'admin' as const,
          email: EMAIL(n),
          displayName: `Control room ${n}`,
          passwordHash,
        })),
      );
    have = await controlRoomAccounts(db);
  }
  // Sessions of earlier runs are ended, so that each account holds only this run's ten.
  await db.execute(sql`delete from sessions where account_id in (
    select id from accounts where email like 'bench.control.room.%')`);
  const sessions: string[] = [];
  for (let tab = 0; tab < tabs; tab++) {
    const account = have[Math.floor(tab / TABS_PER_ACCOUNT)]!;
    sessions.push((await headersOf(db, account, 2)).authorization);
  }
  // Alerts of earlier runs are closed: each new stream starts with the open ones.
  await db.execute(sql`update sos_alerts set status = 'resolved', resolved_at = now(), outcome = 'test'
    where status <> 'resolved'`);
  return sessions;
}

/**
 * A tab's one stream (`query` asks for the positions it shows): calls `on.raised` with the driver
 * of each alert raised, and `on.location` with each position.
 */
export async function openTabStream(
  baseUrl: string,
  authorization: string,
  on: { raised: (driverId: string) => void; location?: (driverId: string, at: string) => void },
  query = '',
): Promise<() => void> {
  const controller = new AbortController();
  const response = await fetch(`${baseUrl}/api/sos/stream${query}`, {
    headers: { authorization, accept: 'text/event-stream' },
    signal: controller.signal,
  });
  if (!response.ok || !response.body) throw new Error(`the tab's stream answered ${response.status}`);
  void readServerSentEvents(response, (event, data) => {
    if (event === 'location' && on.location) {
      const position = JSON.parse(data) as { driverId: string; at: string };
      on.location(position.driverId, position.at);
    }
    if (event !== 'sos') return;
    const notice = JSON.parse(data) as { kind: string; alert: { driverId: string | null } };
    if (notice.kind === 'raised' && notice.alert.driverId) on.raised(notice.alert.driverId);
  });
  return () => controller.abort();
}

/** Presses and deliveries: each press's time, and each tab's first sight of it. */
export function createSosTally(tabs: number) {
  const pressedAt = new Map<string, number>();
  const seen = new Set<string>();
  const deliveryMs: number[] = [];
  let failed = 0;
  return {
    pressed: (driverId: string, at: number) => pressedAt.set(driverId, at),
    failedPress: () => failed++,
    /** A tab's stream showed the alert of `driverId`. */
    delivered(tab: number, driverId: string) {
      const at = pressedAt.get(driverId);
      const key = `${tab}|${driverId}`;
      if (at === undefined || seen.has(key)) return;
      seen.add(key);
      deliveryMs.push(Date.now() - at);
    },
    figures() {
      const sorted = [...deliveryMs].sort((a, b) => a - b);
      const at = (p: number) =>
        sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
      const expected = (pressedAt.size - failed) * tabs;
      return {
        presses: pressedAt.size,
        failedPresses: failed,
        tabs,
        deliveries: sorted.length,
        lost: Math.max(0, expected - sorted.length),
        deliveryMs: { p50: at(50), p99: at(99), max: sorted.at(-1) ?? 0 },
      };
    },
  };
}
