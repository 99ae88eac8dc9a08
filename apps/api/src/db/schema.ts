import { sql, type AnyColumn } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  date,
  doublePrecision,
  index,
  integer,
  json,
  jsonb,
  numeric,
  pgEnum,
  pgSequence,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { ROLES, TRIP_STATUSES } from '@bmet/shared/constants';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const roleEnum = pgEnum('role', ROLES);
export const tripStatusEnum = pgEnum('trip_status', TRIP_STATUSES);
export const documentStatusEnum = pgEnum('document_status', [
  'not_submitted',
  'submitted',
  'approved',
  'rejected',
]);

/** Staff accounts of every role: the built-in identity provider. */
export const accounts = pgTable(
  'accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    displayName: text('display_name'),
    role: roleEnum('role').notNull(),
    state: text('state'),
    /** The city dealer a franchise works under. */
    dealerId: uuid('dealer_id').references((): any => accounts.id),
    passwordHash: text('password_hash').notNull(),
    disabled: boolean('disabled').notNull().default(false),
    passwordChangedAt: timestamp('password_changed_at', { withTimezone: true }),
    /** The language the user chose for the console ('en' or 'hi'); null until they choose one. */
    language: text('language'),
    /** Set by the import: the Firebase key (the uid) by which a second import finds the row. */
    firebaseKey: text('firebase_key'),
    /**
     * An imported password not yet replaced: Firebase's SCRYPT hash and salt (base64) and the
     * project parameters that verify them. The first good sign-in replaces them with argon2id.
     */
    firebasePasswordHash: text('firebase_password_hash'),
    firebasePasswordSalt: text('firebase_password_salt'),
    firebaseHashParamsId: uuid('firebase_hash_params_id').references((): any => firebaseHashParams.id),
    createdAt: createdAt(),
    createdBy: uuid('created_by').references((): any => accounts.id),
    /** Soft delete: a deleted account is also disabled, hidden from lists, and keeps its email. */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    deletedBy: uuid('deleted_by').references((): any => accounts.id),
    /**
     * Raised whenever the account's second factor is reset or a method removed: browsers
     * remembered for the second step before it are asked again.
     */
    secondFactorVersion: integer('second_factor_version').notNull().default(0),
  },
  (t) => [
    uniqueIndex('accounts_email_lower_idx').on(sql`lower(${t.email})`),
    index('accounts_role_created_idx').on(t.role, t.createdAt),
    // The lists' other sorts: by name, and by state then name (as the lists spell them).
    index('accounts_role_name_idx').on(t.role, sql`coalesce(${t.displayName}, '')`, t.id),
    index('accounts_role_state_idx').on(
      t.role,
      sql`coalesce(${t.state}, '')`,
      sql`coalesce(${t.displayName}, '')`,
      t.id,
    ),
    index('accounts_dealer_idx').on(t.dealerId),
    uniqueIndex('accounts_firebase_key_idx').on(t.firebaseKey),
  ],
);

/** One row per issued ID token, so that a token can be revoked before it expires. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (t) => [index('sessions_account_idx').on(t.accountId)],
);

/**
 * An authenticator app (TOTP, RFC 6238) of an account. The secret is kept encrypted with a key
 * derived from the token secret; it works once confirmed with a first code. The last time step
 * used is kept so that a code is accepted once.
 */
export const totpSecrets = pgTable('totp_secrets', {
  accountId: uuid('account_id')
    .primaryKey()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  /** The confirmed secret, encrypted; null until a first code confirms one. */
  secret: text('secret'),
  /** A secret being set up (a first one, or a new phone's), encrypted, until its first code. */
  pendingSecret: text('pending_secret'),
  confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
  lastTimeStep: bigint('last_time_step', { mode: 'number' }).notNull().default(0),
  createdAt: createdAt(),
});

/** A passkey (WebAuthn credential) of an account: its id and public key, as the library keeps them. */
export const passkeys = pgTable(
  'passkeys',
  {
    /** The credential id, base64url. */
    id: text('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** The COSE public key, base64url. */
    publicKey: text('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: jsonb('transports').$type<string[]>().notNull().default([]),
    name: text('name').notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [index('passkeys_account_idx').on(t.accountId)],
);

/** Single-use recovery codes, kept as SHA-256 hashes (each holds 50 random bits). */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.codeHash] })],
);

/**
 * A sign-in waiting for its second step, an enrolment waiting for its passkey, or a sign-in by
 * passkey alone: the hash of the challenge handed out, whose account, and the WebAuthn challenge
 * asked of the authenticator. Each lives a few minutes and works once.
 */
export const secondFactorChallenges = pgTable('second_factor_challenges', {
  tokenHash: text('token_hash').primaryKey(),
  accountId: uuid('account_id').references(() => accounts.id, { onDelete: 'cascade' }),
  purpose: text('purpose').$type<'sign-in' | 'passkey-sign-in' | 'passkey-enrol'>().notNull(),
  /** The role tab the sign-in was made on. */
  role: roleEnum('role'),
  webauthnChallenge: text('webauthn_challenge'),
  failures: integer('failures').notNull().default(0),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/** Failed sign-in counters per email and per client address, for throttling. */
export const signInAttempts = pgTable('sign_in_attempts', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull().default(0),
  windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull(),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
});

/**
 * The text a search matches, lowered, kept in the row (a stored generated column): the trigram
 * index's recheck of each candidate row then reads it instead of lowering and joining four
 * columns again (8.5 of a common driver search's 15 ms at 100,000 drivers). The migration keeps no
 * statistics on it (0020): every value is distinct, and a sample misjudged a surname's share.
 */
function searchText(...columns: string[]) {
  const parts = columns.map((name, i) => (i === 0 ? `"${name}"` : `coalesce("${name}", '')`));
  return sql.raw(`lower(${parts.join(" || ' ' || ")})`);
}

export const drivers = pgTable(
  'drivers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    email: text('email'),
    phoneNumber: text('phone_number'),
    country: text('country'),
    state: text('state'),
    franchiseId: uuid('franchise_id').references(() => accounts.id),
    carModel: text('car_model'),
    vehicleNumber: text('vehicle_number'),
    carType: text('car_type'),
    lat: doublePrecision('lat'),
    long: doublePrecision('long'),
    positionAt: timestamp('position_at', { withTimezone: true }),
    /** The rest of the car details the driver app collected (car_details). */
    carBrand: text('car_brand'),
    carYear: text('car_year'),
    carColor: text('car_color'),
    carInteriorColor: text('car_interior_color'),
    /** The wallet's balance in rupees, as the driver app kept it (amount); null when never set. */
    walletBalance: doublePrecision('wallet_balance'),
    /** Set by the import: the Firebase key (the uid) by which a second import finds the row. */
    firebaseKey: text('firebase_key'),
    /**
     * How many of the driver's documents await review (status submitted), kept by a trigger on
     * driver_documents (migration 0010): the dashboard counts the drivers with any without
     * reading a million documents.
     */
    documentsAwaitingReview: integer('documents_awaiting_review').notNull().default(0),
    /**
     * The sum and the count of the driver's ratings that carry a rating (1 to 5), kept by a trigger
     * on driver_ratings (migration 0017): a trip page shows each driver's average without reading
     * the driver's ratings.
     */
    ratingTotal: integer('rating_total').notNull().default(0),
    ratingCount: integer('rating_count').notNull().default(0),
    createdAt: createdAt(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    deletedBy: uuid('deleted_by').references(() => accounts.id),
    /** Name, email, phone and vehicle number, lowered: what the driver search matches. */
    searchText: text('search_text')
      .notNull()
      .generatedAlwaysAs(searchText('name', 'email', 'phone_number', 'vehicle_number')),
  },
  (t) => [
    index('drivers_franchise_name_idx').on(t.franchiseId, t.name, t.id),
    index('drivers_name_idx').on(t.name, t.id),
    index('drivers_created_idx').on(t.createdAt, t.id),
    // A city dealer's or a franchise's drivers newest (or oldest) first, franchise by franchise.
    index('drivers_franchise_created_idx').on(t.franchiseId, t.createdAt, t.id),
    uniqueIndex('drivers_firebase_key_idx').on(t.firebaseKey),
    // The search over search_text is driver_search's (migration 0043, decision 042).
    // A phone typed in any form (phone_key(), migration 0032).
    index('drivers_phone_key_idx').on(sql`phone_key(${t.phoneNumber})`),
    // The deleted drivers alone (the list's Deleted tab): without it, that page read every driver
    // to find the few deleted ones. Small, and written only when a driver is deleted or restored.
    index('drivers_deleted_idx')
      .on(t.franchiseId, t.name, t.id)
      .where(sql`${t.deletedAt} is not null`),
  ],
);

/**
 * What the driver search reads of each driver, kept by triggers on drivers and stored in name order
 * (migration 0043, decision 042). A common name's matches are then neighbours on a few pages:
 * "sharma" reads 108 pages of this table against 2,083 of drivers, whose rows are six times wider
 * and lie in the order they came. Rows written since the table was last put in order sit at its
 * end until `keepDriverSearchInOrder` orders it again.
 */
export const driverSearch = pgTable(
  'driver_search',
  {
    id: uuid('id').primaryKey(),
    franchiseId: uuid('franchise_id'),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    name: text('name').notNull(),
    /** drivers.search_text: name, email, phone and vehicle number, lowered. */
    searchText: text('search_text').notNull(),
  },
  (t) => [
    // Substring search (pg_trgm).
    index('driver_search_text_idx').using('gin', sql`${t.searchText} gin_trgm_ops`),
    // The order the table is kept in (CLUSTER).
    index('driver_search_name_idx').on(t.name, t.id),
  ],
);

/** A driver's average rating, one decimal (null without ratings), from the sums kept on the row. */
export function driverAverageRating(t: { ratingTotal: AnyColumn; ratingCount: AnyColumn }) {
  return sql<string | null>`round(${t.ratingTotal}::numeric / nullif(${t.ratingCount}, 0), 1)`;
}

/** Device tokens with which a driver's phone reports its position; only a hash is stored. */
export const driverDeviceTokens = pgTable(
  'driver_device_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    driverId: uuid('driver_id')
      .notNull()
      .references(() => drivers.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    label: text('label').notNull(),
    createdBy: uuid('created_by').references(() => accounts.id),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('driver_device_tokens_hash_idx').on(t.tokenHash),
    index('driver_device_tokens_driver_idx').on(t.driverId),
  ],
);

/** A document as stored, whoever holds it: its image, its review and its expiry. */
const documentRecord = () => ({
  key: text('key').notNull(),
  status: documentStatusEnum('status').notNull().default('not_submitted'),
  objectKey: text('object_key'),
  contentType: text('content_type'),
  size: integer('size'),
  uploadedAt: timestamp('uploaded_at', { withTimezone: true }),
  reviewedBy: uuid('reviewed_by').references(() => accounts.id),
  reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
  rejectionReason: text('rejection_reason'),
  /** The day a document that expires (licence, RC, pollution, fitness, permit, insurance) stops being valid. */
  expiresOn: date('expires_on', { mode: 'string' }),
  /** The download URL in the apps' Firebase (`urls/{key}`) the stored image was fetched from. */
  firebaseUrl: text('firebase_url'),
});

export const driverDocuments = pgTable(
  'driver_documents',
  {
    driverId: uuid('driver_id')
      .notNull()
      .references(() => drivers.id, { onDelete: 'cascade' }),
    ...documentRecord(),
  },
  (t) => [
    primaryKey({ columns: [t.driverId, t.key] }),
    // The compliance list: documents by expiry, and those awaiting review oldest first.
    index('driver_documents_expires_idx')
      .on(t.expiresOn)
      .where(sql`${t.expiresOn} is not null`),
    index('driver_documents_submitted_idx')
      .on(t.uploadedAt)
      .where(sql`${t.status} = 'submitted'`),
  ],
);

/**
 * The documents of a vehicle nobody drives now (decision 030). A vehicle's documents (RC, fitness,
 * permit, pollution, insurance) are kept with the driver who drives it, in driver_documents, where
 * compliance, reviews and reminders read them; when the vehicle leaves its driver they are parked
 * here, and they go to the next driver it is given to (migration 0031's trigger on vehicles).
 */
export const vehicleDocuments = pgTable(
  'vehicle_documents',
  {
    vehicleId: uuid('vehicle_id')
      .notNull()
      .references(() => vehicles.id, { onDelete: 'cascade' }),
    ...documentRecord(),
  },
  (t) => [primaryKey({ columns: [t.vehicleId, t.key] })],
);

/** Every time someone looked at a document's image: who and when (the document's history). */
export const documentViews = pgTable(
  'document_views',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    driverId: uuid('driver_id')
      .notNull()
      .references(() => drivers.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    viewerId: uuid('viewer_id')
      .notNull()
      .references(() => accounts.id),
    /** Whether the image was served with the viewer's watermark (identity documents). */
    watermarked: boolean('watermarked').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('document_views_document_idx').on(t.driverId, t.key, t.at.desc(), t.id.desc())],
);

/**
 * Expiry reminders sent: one row per document, expiry date, threshold (30, 7 or 1 days) and
 * recipient, so that the daily run mails each once, whichever instance runs it.
 */
export const documentExpiryReminders = pgTable(
  'document_expiry_reminders',
  {
    driverId: uuid('driver_id')
      .notNull()
      .references(() => drivers.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    expiresOn: date('expires_on', { mode: 'string' }).notNull(),
    thresholdDays: smallint('threshold_days').notNull(),
    recipientId: uuid('recipient_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.driverId, t.key, t.expiresOn, t.thresholdDays, t.recipientId] })],
);

export const driverRatings = pgTable(
  'driver_ratings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    driverId: uuid('driver_id')
      .notNull()
      .references(() => drivers.id, { onDelete: 'cascade' }),
    customerName: text('customer_name'),
    description: text('description'),
    rating: smallint('rating'),
    /** Set by the import: the Firebase key ('{owner uid}/{push id}') by which a second import finds the row. */
    firebaseKey: text('firebase_key'),
    createdAt: createdAt(),
  },
  (t) => [
    index('driver_ratings_driver_idx').on(t.driverId, t.createdAt),
    uniqueIndex('driver_ratings_firebase_key_idx').on(t.firebaseKey),
  ],
);

export const customers = pgTable(
  'customers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    email: text('email'),
    phoneNumber: text('phone_number'),
    /** Set by the import: the Firebase key (the uid) by which a second import finds the row. */
    firebaseKey: text('firebase_key'),
    /** When the record was removed from the apps' Firebase database (kept here: it is history). */
    firebaseRemovedAt: timestamp('firebase_removed_at', { withTimezone: true }),
    createdAt: createdAt(),
    /** Name, email and phone, lowered: what the customer search matches. */
    searchText: text('search_text')
      .notNull()
      .generatedAlwaysAs(searchText('name', 'email', 'phone_number')),
  },
  (t) => [
    index('customers_created_idx').on(t.createdAt, t.id),
    uniqueIndex('customers_firebase_key_idx').on(t.firebaseKey),
    index('customers_name_idx').on(t.name, t.id),
    index('customers_search_idx').using('gin', sql`${t.searchText} gin_trgm_ops`),
  ],
);

export const customerRatings = pgTable(
  'customer_ratings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    customerName: text('customer_name'),
    description: text('description'),
    rating: smallint('rating'),
    /** Set by the import: the Firebase key ('{owner uid}/{push id}') by which a second import finds the row. */
    firebaseKey: text('firebase_key'),
    createdAt: createdAt(),
  },
  (t) => [
    index('customer_ratings_customer_idx').on(t.customerId),
    uniqueIndex('customer_ratings_firebase_key_idx').on(t.firebaseKey),
  ],
);

export const trips = pgTable(
  'trips',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The customer's name, as the customer app titles a trip. */
    title: text('title').notNull(),
    body: text('body'),
    phoneNumber: text('phone_number'),
    customerId: uuid('customer_id').references(() => customers.id),
    driverId: uuid('driver_id').references(() => drivers.id),
    carType: text('car_type'),
    pickupLocation: text('pickup_location'),
    pickupLat: doublePrecision('pickup_lat'),
    pickupLong: doublePrecision('pickup_long'),
    destinationLocation: text('destination_location'),
    destinationLat: doublePrecision('destination_lat'),
    destinationLong: doublePrecision('destination_long'),
    distanceKm: doublePrecision('distance_km'),
    price: doublePrecision('price'),
    status: tripStatusEnum('status').notNull().default('requested'),
    paid: boolean('paid').notNull().default(false),
    cancelReason: text('cancel_reason'),
    /**
     * When the trip reached each step, stamped by the database as its status changes (migration
     * 0033); unknown (null) for steps taken before the console saw the trip.
     */
    assignedAt: timestamp('assigned_at', { withTimezone: true }),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    /** Set by the import: the Firebase key (the push id) by which a second import finds the row. */
    firebaseKey: text('firebase_key'),
    /** When the record was removed from the apps' Firebase database (kept here: it is history). */
    firebaseRemovedAt: timestamp('firebase_removed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    // Migration 0040 adds INCLUDE (title), which Drizzle cannot spell: a name search walks the
    // newest trips in this index alone, testing each title without reading the trip.
    index('trips_created_idx').on(t.createdAt.desc(), t.id.desc()),
    // A title's newest trips, read from the index alone (trip_titles, decision 040).
    index('trips_title_created_idx').on(t.title, t.createdAt.desc(), t.id.desc()),
    uniqueIndex('trips_firebase_key_idx').on(t.firebaseKey),
    index('trips_driver_created_idx').on(t.driverId, t.createdAt.desc(), t.id.desc()),
    index('trips_status_created_idx').on(t.status, t.createdAt.desc(), t.id.desc()),
    // The list sorted by price, unknown prices as the lowest (as the list spells it).
    index('trips_price_idx').on(sql`coalesce(${t.price}, -1)`, t.id),
    // Case-insensitive substring search on the title (pg_trgm).
    index('trips_title_search_idx').using('gin', sql`lower(${t.title}) gin_trgm_ops`),
    // The search's other branches (decision 031): every word in the pick-up and destination, the
    // customer's phone in any form (phone_key(), migration 0032), and the id's last 6 characters.
    index('trips_places_search_idx').using(
      'gin',
      sql`lower(coalesce(${t.pickupLocation}, '') || ' ' || coalesce(${t.destinationLocation}, '')) gin_trgm_ops`,
    ),
    // Whole, not partial: PostgreSQL estimates from the statistics of an index's expression only
    // when the index is whole, and without them took a phone search for 0.5% of the trips (and
    // walked a million of them, 2.8 s, instead of the ten the index finds).
    index('trips_phone_key_idx').on(sql`phone_key(${t.phoneNumber})`),
    index('trips_short_id_idx').on(sql`right(${t.id}::text, 6)`),
  ],
);

/** Feedback and star rating given on a trip from the console, with author and time. */
export const tripFeedback = pgTable(
  'trip_feedback',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tripId: uuid('trip_id')
      .notNull()
      .references(() => trips.id, { onDelete: 'cascade' }),
    authorId: uuid('author_id')
      .notNull()
      .references(() => accounts.id),
    feedback: text('feedback').notNull(),
    rating: smallint('rating').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('trip_feedback_trip_idx').on(t.tripId, t.createdAt)],
);

/** Rates of one car type in one state; version guards against lost concurrent edits. */
export const carRates = pgTable(
  'car_rates',
  {
    state: text('state').notNull(),
    carType: text('car_type').notNull(),
    perKm: doublePrecision('per_km'),
    basePrice: doublePrecision('base_price'),
    nightCharge: doublePrecision('night_charge'),
    waitingCharge: doublePrecision('waiting_charge'),
    rushHour: doublePrecision('rush_hour'),
    surCharges: doublePrecision('sur_charges'),
    extra: doublePrecision('extra'),
    version: integer('version').notNull().default(1),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    updatedBy: uuid('updated_by').references(() => accounts.id),
  },
  (t) => [primaryKey({ columns: [t.state, t.carType] })],
);

/** Every change made through the console: who, what, when, before and after. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    actorId: uuid('actor_id').references(() => accounts.id),
    action: text('action').notNull(),
    resource: text('resource').notNull(),
    resourceId: text('resource_id'),
    before: jsonb('before'),
    after: jsonb('after'),
    requestId: text('request_id'),
    /** Where a change without a person came from: 'firebase' for the apps' database. */
    source: text('source'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  // The audit trail reads newest first, whole or narrowed to a person or a record: one index each.
  (t) => [
    index('audit_log_at_idx').on(t.at.desc(), t.id.desc()),
    index('audit_log_actor_at_idx').on(t.actorId, t.at.desc(), t.id.desc()),
    index('audit_log_resource_at_idx').on(t.resource, t.resourceId, t.at.desc(), t.id.desc()),
  ],
);

/**
 * Every change of a rate set, kept for good: the admins' history of who changed which rates when,
 * with the values before (none when a car type was added) and after.
 */
export const carRateHistory = pgTable(
  'car_rate_history',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    state: text('state').notNull(),
    carType: text('car_type').notNull(),
    /** create, update or copy. */
    action: text('action').notNull(),
    /** The version the change produced. */
    version: integer('version').notNull(),
    before: jsonb('before'),
    after: jsonb('after').notNull(),
    copiedFrom: text('copied_from'),
    changedBy: uuid('changed_by').references(() => accounts.id),
    changedAt: timestamp('changed_at', { withTimezone: true }).notNull().defaultNow(),
    requestId: text('request_id'),
    /** 'firebase' for a change the link read from the apps' database. */
    source: text('source'),
  },
  (t) => [index('car_rate_history_state_idx').on(t.state, t.id.desc())],
);

/**
 * A driver's checks beside the documents (police verification, fitness, trainings, insurance): the
 * last one of each kind as done, its history in the audit trail.
 */
export const driverChecks = pgTable(
  'driver_checks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    driverId: uuid('driver_id')
      .notNull()
      .references(() => drivers.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    doneOn: date('done_on', { mode: 'string' }).notNull(),
    reference: text('reference').notNull(),
    result: text('result'),
    hours: doublePrecision('hours'),
    /** Rupees of cover, for insurance. */
    amount: doublePrecision('amount'),
    expiresOn: date('expires_on', { mode: 'string' }),
    updatedBy: uuid('updated_by').references(() => accounts.id),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('driver_checks_driver_kind_idx').on(t.driverId, t.kind)],
);

/**
 * Vehicles as records of their own (decision 029): one per registration number, stored normalised
 * (capitals and digits). What the driver app's car_details carries (make, model, year, colour, car
 * type) follows the drivers' rows through triggers (migration 0030), which also create a vehicle
 * for a number first seen and assign it to the driver who reported it; staff own the rest.
 */
export const vehicles = pgTable(
  'vehicles',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    registrationNumber: text('registration_number').notNull(),
    make: text('make'),
    model: text('model'),
    year: integer('year'),
    colour: text('colour'),
    interiorColour: text('interior_colour'),
    carType: text('car_type'),
    firstRegisteredOn: date('first_registered_on', { mode: 'string' }),
    fuel: text('fuel'),
    seats: integer('seats'),
    owner: text('owner'),
    state: text('state'),
    /** The franchise the vehicle works for: its driver's, or the one staff gave it. */
    franchiseId: uuid('franchise_id').references(() => accounts.id),
    /** The driver who drives it now (at most one vehicle each). */
    driverId: uuid('driver_id').references(() => drivers.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** Registration number, make and model, lowered: what the vehicle search matches. */
    searchText: text('search_text')
      .notNull()
      .generatedAlwaysAs(searchText('registration_number', 'make', 'model')),
  },
  (t) => [
    index('vehicles_registration_idx').on(t.registrationNumber, t.id),
    uniqueIndex('vehicles_registration_unique').on(t.registrationNumber),
    uniqueIndex('vehicles_driver_idx')
      .on(t.driverId)
      .where(sql`${t.driverId} is not null`),
    index('vehicles_franchise_registration_idx').on(t.franchiseId, t.registrationNumber, t.id),
    index('vehicles_created_idx').on(t.createdAt, t.id),
    index('vehicles_search_idx').using('gin', sql`${t.searchText} gin_trgm_ops`),
  ],
);

/** Who drove a vehicle when: one row per assignment, open (no `until`) while it lasts. */
export const vehicleAssignments = pgTable(
  'vehicle_assignments',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    vehicleId: uuid('vehicle_id')
      .notNull()
      .references(() => vehicles.id, { onDelete: 'cascade' }),
    driverId: uuid('driver_id')
      .notNull()
      .references(() => drivers.id, { onDelete: 'cascade' }),
    since: timestamp('since', { withTimezone: true }).notNull().defaultNow(),
    until: timestamp('until', { withTimezone: true }),
    /** `app` (the driver reported the number) or `staff`. */
    source: text('source').notNull(),
    by: uuid('by').references(() => accounts.id),
  },
  (t) => [
    index('vehicle_assignments_vehicle_idx').on(t.vehicleId, t.since.desc(), t.id.desc()),
    index('vehicle_assignments_open_driver_idx')
      .on(t.driverId)
      .where(sql`${t.until} is null`),
  ],
);

/**
 * Settings a state notifies for itself, each from the day it takes effect: one row per saved value,
 * never changed (the history is the rows). The value in effect on a day is that of the latest
 * `effective_from` on or before it, and of that day the highest version. Fare rules are named
 * `fare-rules/{car type}`; other per-state rules (grievance holidays) use the same store.
 */
export const stateSettings = pgTable(
  'state_settings',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    state: text('state').notNull(),
    name: text('name').notNull(),
    value: jsonb('value').notNull(),
    effectiveFrom: date('effective_from', { mode: 'string' }).notNull(),
    /** Counts the saves of this name in this state, from 1. */
    version: integer('version').notNull(),
    changedBy: uuid('changed_by').references(() => accounts.id),
    changedAt: timestamp('changed_at', { withTimezone: true }).notNull().defaultNow(),
    requestId: text('request_id'),
  },
  (t) => [
    uniqueIndex('state_settings_version_idx').on(t.state, t.name, t.version),
    index('state_settings_effective_idx').on(t.state, t.name, t.effectiveFrom.desc(), t.version.desc()),
  ],
);

/**
 * Password reset links: only a SHA-256 hash of the token is stored, so a copy of the database
 * cannot be used to reset anyone's password. A token works once, until it expires.
 */
export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    requestedIp: text('requested_ip'),
  },
  (t) => [
    uniqueIndex('password_reset_tokens_hash_idx').on(t.tokenHash),
    index('password_reset_tokens_account_idx').on(t.accountId),
  ],
);

/**
 * Download tickets: a browser hands an export to its own download manager, which cannot send the
 * bearer token, so it asks for a ticket first (docs/decisions/013-streamed-exports.md). A ticket is
 * bound to a session (it dies with it), one path and one query; it works once, within a minute.
 * Only a SHA-256 hash of it is stored.
 */
export const downloadTickets = pgTable(
  'download_tickets',
  {
    tokenHash: text('token_hash').primaryKey(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    path: text('path').notNull(),
    query: text('query').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('download_tickets_expires_idx').on(t.expiresAt)],
);

/**
 * The dashboard's figures of each day in India, kept up to date by triggers on trips and drivers
 * (migration 0010), so that a period's figures read a few hundred rows a day instead of every
 * trip. Trips are counted by their driver's franchise and state as they are now (the scope the
 * trip list applies), car type, status and, for cancelled trips, the reason, with their fares and
 * distances. Totals are exact decimals: the triggers add and take away, and never drift.
 */
/**
 * Every title (the customer's name) a trip has had, as written, kept by triggers on trips
 * (migration 0040, decision 040). A name search finds its words among these few titles first,
 * then each matching title's newest trips through trips_title_created_idx, instead of walking the
 * trigram index of every trip. A title whose trips are gone stays: it only matches nothing.
 */
export const tripTitles = pgTable(
  'trip_titles',
  {
    title: text('title').primaryKey(),
    /** The title as a search compares it: lowered. */
    search: text('search')
      .notNull()
      .generatedAlwaysAs(sql`lower(title)`),
  },
  (t) => [index('trip_titles_search_idx').using('gin', sql`${t.search} gin_trgm_ops`)],
);

export const tripDailyStats = pgTable(
  'trip_daily_stats',
  {
    day: date('day').notNull(),
    franchiseId: uuid('franchise_id'),
    state: text('state'),
    carType: text('car_type'),
    status: tripStatusEnum('status').notNull(),
    /** Cancelled trips only: the reason's first 200 characters ('' when none was given). */
    cancelReason: text('cancel_reason').notNull().default(''),
    trips: integer('trips').notNull(),
    fareTotal: numeric('fare_total').notNull(),
    /** Trips with a fare (the average fare is over these). */
    fareTrips: integer('fare_trips').notNull(),
    distanceTotal: numeric('distance_total').notNull(),
    distanceTrips: integer('distance_trips').notNull(),
  },
  (t) => [
    unique('trip_daily_stats_key')
      .on(t.day, t.franchiseId, t.state, t.carType, t.status, t.cancelReason)
      .nullsNotDistinct(),
  ],
);

/** Trips per day and hour of the day in India and driver's franchise, kept like tripDailyStats. */
export const tripHourlyStats = pgTable(
  'trip_hourly_stats',
  {
    day: date('day').notNull(),
    hour: smallint('hour').notNull(),
    franchiseId: uuid('franchise_id'),
    trips: integer('trips').notNull(),
  },
  (t) => [unique('trip_hourly_stats_key').on(t.day, t.hour, t.franchiseId).nullsNotDistinct()],
);

/**
 * How many drivers each franchise has, active and deleted, kept by triggers on drivers (migration
 * 0015), so that a driver list that is neither searched nor filtered counts its rows exactly by
 * adding a few numbers instead of reading up to 10,000 drivers. Drivers without a franchise are
 * counted under a null franchise (admins see them).
 */
export const driverCounts = pgTable(
  'driver_counts',
  {
    franchiseId: uuid('franchise_id'),
    deleted: boolean('deleted').notNull(),
    drivers: integer('drivers').notNull(),
  },
  (t) => [unique('driver_counts_key').on(t.franchiseId, t.deleted).nullsNotDistinct()],
);

/**
 * What the compliance views hold, counted per franchise (active and deleted drivers apart) and
 * kept by triggers on driver_documents, driver_checks and drivers (migration 0041), so that the
 * summary the header and the dashboard ask for adds a few hundred numbers instead of reading
 * every document awaiting review and every check in force (2.2 s at 100,000 drivers).
 * `review` rows (no date) count the documents awaiting review; `expiry` rows count, per expiry
 * date, the approved documents and the checks in force that lapse on it.
 */
export const complianceCounts = pgTable(
  'compliance_counts',
  {
    franchiseId: uuid('franchise_id'),
    deleted: boolean('deleted').notNull(),
    kind: text('kind', { enum: ['review', 'expiry'] }).notNull(),
    expiresOn: date('expires_on', { mode: 'string' }),
    items: integer('items').notNull(),
  },
  (t) => [
    unique('compliance_counts_key').on(t.franchiseId, t.deleted, t.kind, t.expiresOn).nullsNotDistinct(),
  ],
);

/**
 * Each driver's mandatory documents as the driver lists read them ([key, status, expires_on] of
 * each), kept by triggers on driver_documents (migration 0021), so that a page of 50 drivers reads
 * one row per driver instead of aggregating each driver's documents (0.75 of a drivers page's
 * 1.05 ms in PostgreSQL). A driver without any mandatory document has no row. The keys are those
 * of `driver_mandatory_document_keys()`, which a test holds to MANDATORY_DOCUMENTS.
 */
export const driverMandatoryDocuments = pgTable('driver_mandatory_documents', {
  driverId: uuid('driver_id')
    .primaryKey()
    .references(() => drivers.id, { onDelete: 'cascade' }),
  documents: json('documents').notNull(),
});

/**
 * How many rows a whole list holds, kept by triggers (migration 0016), for the lists that count
 * one table without a scope: 'customers'. An unsearched list reads its count here instead of
 * reading up to 10,001 rows.
 */
export const listCounts = pgTable('list_counts', {
  list: text('list').primaryKey(),
  rows: integer('rows').notNull(),
});

/**
 * The password hash parameters of a Firebase project whose accounts were imported. The signer key
 * and salt separator are secrets (with them, a copy of the hashes can be attacked offline): they are
 * kept sealed with AES-256-GCM under a key derived from JWT_SECRET (docs/decisions/014-firebase-import.md).
 */
export const firebaseHashParams = pgTable('firebase_hash_params', {
  id: uuid('id').primaryKey().defaultRandom(),
  /** SHA-256 of the parameters: a second import with the same ones finds this row again. */
  fingerprint: text('fingerprint').notNull().unique(),
  /** base64 of iv, tag and ciphertext of {signerKey, saltSeparator}. */
  sealed: text('sealed').notNull(),
  rounds: integer('rounds').notNull(),
  memCost: integer('mem_cost').notNull(),
  createdAt: createdAt(),
});

/** A driver's booking history as the driver app kept it (driver/{uid}/history), imported. */
export const driverBookingHistory = pgTable(
  'driver_booking_history',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    driverId: uuid('driver_id')
      .notNull()
      .references(() => drivers.id, { onDelete: 'cascade' }),
    /** '{driver uid}/{push id}'. */
    firebaseKey: text('firebase_key').notNull().unique(),
    customerName: text('customer_name'),
    pickupLocation: text('pickup_location'),
    destinationLocation: text('destination_location'),
    distanceKm: doublePrecision('distance_km'),
    price: doublePrecision('price'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('driver_booking_history_driver_idx').on(t.driverId, t.createdAt.desc(), t.id.desc())],
);

/** The entries of a driver's wallet (driver/{uid}/transaction), imported; read-only in the console. */
export const driverWalletEntries = pgTable(
  'driver_wallet_entries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    driverId: uuid('driver_id')
      .notNull()
      .references(() => drivers.id, { onDelete: 'cascade' }),
    /** '{driver uid}/{push id}'. */
    firebaseKey: text('firebase_key').notNull().unique(),
    /** Recharge, Ride Accepted, Money Sent, Money Received, 5 Star Reward or Referral Bonus. */
    kind: text('kind').notNull(),
    /** Rupees, always positive; credit says which way it went. */
    amount: doublePrecision('amount').notNull(),
    credit: boolean('credit').notNull(),
    balanceAfter: doublePrecision('balance_after'),
    orderId: text('order_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('driver_wallet_entries_driver_idx').on(t.driverId, t.createdAt.desc(), t.id.desc())],
);

/** The chat between a trip's customer and driver (trips/{id}/messages), imported. */
export const tripMessages = pgTable(
  'trip_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tripId: uuid('trip_id')
      .notNull()
      .references(() => trips.id, { onDelete: 'cascade' }),
    /** '{trip push id}/{message push id}': push ids sort in the order they were written. */
    firebaseKey: text('firebase_key').notNull().unique(),
    sender: text('sender').notNull(),
    message: text('message').notNull(),
  },
  (t) => [index('trip_messages_trip_idx').on(t.tripId, t.firebaseKey)],
);

/**
 * Who follows the company's Firebase database: one instance at a time holds the lease and renews
 * it; when it stops renewing (it died), another takes it once it has expired.
 */
export const firebaseLinkLease = pgTable('firebase_link_lease', {
  name: text('name').primaryKey(),
  holder: text('holder').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  /** What the holder is doing, written at each renewal: every instance answers the admin screen. */
  status: jsonb('status'),
  /** Kinds of record an admin asked to read again from Firebase; the holder takes them. */
  rereads: text('rereads')
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
});

/**
 * Writes waiting for Firebase (rates, city dealers and franchises changed in the console), queued in
 * the transaction of the change so a crash between the two loses nothing. A write is kept a day
 * once sent: when it comes back on the stream, the link recognises it as its own (echoedAt).
 */
export const firebaseOutbox = pgTable(
  'firebase_outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** The node written, relative to the database's root: `state/goa/sedan`, `franchise/{uid}`. */
    path: text('path').notNull(),
    /** The node's whole new value; null removes it. */
    value: jsonb('value'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    echoedAt: timestamp('echoed_at', { withTimezone: true }),
  },
  (t) => [
    index('firebase_outbox_path_idx').on(t.path, t.id),
    index('firebase_outbox_waiting_idx')
      .on(t.id)
      .where(sql`${t.sentAt} is null`),
  ],
);

/**
 * Indexes and foreign keys dropped for a first sync of an empty table (db/deferred-indexes.ts), as
 * the catalog defined them, until they are built again: a server that dies in between finds them
 * here when it starts, and builds them.
 */
export const deferredIndexes = pgTable(
  'deferred_indexes',
  {
    name: text('name').primaryKey(),
    tableName: text('table_name').notNull(),
    kind: text('kind').notNull(),
    /** `CREATE INDEX ...` (pg_indexes.indexdef) or `FOREIGN KEY ...` (pg_get_constraintdef). */
    definition: text('definition').notNull(),
    /** Statistics targets set on an index's expressions: [{column, target}]. */
    targets: jsonb('targets').notNull().default([]),
    deferredAt: timestamp('deferred_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('deferred_indexes_kind_check', sql`${t.kind} in ('index', 'foreign key')`)],
);

/**
 * Grievances (the aggregator guidelines): a complaint logged by staff from a call or a mail, about
 * a trip, a driver or a customer, resolved within 3 working days. Kinds, steps and the deadline's
 * arithmetic are in packages/shared/src/grievance-rules.ts; the checks below hold the same lists.
 */
export const grievances = pgTable(
  'grievances',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** What the complainant quotes: `GR-2026-000042`. */
    number: text('number').notNull(),
    status: text('status').notNull().default('open'),
    category: text('category').notNull(),
    priority: text('priority').notNull().default('normal'),
    complainantKind: text('complainant_kind').notNull(),
    complainantName: text('complainant_name').notNull(),
    complainantPhone: text('complainant_phone'),
    complainantEmail: text('complainant_email'),
    complainantLanguage: text('complainant_language').notNull().default('en'),
    tripId: uuid('trip_id').references(() => trips.id),
    /** The driver it is about: the trip's driver when a trip is named. Its franchise gives the scope. */
    driverId: uuid('driver_id').references(() => drivers.id),
    customerId: uuid('customer_id').references(() => customers.id),
    /** The driver's state when logged: whose holidays count towards the deadline. */
    state: text('state'),
    description: text('description').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
    /** When its clock started: its receipt, or its latest reopening (a new deadline from then). */
    clockFrom: timestamp('clock_from', { withTimezone: true }).notNull(),
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
    resolution: text('resolution'),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    /** The number, complainant and description, lowercased: what the desk's search reads. */
    searchText: text('search_text').notNull(),
    loggedBy: uuid('logged_by').references(() => accounts.id),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('grievances_number_idx').on(t.number),
    index('grievances_due_idx').on(t.dueAt, t.id),
    index('grievances_received_idx').on(t.receivedAt, t.id),
    index('grievances_driver_idx').on(t.driverId),
    index('grievances_trip_idx').on(t.tripId),
    check(
      'grievances_status_check',
      sql`${t.status} in ('open', 'in_progress', 'waiting', 'resolved', 'closed', 'reopened')`,
    ),
    check(
      'grievances_category_check',
      sql`${t.category} in ('fare', 'behaviour', 'safety', 'vehicle', 'lost_item', 'payment', 'app', 'other')`,
    ),
    check('grievances_priority_check', sql`${t.priority} in ('low', 'normal', 'high', 'urgent')`),
    check('grievances_complainant_check', sql`${t.complainantKind} in ('customer', 'driver', 'other')`),
  ],
);

/** Numbers grievances in the order they are logged. */
export const grievanceNumbers = pgSequence('grievance_number_seq');

/** Every step of a grievance (logged, moved, changed) and the team's comments: who and when. */
export const grievanceEvents = pgTable(
  'grievance_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    grievanceId: uuid('grievance_id')
      .notNull()
      .references(() => grievances.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    /** The state it moved to (kind `status`). */
    status: text('status'),
    text: text('text'),
    by: uuid('by').references(() => accounts.id),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('grievance_events_grievance_idx').on(t.grievanceId, t.id)],
);

/** Days that are not working days for grievances' deadlines: national (no state) or a state's own. */
export const holidays = pgTable(
  'holidays',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    day: date('day', { mode: 'string' }).notNull(),
    state: text('state'),
    name: text('name').notNull(),
    createdBy: uuid('created_by').references(() => accounts.id),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('holidays_day_state_idx').on(t.day, sql`coalesce(${t.state}, '')`)],
);

/** Settings of the whole console that staff change (the grievance officer), by name. */
export const consoleSettings = pgTable('console_settings', {
  name: text('name').primaryKey(),
  value: jsonb('value').notNull(),
  changedBy: uuid('changed_by').references(() => accounts.id),
  changedAt: timestamp('changed_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The grievance officer's alerts already sent: one per grievance, kind (due within a day, overdue)
 * and deadline, so that no run on any instance sends one twice, and a reopened grievance (a new
 * deadline) is alerted again.
 */
export const grievanceAlerts = pgTable(
  'grievance_alerts',
  {
    grievanceId: uuid('grievance_id')
      .notNull()
      .references(() => grievances.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.grievanceId, t.kind, t.dueAt] })],
);

/** Images and PDFs a complainant sent (a receipt, a photo), checked as document images are. */
export const grievanceAttachments = pgTable(
  'grievance_attachments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    grievanceId: uuid('grievance_id')
      .notNull()
      .references(() => grievances.id, { onDelete: 'cascade' }),
    objectKey: text('object_key').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    fileName: text('file_name').notNull(),
    uploadedBy: uuid('uploaded_by').references(() => accounts.id),
    uploadedAt: timestamp('uploaded_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('grievance_attachments_grievance_idx').on(t.grievanceId, t.uploadedAt)],
);

/**
 * SOS alerts: from a driver's phone (with its position) or logged by staff from a call, in the
 * scope of their driver. Each step is stamped here and kept in sos_events with who took it.
 */
export const sosAlerts = pgTable(
  'sos_alerts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    number: text('number').notNull(),
    status: text('status').notNull().default('open'),
    source: text('source').notNull(),
    person: text('person').notNull(),
    driverId: uuid('driver_id').references(() => drivers.id),
    tripId: uuid('trip_id').references(() => trips.id),
    lat: doublePrecision('lat'),
    long: doublePrecision('long'),
    positionAt: timestamp('position_at', { withTimezone: true }),
    note: text('note'),
    raisedAt: timestamp('raised_at', { withTimezone: true }).notNull().defaultNow(),
    raisedBy: uuid('raised_by').references(() => accounts.id),
    acknowledgedAt: timestamp('acknowledged_at', { withTimezone: true }),
    acknowledgedBy: uuid('acknowledged_by').references(() => accounts.id),
    reraisedAt: timestamp('reraised_at', { withTimezone: true }),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    resolvedBy: uuid('resolved_by').references(() => accounts.id),
    outcome: text('outcome'),
    outcomeNote: text('outcome_note'),
  },
  (t) => [
    uniqueIndex('sos_alerts_number_idx').on(t.number),
    index('sos_alerts_raised_idx').on(t.raisedAt, t.id),
    index('sos_alerts_open_idx')
      .on(t.raisedAt)
      .where(sql`${t.status} <> 'resolved'`),
    index('sos_alerts_driver_idx').on(t.driverId),
    check('sos_alerts_status_check', sql`${t.status} in ('open', 'acknowledged', 'escalated', 'resolved')`),
    check('sos_alerts_source_check', sql`${t.source} in ('driver_app', 'staff')`),
    check('sos_alerts_person_check', sql`${t.person} in ('driver', 'passenger')`),
  ],
);

/** Numbers SOS alerts in the order they are raised. */
export const sosNumbers = pgSequence('sos_number_seq');

/** Every step of an SOS alert (raised, acknowledged, escalated, raised again, resolved): who and when. */
export const sosEvents = pgTable(
  'sos_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    alertId: uuid('alert_id')
      .notNull()
      .references(() => sosAlerts.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    /** Whom it was escalated to, or how it ended. */
    detail: text('detail'),
    note: text('note'),
    by: uuid('by').references(() => accounts.id),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('sos_events_alert_idx').on(t.alertId, t.id)],
);

/**
 * Each staff member's inbox (decision 035): an SOS alert, a grievance due within a day or overdue,
 * a driver's document expiring, for the accounts whose scope holds it. `dedupeKey` names the event
 * (a grievance's deadline, a document's expiry and threshold), so that a job running again or on
 * two instances records it once; a new deadline is a new event.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    dedupeKey: text('dedupe_key').notNull(),
    /** Where it leads: 'sos', 'grievances' or 'drivers', and the record's id. */
    recordType: text('record_type').notNull(),
    recordId: uuid('record_id').notNull(),
    /** What the text needs (a number, a name, a date), in no language. */
    detail: jsonb('detail').notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    readAt: timestamp('read_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('notifications_dedupe_idx').on(t.accountId, t.dedupeKey),
    index('notifications_inbox_idx').on(t.accountId, t.createdAt, t.id),
    index('notifications_unread_idx')
      .on(t.accountId)
      .where(sql`${t.readAt} is null`),
  ],
);
