import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { and, eq, sql } from 'drizzle-orm';
import { parser } from 'stream-json/parser.js';
import { pick } from 'stream-json/filters/pick.js';
import { streamArray } from 'stream-json/streamers/stream-array.js';
import { STATES, type Role } from '@bmet/shared/constants';
import { emailSchema } from '@bmet/shared/schemas/common';
import type { Db } from '../db/client';
import { accounts, firebaseHashParams } from '../db/schema';
import {
  fingerprintHashParams,
  sealHashSecrets,
  type FirebaseHashParams,
} from '../modules/auth/firebase-password';
import {
  isNestedDeeperThan,
  isRecord,
  MAX_RECORD_DEPTH,
  textOf,
  timeOf,
  withStorableText,
} from './firebase-values';
import { FIREBASE_ACTOR, recordAudit } from '../infra/audit';
import { describe } from './records';
import { note, skip, type ImportKind, type ImportReport } from './report';

/** A user of the Authentication export who signs in with an email (staff, or a would-be one). */
export type AuthUser = {
  uid: string;
  email: string;
  displayName: string | null;
  role: Role | null;
  disabled: boolean;
  passwordHash: string | null;
  salt: string | null;
  createdAt: Date | null;
};

/** The password an account gets: none usable, or an imported Firebase hash. */
type ImportedPassword = { hash: string; salt: string; paramsId: string } | null;

/** Never an argon2id hash: an account with it has no usable password until a reset. */
export const NO_PASSWORD = '!';

function roleOf(customAttributes: unknown): Role | null {
  let claims: unknown = customAttributes;
  if (typeof customAttributes === 'string') {
    try {
      claims = JSON.parse(customAttributes);
    } catch {
      return null;
    }
  }
  if (!isRecord(claims)) return null;
  return (['admin', 'city_dealer', 'franchise'] as const).find((role) => claims[role] === true) ?? null;
}

/**
 * Reads the Authentication export (`{"users": [...]}`) as a stream, keeping the users who sign in
 * with an email: staff, by their claims. Phone users (drivers, customers) are passed over, and so is
 * a user nested deeper than any export holds (reported).
 */
export async function readAuthExport(path: string, report: ImportReport): Promise<Map<string, AuthUser>> {
  const users = new Map<string, AuthUser>();
  let index = 0;
  await pipeline(
    createReadStream(path),
    parser.asStream(),
    pick.asStream({ filter: 'users' }),
    streamArray.asStream(),
    async function (items: AsyncIterable<{ value: unknown }>) {
      for await (const { value: read } of items) {
        index++;
        if (isNestedDeeperThan(read, MAX_RECORD_DEPTH)) {
          const reason = `nested deeper than ${MAX_RECORD_DEPTH} levels, which no export holds: not read`;
          skip(report, 'staffAccounts', `users[${index - 1}]`, reason);
          continue;
        }
        // Text PostgreSQL cannot hold (NUL, half a character) is left out, as in the database export.
        const value = withStorableText(read);
        if (!isRecord(value)) continue;
        const uid = textOf(value.localId);
        const email = textOf(value.email);
        if (!uid || !email) continue;
        users.set(uid, {
          uid,
          email,
          displayName: textOf(value.displayName),
          role: roleOf(value.customAttributes),
          disabled: value.disabled === true,
          passwordHash: textOf(value.passwordHash),
          salt: textOf(value.salt),
          createdAt: timeOf(value.createdAt),
        });
      }
    },
  );
  return users;
}

/** Stores the project's hash parameters (sealed) once, and answers their row's id. */
export async function storeHashParams(
  db: Db,
  params: FirebaseHashParams,
  jwtSecret: string,
): Promise<string> {
  const [row] = await db
    .insert(firebaseHashParams)
    .values({
      fingerprint: fingerprintHashParams(params),
      sealed: sealHashSecrets(params, jwtSecret),
      rounds: params.rounds,
      memCost: params.memCost,
    })
    // Sealed again under the JWT_SECRET of today: an import after a rotation makes them readable.
    .onConflictDoUpdate({ target: firebaseHashParams.fingerprint, set: { sealed: sql`excluded.sealed` } })
    .returning({ id: firebaseHashParams.id });
  return row!.id;
}

type AccountFields = {
  email: string;
  displayName: string | null;
  role: Role;
  disabled: boolean;
  state?: string | null;
  createdAt?: Date | null;
};

/**
 * Staff accounts, from the Authentication export and the city_dealer and franchise nodes. Each call
 * writes on the database or transaction it is given and counts in the report it is given (a batch's
 * own, added to the run's once its transaction commits).
 */
export class StaffImport {
  /** Franchise uid to its dealer's uid, linked once every account exists. */
  private readonly dealerOf = new Map<string, string>();

  constructor(
    private readonly users: Map<string, AuthUser>,
    private readonly hashParamsId: string | null,
    /**
     * Followed live (the Firebase link) rather than moved in: an account the console has already
     * is the console's (email, role, state, dealer, disabled, password); only its name follows.
     */
    private readonly followed = false,
  ) {}

  /** The staff of the Authentication export: users whose claims carry a role. */
  async importAuthUsers(db: Db, report: ImportReport): Promise<void> {
    for (const user of this.users.values()) {
      if (!user.role) continue;
      const fields = {
        email: user.email,
        displayName: user.displayName,
        role: user.role,
        disabled: user.disabled,
        createdAt: user.createdAt,
      };
      await this.writeAccount(db, report, 'staffAccounts', user.uid, fields);
    }
  }

  /** A city_dealer/{uid} or franchise/{uid} node. */
  async importNode(
    db: Db,
    report: ImportReport,
    role: 'city_dealer' | 'franchise',
    uid: string,
    value: unknown,
  ): Promise<void> {
    const kind: ImportKind = role === 'city_dealer' ? 'dealers' : 'franchises';
    if (!isRecord(value)) return skip(report, kind, uid, `not a record (${describe(value)})`);
    const user = this.users.get(uid);
    const email = textOf(value.email) ?? user?.email;
    if (!email) return skip(report, kind, uid, 'no email, here or in the Authentication export');
    let state = textOf(value.state)?.toLowerCase() ?? null;
    if (state && !(STATES as readonly string[]).includes(state)) {
      note(report, kind, uid, 'repaired', `state "${state}" is not one of the 30: left out`);
      state = null;
    }
    const fields = {
      email,
      // What the Authentication export says wins, as in importAuthUsers: a second run changes nothing.
      displayName: user?.displayName ?? textOf(value.name),
      role: user?.role ?? role,
      disabled: user?.disabled ?? false,
      state,
      createdAt: user?.createdAt ?? timeOf(value.createdAt),
    };
    if (user?.role && user.role !== role) {
      note(report, kind, uid, 'listed', `the Authentication claims say ${user.role}: kept as ${user.role}`);
    }
    const written = await this.writeAccount(db, report, kind, uid, fields);
    if (role === 'franchise' && (written === 'new' || !this.followed)) {
      const dealer = textOf(value.city_dealer);
      if (dealer) this.dealerOf.set(uid, dealer);
    }
  }

  /** Links each franchise to its dealer, now that both exist (whatever order the export had). */
  async linkFranchises(db: Db, report: ImportReport): Promise<void> {
    for (const [franchise, dealer] of this.dealerOf) {
      const [found] = await db
        .select({ id: accounts.id })
        .from(accounts)
        .where(and(eq(accounts.firebaseKey, dealer), eq(accounts.role, 'city_dealer')));
      if (!found) {
        note(
          report,
          'franchises',
          franchise,
          'repaired',
          `its city dealer ${dealer} does not exist: left without one`,
        );
        continue;
      }
      await db
        .update(accounts)
        .set({ dealerId: found.id })
        .where(
          and(eq(accounts.firebaseKey, franchise), sql`${accounts.dealerId} is distinct from ${found.id}`),
        );
    }
  }

  private passwordOf(uid: string): ImportedPassword {
    const user = this.users.get(uid);
    if (!user?.passwordHash || !user.salt || !this.hashParamsId) return null;
    return { hash: user.passwordHash, salt: user.salt, paramsId: this.hashParamsId };
  }

  private async writeAccount(
    db: Db,
    report: ImportReport,
    kind: ImportKind,
    uid: string,
    given: AccountFields,
  ): Promise<'new' | 'updated' | 'unchanged' | 'skipped'> {
    // An account is a way into the console: its email must be one (not "not an email", nor a real
    // address with an invisible character after it, which would show in the admin reset list).
    const email = given.email.normalize('NFC').trim();
    if (!emailSchema.safeParse(email).success) {
      skip(report, kind, uid, `the email "${visible(given.email)}" is not a valid address`);
      return 'skipped';
    }
    const fields = { ...given, email };
    const [existing] = await db.select().from(accounts).where(eq(accounts.firebaseKey, uid)).limit(1);
    const [sameEmail] = await db
      .select({ id: accounts.id, firebaseKey: accounts.firebaseKey })
      .from(accounts)
      .where(sql`lower(${accounts.email}) = lower(${fields.email})`)
      .limit(1);
    if (existing && this.followed) return this.followName(db, report, kind, existing, fields.displayName);
    if (sameEmail && sameEmail.id !== existing?.id) {
      skip(report, kind, uid, `the email ${fields.email} belongs to another account already`);
      return 'skipped';
    }
    const password = this.passwordOf(uid);
    // A password set or used here already (argon2id) is never replaced by the export's.
    const ownPassword =
      existing && !existing.firebasePasswordHash && existing.passwordHash.startsWith('$argon2');
    const passwordFields = ownPassword
      ? {}
      : {
          firebasePasswordHash: password?.hash ?? null,
          firebasePasswordSalt: password?.salt ?? null,
          firebaseHashParamsId: password?.paramsId ?? null,
        };
    if (!ownPassword && !password) {
      note(report, kind, uid, 'listed', `${fields.email} has no usable password: send a reset link`);
    }
    const values = {
      email: fields.email,
      displayName: fields.displayName,
      role: fields.role,
      disabled: fields.disabled,
      ...(fields.state !== undefined ? { state: fields.state } : {}),
      ...(fields.createdAt ? { createdAt: fields.createdAt } : {}),
      ...passwordFields,
    };
    if (!existing) {
      const [created] = await db
        .insert(accounts)
        .values({ ...values, firebaseKey: uid, passwordHash: NO_PASSWORD })
        .returning({ id: accounts.id });
      if (this.followed) {
        await recordAudit(db, FIREBASE_ACTOR, {
          action: 'create',
          resource: resourceOf(fields.role),
          resourceId: created!.id,
          before: null,
          after: { name: fields.displayName, email: fields.email, state: fields.state ?? null },
        });
      }
      report.counts[kind].new++;
      return 'new';
    }
    const changed = Object.entries(values).some(
      ([name, value]) => !same(existing[name as keyof typeof existing], value),
    );
    if (!changed) {
      report.counts[kind].unchanged++;
      return 'unchanged';
    }
    await db.update(accounts).set(values).where(eq(accounts.id, existing.id));
    report.counts[kind].updated++;
    return 'updated';
  }

  /** An account the console has, followed live: its name is the apps', the rest the console's. */
  private async followName(
    db: Db,
    report: ImportReport,
    kind: ImportKind,
    existing: typeof accounts.$inferSelect,
    name: string | null,
  ): Promise<'updated' | 'unchanged'> {
    if (name === null || name === existing.displayName) {
      report.counts[kind].unchanged++;
      return 'unchanged';
    }
    await db.update(accounts).set({ displayName: name }).where(eq(accounts.id, existing.id));
    await recordAudit(db, FIREBASE_ACTOR, {
      action: 'update',
      resource: resourceOf(existing.role),
      resourceId: existing.id,
      before: { name: existing.displayName },
      after: { name },
    });
    report.counts[kind].updated++;
    return 'updated';
  }
}

const resourceOf = (role: Role) =>
  role === 'city_dealer' ? 'city-dealers' : role === 'franchise' ? 'franchises' : 'accounts';

function same(a: unknown, b: unknown): boolean {
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  return (a ?? null) === (b ?? null);
}

/** A text with every character outside printable ASCII written as \uXXXX, for a report. */
function visible(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
