import { CAR_TYPES, RATE_FIELDS, STATES, STORED_DOCUMENT_KEYS } from '@bmet/shared/constants';
import {
  amountOf,
  booleanOf,
  entriesOf,
  isRecord,
  numberOf,
  phoneOf,
  pushIdTime,
  textOf,
  timeOf,
} from './firebase-values';
import type { ImportKind } from './report';
import type { ImportColumn, UpsertSpec } from './upsert';

/** What reading one record found wrong: skipped (not imported) or repaired (imported all the same). */
export type Finding = {
  key: string;
  action: 'skipped' | 'repaired' | 'listed';
  reason: string;
  /** When it concerns a part of the record (a wallet entry, a document), that part's kind. */
  kind?: ImportKind;
};
type Row = Record<string, unknown>;

const carTypeOf = (value: unknown) => {
  const text = textOf(value)?.toLowerCase() ?? null;
  return text && (CAR_TYPES as readonly string[]).includes(text) ? text : null;
};

/** A child's time: its own date, else the time in its push id, else none. */
const timeOrPushTime = (value: unknown, key: string) =>
  (timeOf(value) ?? pushIdTime(key))?.toISOString() ?? null;

const columns = (...names: string[]): ImportColumn[] =>
  names.map((name) => {
    const [column, type = 'text'] = name.split(':');
    return [column!, type] as const;
  });

export const DRIVER_SPEC: UpsertSpec = {
  table: 'drivers',
  columns: columns(
    'firebase_key',
    'name',
    'email',
    'phone_number',
    'country',
    'lat:double precision',
    'long:double precision',
    'car_model',
    'vehicle_number',
    'car_type',
    'car_brand',
    'car_year',
    'car_color',
    'car_interior_color',
    'wallet_balance:double precision',
  ),
};

const childOf = (
  table: string,
  parentTable: string,
  parentColumn: string,
  ...names: string[]
): UpsertSpec => ({
  table,
  columns: columns('firebase_key', ...names),
  parents: [{ column: parentColumn, table: parentTable, key: 'parent_key', required: true }],
});

export const DRIVER_RATING_SPEC = childOf(
  'driver_ratings',
  'drivers',
  'driver_id',
  'customer_name',
  'description',
  'rating:smallint',
  'created_at:timestamptz',
);
export const CUSTOMER_RATING_SPEC = childOf(
  'customer_ratings',
  'customers',
  'customer_id',
  'customer_name',
  'description',
  'rating:smallint',
  'created_at:timestamptz',
);
export const HISTORY_SPEC = childOf(
  'driver_booking_history',
  'drivers',
  'driver_id',
  'customer_name',
  'pickup_location',
  'destination_location',
  'distance_km:double precision',
  'price:double precision',
  'created_at:timestamptz',
);
export const WALLET_SPEC = childOf(
  'driver_wallet_entries',
  'drivers',
  'driver_id',
  'kind',
  'amount:double precision',
  'credit:boolean',
  'balance_after:double precision',
  'order_id',
  'created_at:timestamptz',
);
export const CUSTOMER_SPEC: UpsertSpec = {
  table: 'customers',
  columns: columns('firebase_key', 'name', 'email', 'phone_number'),
};
export const TRIP_SPEC: UpsertSpec = {
  table: 'trips',
  columns: columns(
    'firebase_key',
    'title',
    'body',
    'phone_number',
    'car_type',
    'pickup_location',
    'pickup_lat:double precision',
    'pickup_long:double precision',
    'destination_location',
    'destination_lat:double precision',
    'destination_long:double precision',
    'distance_km:double precision',
    'price:double precision',
    'status:trip_status',
    'paid:boolean',
    'cancel_reason',
    'created_at:timestamptz',
  ),
  parents: [
    { column: 'driver_id', table: 'drivers', key: 'driver_key', required: false },
    { column: 'customer_id', table: 'customers', key: 'customer_key', required: false },
  ],
};
export const MESSAGE_SPEC = childOf('trip_messages', 'trips', 'trip_id', 'sender', 'message');

/** A rating of 1 to 5 (as a number or text), else null: the console shows 'Not rated'. */
function ratingOf(value: unknown): number | null {
  const rating = numberOf(value);
  return rating !== null && Number.isInteger(rating) && rating >= 1 && rating <= 5 ? rating : null;
}

function ratingRows(ownerKey: string, value: unknown): Row[] {
  return entriesOf(value)
    .filter(([, entry]) => isRecord(entry))
    .map(([key, entry]) => {
      const rating = entry as Row;
      return {
        firebase_key: `${ownerKey}/${key}`,
        parent_key: ownerKey,
        customer_name: textOf(rating.customerName),
        description: textOf(rating.description),
        rating: ratingOf(rating.rating),
        created_at: timeOrPushTime(rating.date, key) ?? new Date(0).toISOString(),
      };
    });
}

/** A name, else the phone number, else the key: a person is never imported nameless. */
function nameOf(record: Row, key: string, findings: Finding[], field = 'name'): string {
  const name = textOf(record[field]);
  if (name) return name;
  const fallback = textOf(record.phoneNumber) ?? key;
  findings.push({ key, action: 'repaired', reason: `no ${field}: named "${fallback}"` });
  return fallback;
}

export type DriverRows = {
  driver: Row;
  ratings: Row[];
  history: Row[];
  wallet: Row[];
  /** The ten documents the driver flagged as uploaded. */
  documents: string[];
  findings: Finding[];
};

export function readDriver(key: string, value: unknown): DriverRows | Finding {
  if (!isRecord(value)) return { key, action: 'skipped', reason: `not a driver record (${describe(value)})` };
  const findings: Finding[] = [];
  const car = isRecord(value.car_details) ? value.car_details : {};
  const position = isRecord(value.position) ? value.position : {};
  const lat = numberOf(position.lat);
  const long = numberOf(position.long);
  const carType = carTypeOf(car.car_type);
  if (car.car_type !== undefined && !carType) {
    findings.push({ key, action: 'repaired', reason: `unknown car type "${String(car.car_type)}" left out` });
  }
  const documents: string[] = [];
  for (const [document, flagged] of entriesOf(value.documents)) {
    if (!flagged) continue;
    if ((STORED_DOCUMENT_KEYS as readonly string[]).includes(document)) documents.push(document);
    else {
      const reason = `document "${document}" is not one of the ten the console keeps`;
      findings.push({ key, action: 'listed', reason, kind: 'documents' });
    }
  }
  const driver = {
    firebase_key: key,
    name: nameOf(value, key, findings),
    email: textOf(value.email),
    phone_number: phoneOf(value.phoneNumber),
    country: textOf(value.country),
    lat: lat !== null && long !== null ? lat : null,
    long: lat !== null && long !== null ? long : null,
    car_model: textOf(car.car_model),
    vehicle_number: textOf(car.vehicle_number),
    car_type: carType,
    car_brand: textOf(car.card_brand ?? car.car_brand),
    car_year: textOf(car.car_year),
    car_color: textOf(car.car_color),
    car_interior_color: textOf(car.car_interior_color),
    wallet_balance: amountOf(value.amount),
  };
  const history = entriesOf(value.history)
    .filter(([, entry]) => isRecord(entry))
    .map(([pushKey, entry]) => {
      const item = entry as Row;
      return {
        firebase_key: `${key}/${pushKey}`,
        parent_key: key,
        customer_name: textOf(item.customerName),
        pickup_location: textOf(item.pickUpLocation),
        destination_location: textOf(item.destinationLocation),
        distance_km: amountOf(item.distance),
        price: amountOf(item.price),
        created_at: timeOrPushTime(item.dateTime, pushKey) ?? new Date(0).toISOString(),
      };
    });
  const wallet: Row[] = [];
  for (const [pushKey, entry] of entriesOf(value.transaction)) {
    const item = isRecord(entry) ? entry : {};
    const amount = amountOf(item.amount);
    const kind = textOf(item.status);
    if (amount === null || !kind) {
      findings.push({
        key: `${key}/${pushKey}`,
        action: 'skipped',
        reason: 'wallet entry without amount or kind',
        kind: 'walletEntries',
      });
      continue;
    }
    wallet.push({
      firebase_key: `${key}/${pushKey}`,
      parent_key: key,
      kind,
      amount: Math.abs(amount),
      credit: item.is_added === undefined ? CREDIT_KINDS.has(kind) : booleanOf(item.is_added),
      balance_after: amountOf(item.current_balance),
      order_id: textOf(item.order_id),
      created_at: timeOrPushTime(item.date, pushKey) ?? new Date(0).toISOString(),
    });
  }
  return { driver, ratings: ratingRows(key, value.rating), history, wallet, documents, findings };
}

const CREDIT_KINDS = new Set(['Recharge', 'Money Received', '5 Star Reward', 'Referral Bonus']);

export function readCustomer(
  key: string,
  value: unknown,
): { customer: Row; ratings: Row[]; findings: Finding[] } | Finding {
  if (!isRecord(value))
    return { key, action: 'skipped', reason: `not a customer record (${describe(value)})` };
  const findings: Finding[] = [];
  const customer = {
    firebase_key: key,
    name: nameOf(value, key, findings),
    email: textOf(value.email),
    phone_number: phoneOf(value.phoneNumber),
  };
  return { customer, ratings: ratingRows(key, value.rating), findings };
}

function statusOf(trip: Row): string {
  if (isRecord(trip.cancel_trip) || trip.cancel_trip === true) return 'cancelled';
  if (booleanOf(trip.isFinished) || booleanOf(trip.completed)) return 'completed';
  if (booleanOf(trip.tripStarted)) return 'started';
  return isRecord(trip.driver_info) ? 'assigned' : 'requested';
}

export type TripRows = { trip: Row; messages: Row[]; findings: Finding[] };

export function readTrip(key: string, value: unknown): TripRows | Finding {
  if (!isRecord(value)) return { key, action: 'skipped', reason: `not a trip record (${describe(value)})` };
  const pickup = isRecord(value['pick-up']) ? value['pick-up'] : null;
  const pickupLocation = pickup ? textOf(pickup.location) : null;
  if (!pickupLocation) return { key, action: 'skipped', reason: 'no pick-up location' };
  const findings: Finding[] = [];
  const destination = isRecord(value.destination) ? value.destination : {};
  const driverInfo = isRecord(value.driver_info) ? value.driver_info : {};
  const createdAt = timeOf(value.date) ?? pushIdTime(key);
  if (!createdAt)
    findings.push({
      key,
      action: 'repaired',
      reason: `unreadable date "${String(value.date)}": dated at import`,
    });
  const price = amountOf(value.price);
  if (value.price !== undefined && value.price !== '' && price === null) {
    findings.push({ key, action: 'repaired', reason: `unreadable price "${String(value.price)}" left out` });
  }
  const trip = {
    firebase_key: key,
    title: nameOf(value, key, findings, 'title'),
    body: textOf(value.body),
    phone_number: phoneOf(value.phoneNumber),
    car_type: carTypeOf(value.car),
    pickup_location: pickupLocation,
    pickup_lat: numberOf(pickup!.lat),
    pickup_long: numberOf(pickup!.long),
    destination_location: textOf(destination.location),
    destination_lat: numberOf(destination.lat),
    destination_long: numberOf(destination.long),
    distance_km: amountOf(value.distance),
    price,
    status: statusOf(value),
    paid: booleanOf(value.paid),
    cancel_reason: isRecord(value.cancel_trip) ? textOf(value.cancel_trip.reason) : null,
    created_at: (createdAt ?? new Date()).toISOString(),
    driver_key: textOf(driverInfo.id),
    customer_key: textOf(value.id),
  };
  const messages = entriesOf(value.messages)
    .filter(([, entry]) => isRecord(entry) && textOf(entry.message))
    .map(([pushKey, entry]) => ({
      firebase_key: `${key}/${pushKey}`,
      parent_key: key,
      sender: textOf((entry as Row).sender) ?? 'customer',
      message: textOf((entry as Row).message),
    }));
  return { trip, messages, findings };
}

/** One state's rates: a row per car type; a bare number is that car's per_km (as the customer app read it). */
export function readRates(key: string, value: unknown): { rows: Row[]; findings: Finding[] } | Finding {
  const state = key.trim().toLowerCase();
  if (!(STATES as readonly string[]).includes(state)) {
    return { key, action: 'skipped', reason: 'not one of the 30 states the console serves' };
  }
  if (!isRecord(value)) return { key, action: 'skipped', reason: `not a rates record (${describe(value)})` };
  const rows: Row[] = [];
  const findings: Finding[] = [];
  for (const [type, rates] of Object.entries(value)) {
    const carType = carTypeOf(type);
    const rateKey = `${key}/${type}`;
    if (!carType) {
      findings.push({ key: rateKey, action: 'skipped', reason: 'unknown car type', kind: 'rates' });
      continue;
    }
    const fields = Object.fromEntries(RATE_FIELDS.map((field) => [field, null])) as Record<
      string,
      number | null
    >;
    if (isRecord(rates)) {
      for (const field of RATE_FIELDS) fields[field] = numberOf(rates[field]);
    } else if (numberOf(rates) !== null) {
      fields.per_km = numberOf(rates);
      findings.push({
        key: rateKey,
        action: 'repaired',
        reason: `a bare number (${String(rates)}) read as per_km`,
      });
    } else {
      findings.push({ key: rateKey, action: 'skipped', reason: `not a rate set (${describe(rates)})` });
      continue;
    }
    rows.push({ state, car_type: carType, ...fields });
  }
  return { rows, findings };
}

export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${JSON.stringify(value).slice(0, 40)}`;
}
