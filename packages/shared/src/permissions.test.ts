import { describe, expect, it } from 'vitest';
import { ROLES, type Role } from './constants';
import { can, PERMISSIONS, rolesFor, type Permission } from './permissions';

const ALL: Role[] = ['admin', 'city_dealer', 'franchise'];
const ADMIN: Role[] = ['admin'];
const ADMIN_DEALER: Role[] = ['admin', 'city_dealer'];

/**
 * The spec's role table (section 6), row by row, plus the actions decisions.md adds. Every entry
 * of the matrix must appear here, so that opening an action to a role is a visible change.
 */
const EXPECTED: [Permission, Role[], string][] = [
  // Welcome, Drivers, Trips: every role.
  [['welcome', 'view'], ALL, 'spec 6: Welcome'],
  [['drivers', 'list'], ALL, 'spec 6: Drivers'],
  [['drivers', 'view'], ALL, 'spec 6: Drivers'],
  [['trips', 'list'], ALL, 'spec 6: Trips'],
  [['trips', 'view'], ALL, 'spec 6: Trips'],
  // Customers: admin only.
  [['customers', 'list'], ADMIN, 'spec 6: Customers'],
  [['customers', 'view'], ADMIN, 'spec 6: Customers'],
  // Create/list city dealers: admin only.
  [['city-dealers', 'list'], ADMIN, 'spec 6: create/list city dealers'],
  [['city-dealers', 'create'], ADMIN, 'spec 6: create/list city dealers'],
  // Create/list franchises: admin and city dealer.
  [['franchises', 'list'], ADMIN_DEALER, 'spec 6: create/list franchises'],
  [['franchises', 'create'], ADMIN_DEALER, 'spec 6: create/list franchises'],
  // Profile, update password, manage prices: admin only.
  [['profile', 'view'], ADMIN, 'spec 6: Profile'],
  [['profile', 'update'], ADMIN, 'spec 6: Profile'],
  [['passwords', 'update'], ADMIN, 'spec 6: update password'],
  [['car-rates', 'list'], ADMIN, 'spec 6: manage prices'],
  [['car-rates', 'update'], ADMIN, 'spec 6: manage prices'],
  [['fare-rules', 'list'], ADMIN, 'fare rules are the admin’s'],
  [['fare-rules', 'update'], ADMIN, 'fare rules are the admin’s'],
  // Decisions: the admin email list is admin-only (the public reset page must not list admins).
  [['admins', 'list'], ADMIN, 'decisions: get-admins is admin-only'],
  // Decisions: deleting drivers (spec 6 shows no role check) stays with those who see the driver;
  // undoing a delete and assigning a driver to a franchise are admin work.
  [['drivers', 'delete'], ALL, 'spec 6: deleting drivers has no role check'],
  [['drivers', 'restore'], ADMIN, 'decisions: soft delete an admin can undo'],
  [['drivers', 'assign'], ADMIN, 'decisions: admins assign drivers to a franchise'],
  [['drivers', 'upload'], ALL, 'issue 3: staff upload or replace document images'],
  // A franchise does not approve its own drivers' papers: review is for admins and their dealer.
  [['drivers', 'review'], ADMIN_DEALER, 'decisions: document review workflow'],
  [['drivers', 'devices'], ALL, 'issue 3: staff issue and revoke device tokens'],
  [['drivers', 'checks'], ALL, 'staff keep the checks of the drivers they keep'],
  [['vehicles', 'list'], ALL, 'vehicles are kept by whoever keeps their drivers'],
  [['vehicles', 'view'], ALL, 'vehicles are kept by whoever keeps their drivers'],
  [['vehicles', 'create'], ALL, 'vehicles are kept by whoever keeps their drivers'],
  [['vehicles', 'update'], ALL, 'vehicles are kept by whoever keeps their drivers'],
  [['vehicles', 'assign'], ALL, 'vehicles are kept by whoever keeps their drivers'],
  [['trips', 'feedback'], ALL, 'decisions: trip feedback saved on the server'],
  // The live fleet map follows each caller's driver scope.
  [['fleet', 'view'], ALL, 'issue: the live fleet map, every role'],
  // The dashboard follows each caller's trip scope; franchise figures mean nothing to a franchise,
  // and only admins span several states.
  [['dashboard', 'view'], ALL, 'issue: the operations dashboard, every role'],
  [
    ['dashboard', 'franchises'],
    ADMIN_DEALER,
    'issue: trips and revenue by franchise (admin and city dealer)',
  ],
  [['dashboard', 'states'], ADMIN, 'issue: trips and revenue by state (admin)'],
  // Editing and removing dealers and franchises belong to those who create them.
  [['audit', 'list'], ADMIN_DEALER, 'issue: the audit trail (admin; a city dealer its records)'],
  [['compliance', 'list'], ALL, 'issue: /compliance, every role in scope'],
  [['firebase-link', 'view'], ADMIN, 'issue: the Firebase link, for admins'],
  [['firebase-link', 'reread'], ADMIN, 'issue: reading a kind of record again from Firebase, for admins'],
  [['grievances', 'list'], ALL, 'issue: grievances about their drivers and trips, every role in scope'],
  [['grievances', 'view'], ALL, 'issue: grievances, every role in scope'],
  [['grievances', 'create'], ALL, 'issue: staff log a grievance from a call or a mail'],
  [['grievances', 'update'], ALL, 'issue: dealers and franchises work their grievances'],
  [['grievances', 'comment'], ALL, 'issue: comments inside the team'],
  [['grievances', 'officer'], ADMIN, 'issue: the grievance officer, an admin named in settings'],
  [['holidays', 'list'], ALL, 'issue: the holidays that move every deadline'],
  [['holidays', 'create'], ADMIN, 'issue: the holidays an admin lists'],
  [['holidays', 'delete'], ADMIN, 'issue: the holidays an admin lists'],
  [['desk-rules', 'list'], ALL, 'issue: every role reads the rules its clocks run by'],
  [['desk-rules', 'update'], ADMIN, 'issue: per-state settings, set by an admin'],
  [['sos', 'list'], ALL, 'issue: every staff member whose scope includes the driver sees the alert'],
  [['sos', 'view'], ALL, 'issue: the control room, in scope'],
  [['sos', 'create'], ALL, 'issue: staff log an alert from a call'],
  [['sos', 'update'], ALL, 'issue: acknowledged, escalated, resolved, by staff in scope'],
  [['notifications', 'list'], ALL, 'issue: one inbox in the header for each staff member'],
  [['notifications', 'update'], ALL, 'issue: read and unread, each their own'],
  [['city-dealers', 'update'], ADMIN, 'decisions: admins manage city dealers'],
  [['city-dealers', 'delete'], ADMIN, 'spec 7: DELETE /city_dealer/{id} from the admin list'],
  [['franchises', 'update'], ADMIN_DEALER, 'decisions: creators manage their franchises'],
];

describe('can()', () => {
  describe.each(EXPECTED)('%j', ([resource, action], allowed, source) => {
    it.each(ROLES)(`answers for a %s as ${source} says`, (role) => {
      const expected = allowed.includes(role);
      expect(can(role, [resource, action] as Permission)).toBe(expected);
      expect(can({ role }, [resource, action] as Permission)).toBe(expected);
    });

    it('matches rolesFor()', () => {
      expect([...rolesFor([resource, action] as Permission)].sort()).toEqual([...allowed].sort());
    });

    it('refuses when nobody is signed in', () => {
      expect(can(null, [resource, action] as Permission)).toBe(false);
      expect(can(undefined, [resource, action] as Permission)).toBe(false);
    });
  });

  it('covers every action of the matrix in this table', () => {
    const inMatrix = Object.entries(PERMISSIONS).flatMap(([resource, actions]) =>
      Object.keys(actions).map((action) => `${resource}:${action}`),
    );
    const inTable = EXPECTED.map(([[resource, action]]) => `${resource}:${String(action)}`);
    expect(inTable.sort()).toEqual(inMatrix.sort());
  });

  it('gives the admin every action', () => {
    for (const actions of Object.values(PERMISSIONS)) {
      for (const roles of Object.values(actions)) expect(roles).toContain('admin');
    }
  });

  it('never lets a franchise do what its city dealer may not', () => {
    for (const actions of Object.values(PERMISSIONS)) {
      for (const roles of Object.values(actions) as (readonly Role[])[]) {
        if (roles.includes('franchise')) expect(roles).toContain('city_dealer');
      }
    }
  });
});
