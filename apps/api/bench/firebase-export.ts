import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { CAR_TYPES, DOCUMENT_KEYS, STATES } from '@bmet/shared/constants';
import { Random } from '../src/seed/random';

export type ExportSize = { trips: number; drivers: number; customers: number };

const NAMES = ['Aarav Sharma', 'Priya Patel', 'Rohan Gupta', 'Ananya Iyer', 'Vikram Singh', 'Meera Nair'];
const PLACES = ['MG Road', 'Connaught Place', 'Hitech City', 'Marine Drive', 'Park Street', 'Anna Nagar'];
const WALLET_KINDS = ['Recharge', 'Ride Accepted', '5 Star Reward', 'Money Sent'];

const uid = (prefix: string, n: number) => `${prefix}${n.toString(36).padStart(8, '0')}`;
const pushId = (n: number) => `-N${n.toString(36).padStart(18, '0')}`;

/** The apps' date format: Dart's DateTime.toString() of India's local time. */
function dartDate(ms: number): string {
  return new Date(ms + 5.5 * 3600_000).toISOString().replace('T', ' ').replace('Z', '000');
}

function driverRecord(random: Random, n: number, start: number) {
  const day = start + n * 60_000;
  const price = random.int(80, 900);
  return {
    name: random.pick(NAMES),
    phoneNumber: n % 2 ? `98${String(n).padStart(8, '0')}` : `+9198${String(n).padStart(8, '0')}`,
    email: n % 3 ? '' : `driver${n}@example.in`,
    amount: random.int(0, 5000),
    position:
      n % 4 ? { lat: random.float(8, 30), long: random.float(70, 88) } : { lat: '19.07', long: '72.87' },
    car_details: {
      card_brand: 'Tata',
      car_model: 'Nexon EV',
      car_year: '2022',
      car_color: 'White',
      car_interior_color: 'Black',
      vehicle_number: `MH01AB${String(n % 10000).padStart(4, '0')}`,
      car_type: CAR_TYPES[n % CAR_TYPES.length],
    },
    documents: Object.fromEntries(DOCUMENT_KEYS.slice(0, n % 11).map((key) => [key, true])),
    history: {
      [pushId(n * 2)]: {
        pickUpLocation: random.pick(PLACES),
        destinationLocation: random.pick(PLACES),
        customerName: random.pick(NAMES),
        price: String(price),
        distance: String(random.int(2, 40)),
        dateTime: dartDate(day),
      },
    },
    rating: {
      [pushId(n)]: {
        rating: random.int(1, 5),
        description: 'Good ride',
        customerName: 'A',
        date: dartDate(day),
      },
    },
    transaction: Object.fromEntries(
      [0, 1].map((i) => [
        pushId(n * 2 + i),
        {
          amount: i ? price / 10 : 500,
          status: WALLET_KINDS[(n + i) % WALLET_KINDS.length],
          is_added: i === 0,
          date: dartDate(day + i * 1000),
          order_id: i ? '' : `order_${n}`,
          current_balance: 500 - (i ? price / 10 : 0),
          user_name: 'driver',
        },
      ]),
    ),
  };
}

function tripRecord(random: Random, n: number, size: ExportSize, start: number) {
  const assigned = n % 5 !== 0;
  const driver = random.int(0, size.drivers - 1);
  const trip: Record<string, unknown> = {
    title: random.pick(NAMES),
    body: 'Please Pickup me',
    phoneNumber: `+9197${String(n % 1e8).padStart(8, '0')}`,
    id: uid('c', random.int(0, size.customers - 1)),
    car: CAR_TYPES[n % CAR_TYPES.length],
    date: dartDate(start + n * 30_000),
    price: n % 7 ? String(random.int(80, 900)) : `₹${random.int(80, 900)}`,
    distance: String(random.int(2, 40)),
    'pick-up': { location: random.pick(PLACES), lat: random.float(8, 30), long: random.float(70, 88) },
    destination: { location: random.pick(PLACES), lat: random.float(8, 30), long: random.float(70, 88) },
    tripStarted: assigned && n % 3 !== 0,
    isFinished: assigned && n % 3 === 1,
  };
  if (assigned) {
    trip.driver_info = {
      name: 'Driver',
      vehicleNumber: 'MH01AB0001',
      phoneNumber: '+919800000000',
      rating: '4.6',
      id: uid('d', driver),
      applied: 'done',
    };
  }
  if (n % 10 === 0)
    trip.messages = {
      [pushId(n * 2)]: { message: 'Where are you?', sender: 'customer' },
      [pushId(n * 2 + 1)]: { message: 'Two minutes', sender: 'driver' },
    };
  if (n % 13 === 0) trip.cancel_trip = { reason: 'Driver is late' };
  return trip;
}

/**
 * Writes a Realtime Database export of the given size to a file, streamed (the whole tree is never
 * in memory), with the sections in key order as Firebase writes them and some of the apps'
 * quirks (prices with ₹, positions as strings, phone numbers without +91).
 */
export async function writeFirebaseExport(path: string, size: ExportSize, seed = 42): Promise<number> {
  const random = new Random(seed);
  const out = createWriteStream(path);
  const start = Date.UTC(2023, 0, 1);
  let written = 0;
  const write = async (text: string) => {
    written += Buffer.byteLength(text);
    if (!out.write(text)) await once(out, 'drain');
  };
  const section = async (
    name: string,
    count: number,
    record: (n: number) => [string, unknown],
    first = false,
  ) => {
    await write(`${first ? '' : ','}${JSON.stringify(name)}:{`);
    for (let n = 0; n < count; n++) {
      const [key, value] = record(n);
      await write(`${n ? ',' : ''}${JSON.stringify(key)}:${JSON.stringify(value)}`);
    }
    await write('}');
  };
  await write('{');
  await section(
    'city_dealer',
    5,
    (n) => [
      uid('cd', n),
      { name: `Dealer ${n}`, email: `dealer${n}@example.in`, state: STATES[n], createdAt: dartDate(start) },
    ],
    true,
  );
  await section('customer', size.customers, (n) => [
    uid('c', n),
    {
      name: random.pick(NAMES),
      phoneNumber: `97${String(n).padStart(8, '0')}`,
      email: '',
      rating: { [pushId(n)]: { rating: random.int(1, 5), description: 'Polite', customerName: 'Driver' } },
    },
  ]);
  await section('driver', size.drivers, (n) => [uid('d', n), driverRecord(random, n, start)]);
  await section('franchise', 20, (n) => [
    uid('fr', n),
    {
      name: `Franchise ${n}`,
      email: `franchise${n}@example.in`,
      state: STATES[n % 5],
      createdAt: dartDate(start),
      city_dealer: uid('cd', n % 5),
    },
  ]);
  await section('state', STATES.length, (n) => [
    STATES[n]!,
    Object.fromEntries(
      CAR_TYPES.map((type, i) => [
        type,
        i === 4 && n % 2
          ? 12
          : {
              basePrice: 50,
              per_km: 12 + i,
              nightCharge: 20,
              waitingCharge: '2',
              rushHour: 10,
              surCharges: 0,
              extra: 0,
            },
      ]),
    ),
  ]);
  await section('trips', size.trips, (n) => [pushId(n), tripRecord(random, n, size, start)]);
  await write('}\n');
  out.end();
  await once(out, 'finish');
  return written;
}
