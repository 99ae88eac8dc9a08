import type { Role } from './constants';

const ALL: readonly Role[] = ['admin', 'city_dealer', 'franchise'];
const ADMIN: readonly Role[] = ['admin'];
const ADMIN_DEALER: readonly Role[] = ['admin', 'city_dealer'];
// Row scope (which drivers, trips...) narrows every one of these further on the server.

/**
 * Which roles may do what, for every resource. The API guards each route with it and the web app
 * reads it only to hide what a user cannot do. Row scope (which records) is the repositories' job.
 */
export const PERMISSIONS = {
  welcome: { view: ALL },
  /** The dashboard's figures: every role, over its own scope; by state for admins only. */
  dashboard: { view: ALL, franchises: ADMIN_DEALER, states: ADMIN },
  profile: { view: ADMIN, update: ADMIN },
  drivers: {
    list: ALL,
    view: ALL,
    delete: ALL,
    restore: ADMIN,
    assign: ADMIN,
    upload: ALL,
    review: ADMIN_DEALER,
    devices: ALL,
    /** Police verification, fitness, training and insurance: kept by whoever keeps the driver. */
    checks: ALL,
  },
  trips: { list: ALL, view: ALL, feedback: ALL },
  /** Vehicles as records of their own: kept by whoever keeps the drivers who drive them. */
  vehicles: { list: ALL, view: ALL, create: ALL, update: ALL, assign: ALL },
  fleet: { view: ALL },
  customers: { list: ADMIN, view: ADMIN },
  'city-dealers': { list: ADMIN, create: ADMIN, update: ADMIN, delete: ADMIN },
  franchises: { list: ADMIN_DEALER, create: ADMIN_DEALER, update: ADMIN_DEALER },
  admins: { list: ADMIN },
  passwords: { update: ADMIN },
  'car-rates': { list: ADMIN, update: ADMIN },
  /** The states' fare rules (the aggregator guidelines' band, fees and shares) and their report. */
  'fare-rules': { list: ADMIN, update: ADMIN },
  audit: { list: ADMIN_DEALER },
  compliance: { list: ALL },
  /** The link to the apps' Firebase database: its state, for admins. */
  'firebase-link': { view: ADMIN, reread: ADMIN },
  /** Complaints with their legal deadline: worked by whoever keeps the driver or the trip. */
  grievances: { list: ALL, view: ALL, create: ALL, update: ALL, comment: ALL, officer: ADMIN },
  /** Days off that do not count towards a grievance's deadline: everyone reads them, admins list them. */
  holidays: { list: ALL, create: ADMIN, delete: ADMIN },
  /** Each state's grievance and SOS rules (working days, Delhi's shares, the re-raise): everyone reads them, admins set them. */
  'desk-rules': { list: ALL, update: ADMIN },
  /** SOS alerts: every role watches and answers those of its drivers; admins all. */
  sos: { list: ALL, view: ALL, create: ALL, update: ALL },
  // Each account's own inbox.
  notifications: { list: ALL, update: ALL },
} as const satisfies Record<string, Record<string, readonly Role[]>>;

export type Resource = keyof typeof PERMISSIONS;
export type Action<R extends Resource> = keyof (typeof PERMISSIONS)[R];
export type Permission = { [R in Resource]: [R, Action<R>] }[Resource];

/** Roles allowed a permission: an action on a resource, as routes declare it (`['drivers', 'list']`). */
export function rolesFor(permission: Permission): readonly Role[] {
  const [resource, action] = permission;
  return (PERMISSIONS[resource] as Record<string, readonly Role[]>)[action] ?? [];
}

/** Whether a user (or a bare role) has a permission (`can(user, ['drivers', 'restore'])`). */
export function can(user: { role: Role } | Role | null | undefined, permission: Permission): boolean {
  if (!user) return false;
  const role = typeof user === 'string' ? user : user.role;
  return rolesFor(permission).includes(role);
}
