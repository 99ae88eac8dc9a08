import { sql, type AnyColumn } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
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
    createdAt: createdAt(),
    createdBy: uuid('created_by').references((): any => accounts.id),
    /** Soft delete: a deleted account is also disabled, hidden from lists, and keeps its email. */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    deletedBy: uuid('deleted_by').references((): any => accounts.id),
  },
  (t) => [
    uniqueIndex('accounts_email_lower_idx').on(sql`lower(${t.email})`),
    index('accounts_role_created_idx').on(t.role, t.createdAt),
    index('accounts_dealer_idx').on(t.dealerId),
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
 * Addresses an account has signed in from with its password: the right password from one of them
 * is never refused because of other people's failures there (a shared office address).
 */
export const knownSignInAddresses = pgTable(
  'known_sign_in_addresses',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    address: text('address').notNull(),
    lastSuccessAt: timestamp('last_success_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.address] })],
);

/** Failed sign-in counters per email and per client address, for throttling. */
export const signInAttempts = pgTable('sign_in_attempts', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull().default(0),
  windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull(),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
});

/** The text the driver search matches: the same expression as its trigram index. */
export function driverSearchText(t: {
  name: AnyColumn;
  email: AnyColumn;
  phoneNumber: AnyColumn;
  vehicleNumber: AnyColumn;
}) {
  return sql`lower(${t.name} || ' ' || coalesce(${t.email}, '') || ' ' || coalesce(${t.phoneNumber}, '') || ' ' || coalesce(${t.vehicleNumber}, ''))`;
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
    createdAt: createdAt(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    deletedBy: uuid('deleted_by').references(() => accounts.id),
  },
  (t) => [
    index('drivers_franchise_name_idx').on(t.franchiseId, t.name, t.id),
    index('drivers_name_idx').on(t.name, t.id),
    index('drivers_created_idx').on(t.createdAt, t.id),
    // Substring search over name, email, phone and vehicle number (pg_trgm).
    index('drivers_search_idx').using('gin', sql`${driverSearchText(t)} gin_trgm_ops`),
  ],
);

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

export const driverDocuments = pgTable(
  'driver_documents',
  {
    driverId: uuid('driver_id')
      .notNull()
      .references(() => drivers.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    status: documentStatusEnum('status').notNull().default('not_submitted'),
    objectKey: text('object_key'),
    contentType: text('content_type'),
    size: integer('size'),
    uploadedAt: timestamp('uploaded_at', { withTimezone: true }),
    reviewedBy: uuid('reviewed_by').references(() => accounts.id),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    rejectionReason: text('rejection_reason'),
  },
  (t) => [primaryKey({ columns: [t.driverId, t.key] })],
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
    createdAt: createdAt(),
  },
  (t) => [index('driver_ratings_driver_idx').on(t.driverId, t.createdAt)],
);

export const customers = pgTable(
  'customers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    email: text('email'),
    phoneNumber: text('phone_number'),
    createdAt: createdAt(),
  },
  (t) => [
    index('customers_created_idx').on(t.createdAt, t.id),
    index('customers_name_idx').on(t.name, t.id),
    index('customers_search_idx').using(
      'gin',
      sql`lower(${t.name} || ' ' || coalesce(${t.email}, '') || ' ' || coalesce(${t.phoneNumber}, '')) gin_trgm_ops`,
    ),
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
    createdAt: createdAt(),
  },
  (t) => [index('customer_ratings_customer_idx').on(t.customerId)],
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
    createdAt: createdAt(),
  },
  (t) => [
    index('trips_created_idx').on(t.createdAt.desc(), t.id.desc()),
    index('trips_driver_created_idx').on(t.driverId, t.createdAt.desc(), t.id.desc()),
    index('trips_status_created_idx').on(t.status, t.createdAt.desc(), t.id.desc()),
    // Case-insensitive substring search on the title (pg_trgm).
    index('trips_title_search_idx').using('gin', sql`lower(${t.title}) gin_trgm_ops`),
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
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('audit_log_resource_idx').on(t.resource, t.resourceId)],
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
  },
  (t) => [index('car_rate_history_state_idx').on(t.state, t.id.desc())],
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
