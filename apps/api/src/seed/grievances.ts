import { sql } from 'drizzle-orm';
import type { State } from '@bmet/shared/constants';
import {
  grievanceDeadline,
  type GrievanceCategory,
  type GrievancePriority,
  type GrievanceStatus,
} from '@bmet/shared/grievance-rules';
import type { Db } from '../db/client';
import { rowsOf } from '../db/rows';
import { grievanceEvents, grievances, holidays } from '../db/schema';
import { indianPhone, personName } from './factories';
import { Random } from './random';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** What callers say, by category: the demo's descriptions. */
const COMPLAINTS: Record<GrievanceCategory, string[]> = {
  fare: [
    'Charged ₹120 more than the fare shown when booking.',
    'Night charge added although the ride ended before 10 pm.',
  ],
  behaviour: [
    'Driver was rude and refused to switch off the music.',
    'Driver asked for extra cash to go to the airport.',
  ],
  safety: [
    'Driver was using his phone while driving on the highway.',
    'Driver took an unknown route late at night.',
  ],
  vehicle: ['The air conditioning did not work and the seat was torn.', 'The car smelled of smoke.'],
  lost_item: ['Left a black laptop bag on the back seat.', 'Forgot a phone in the car after the ride.'],
  payment: [
    'Paid by UPI but the app still shows the ride as unpaid.',
    'Wallet was debited twice for one ride.',
  ],
  app: ['The app showed the driver arriving but he never came.', 'Could not cancel the booking in the app.'],
  other: ['Driver did not wait at the pick-up point as agreed.'],
};

/** The steps the demo's grievances have reached, and where each stands against its deadline. */
type Plan = { status: GrievanceStatus; received: 'today' | 'due_soon' | 'overdue' | 'past'; late?: boolean };
const PLANS: Plan[] = [
  { status: 'open', received: 'today' },
  { status: 'in_progress', received: 'due_soon' },
  { status: 'open', received: 'overdue' },
  { status: 'waiting', received: 'today' },
  { status: 'resolved', received: 'past' },
  { status: 'closed', received: 'past', late: true },
];

/** The national holidays of a year that every deadline skips, and a state's own. */
function demoHolidays(year: number): { day: string; state: State | null; name: string }[] {
  return [
    { day: `${year}-01-26`, state: null, name: 'Republic Day' },
    { day: `${year}-08-15`, state: null, name: 'Independence Day' },
    { day: `${year}-10-02`, state: null, name: 'Gandhi Jayanti' },
    { day: `${year}-12-25`, state: null, name: 'Christmas' },
    { day: `${year}-05-01`, state: 'maharashtra', name: 'Maharashtra Day' },
    { day: `${year}-11-01`, state: 'karnataka', name: 'Karnataka Rajyotsava' },
  ];
}

/**
 * Grievances in every state with drivers, so that a newcomer sees the desk at work: some just
 * logged, some due within a day, some overdue, some resolved in time and one late, with their
 * steps. Drawn from their own random numbers, so the rest of the demo stays as it was.
 */
export async function seedDemoGrievances(db: Db, now = new Date()): Promise<number> {
  const rng = new Random(20261129);
  const year = new Date(now.getTime() + 330 * 60_000).getUTCFullYear();
  const listed = [...demoHolidays(year - 1), ...demoHolidays(year), ...demoHolidays(year + 1)];
  await db.insert(holidays).values(listed).onConflictDoNothing();
  const holidayOf = (state: string | null) => {
    const days = new Set(listed.filter((h) => h.state === null || h.state === state).map((h) => h.day));
    return (day: string) => days.has(day);
  };
  // In each state, a few franchised drivers and the latest trip of each (the grievance's subject).
  const subjects = rowsOf(
    await db.execute(sql`
      select d.id as driver_id, d.state, d.franchise_id, t.id as trip_id, t.customer_id, c.name as customer_name,
        c.phone_number as customer_phone
      from (
        select id, state, franchise_id, row_number() over (partition by state order by id) as n
        from drivers where franchise_id is not null and state is not null and deleted_at is null
      ) d
      left join lateral (
        select id, customer_id from trips where driver_id = d.id order by created_at desc limit 1
      ) t on true
      left join customers c on c.id = t.customer_id
      where d.n <= ${PLANS.length}
      order by d.state, d.n`),
  );
  const [staff] = rowsOf(
    await db.execute(sql`select id from accounts where role = 'admin' order by created_at limit 1`),
  );
  const by = staff ? String(staff.id) : null;
  let count = 0;
  const planIndex = new Map<string, number>();
  for (const subject of subjects) {
    const state = String(subject.state);
    const index = planIndex.get(state) ?? 0;
    planIndex.set(state, index + 1);
    const plan = PLANS[index % PLANS.length]!;
    const isHoliday = holidayOf(state);
    const receivedAt = receiptFor(plan.received, now, isHoliday, rng);
    const dueAt = grievanceDeadline(receivedAt, isHoliday);
    const category = rng.pick(Object.keys(COMPLAINTS) as GrievanceCategory[]);
    const fromCustomer = subject.trip_id !== null && rng.chance(0.8);
    const name = fromCustomer && subject.customer_name ? String(subject.customer_name) : personName(rng);
    const phone = fromCustomer && subject.customer_phone ? String(subject.customer_phone) : indianPhone(rng);
    const priority: GrievancePriority =
      category === 'safety' ? 'urgent' : rng.pick(['low', 'normal', 'normal', 'high']);
    const description = rng.pick(COMPLAINTS[category]);
    const resolvedAt =
      plan.status === 'resolved' || plan.status === 'closed'
        ? new Date(plan.late ? dueAt.getTime() + 6 * HOUR : receivedAt.getTime() + rng.int(3, 40) * HOUR)
        : null;
    const resolution = resolvedAt
      ? 'We spoke to the driver and refunded the difference to the wallet.'
      : null;
    const [numbered] = rowsOf(
      await db.execute(
        sql`select 'GR-' || to_char(${receivedAt.toISOString()}::timestamptz at time zone 'Asia/Kolkata', 'YYYY') || '-' || lpad(nextval('grievance_number_seq')::text, 6, '0') as number`,
      ),
    );
    const number = String(numbered?.number);
    const [row] = await db
      .insert(grievances)
      .values({
        number,
        status: plan.status,
        category,
        priority,
        complainantKind: fromCustomer ? 'customer' : rng.pick(['driver', 'other'] as const),
        complainantName: name,
        complainantPhone: phone,
        complainantEmail: rng.chance(0.5)
          ? `${name.toLowerCase().replace(/[^a-z]+/g, '.')}@example.in`
          : null,
        complainantLanguage: rng.chance(0.3) ? 'hi' : 'en',
        tripId: fromCustomer ? (subject.trip_id as string) : null,
        driverId: String(subject.driver_id),
        customerId: fromCustomer ? ((subject.customer_id as string | null) ?? null) : null,
        state,
        description,
        receivedAt,
        clockFrom: receivedAt,
        dueAt,
        resolution,
        resolvedAt,
        searchText: [number, name, phone.replace(/\D/g, ''), description].join(' ').toLowerCase(),
        loggedBy: by,
        createdAt: receivedAt,
        updatedAt: resolvedAt ?? receivedAt,
      })
      .returning({ id: grievances.id });
    const steps: { kind: string; status: string | null; text: string | null; at: Date }[] = [
      { kind: 'logged', status: 'open', text: null, at: receivedAt },
    ];
    const later = (hours: number) => new Date(Math.min(now.getTime(), receivedAt.getTime() + hours * HOUR));
    if (plan.status !== 'open')
      steps.push({ kind: 'status', status: 'in_progress', text: 'Called the driver.', at: later(1) });
    if (plan.status === 'waiting')
      steps.push({
        kind: 'status',
        status: 'waiting',
        text: 'Asked the complainant for the receipt.',
        at: later(2),
      });
    if (resolvedAt) steps.push({ kind: 'status', status: 'resolved', text: resolution, at: resolvedAt });
    if (plan.status === 'closed')
      steps.push({ kind: 'status', status: 'closed', text: null, at: new Date(resolvedAt!.getTime() + DAY) });
    await db.insert(grievanceEvents).values(steps.map((step) => ({ ...step, grievanceId: row!.id, by })));
    count += 1;
  }
  return count;
}

/** A time of receipt that puts a grievance where its plan says: just in, due within a day, overdue or long past. */
function receiptFor(
  when: Plan['received'],
  now: Date,
  isHoliday: (day: string) => boolean,
  rng: Random,
): Date {
  switch (when) {
    case 'today':
      return new Date(now.getTime() - rng.int(1, 5) * HOUR);
    case 'overdue':
      return new Date(now.getTime() - rng.int(7, 12) * DAY);
    case 'past':
      return new Date(now.getTime() - rng.int(15, 40) * DAY);
    case 'due_soon': {
      // The latest receipt, hour by hour back, whose deadline falls within the next day.
      for (let hours = 24; hours < 24 * 10; hours += 1) {
        const receivedAt = new Date(now.getTime() - hours * HOUR);
        const left = grievanceDeadline(receivedAt, isHoliday).getTime() - now.getTime();
        if (left > 0 && left <= DAY) return receivedAt;
      }
      return new Date(now.getTime() - 2 * DAY);
    }
  }
}
