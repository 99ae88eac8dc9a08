import type { ComponentType } from 'react';
import type { Permission } from '@bmet/shared/permissions';
import { screen } from './lazy-screen';

/** What opens a route: a permission of the matrix, or any signed-in user (as the API's `signed-in`). */
export type RouteAccess = Permission | 'signed-in';

export type StaffRoute = {
  path: string;
  permission: RouteAccess;
  Component: ComponentType;
};

/**
 * The signed-in routes of the spec's route table, each with the permission that opens it. The
 * table comes with a signed-in user's first screen (`staff-routes.tsx`), not with the sign-in screen.
 */
export const STAFF_ROUTES: StaffRoute[] = [
  {
    path: '/welcome',

    permission: ['welcome', 'view'],
    Component: screen(() => import('../features/welcome/welcome-screen'), 'WelcomeScreen'),
  },
  {
    path: '/dashboard',
    permission: ['dashboard', 'view'],
    Component: screen(() => import('../features/dashboard/dashboard-screen'), 'DashboardScreen'),
  },
  {
    path: '/trips/:tripId?',

    permission: ['trips', 'list'],
    Component: screen(() => import('../features/trips/trips-screen'), 'TripsScreen'),
  },
  {
    path: '/drivers',

    permission: ['drivers', 'list'],
    Component: screen(() => import('../features/drivers/drivers-screen'), 'DriversScreen'),
  },
  {
    path: '/drivers/:driverId',
    permission: ['drivers', 'view'],
    Component: screen(() => import('../features/drivers/driver-dashboard-screen'), 'DriverDashboardScreen'),
  },
  {
    path: '/vehicles',
    permission: ['vehicles', 'list'],
    Component: screen(() => import('../features/vehicles/vehicle-list-screen'), 'VehicleListScreen'),
  },
  {
    path: '/vehicles/:vehicleId',
    permission: ['vehicles', 'view'],
    Component: screen(() => import('../features/vehicles/vehicle-screen'), 'VehicleScreen'),
  },
  {
    path: '/fleet',
    permission: ['fleet', 'view'],
    Component: screen(() => import('../features/fleet/fleet-screen'), 'FleetScreen'),
  },
  {
    path: '/customers',

    permission: ['customers', 'list'],
    Component: screen(() => import('../features/customers/customers-screen'), 'CustomersScreen'),
  },
  {
    path: '/createCityDealer',

    permission: ['city-dealers', 'create'],
    Component: screen(
      () => import('../features/city-dealers/create-city-dealer-screen'),
      'CreateCityDealerScreen',
    ),
  },
  {
    path: '/createfranchise',

    permission: ['franchises', 'create'],
    Component: screen(
      () => import('../features/franchises/create-franchise-screen'),
      'CreateFranchiseScreen',
    ),
  },
  {
    path: '/cityDealer',

    permission: ['city-dealers', 'list'],
    Component: screen(() => import('../features/city-dealers/city-dealers-screen'), 'CityDealersScreen'),
  },
  {
    path: '/displayFranchise',

    permission: ['franchises', 'list'],
    Component: screen(() => import('../features/franchises/franchises-screen'), 'FranchisesScreen'),
  },
  {
    path: '/profile',

    permission: ['profile', 'view'],
    Component: screen(() => import('../features/profile/profile-screen'), 'ProfileScreen'),
  },
  {
    // Every role's own second factor (the profile screen, admins only, links here).
    path: '/second-factor',
    permission: 'signed-in',
    Component: screen(() => import('../features/second-factor/second-factor-screen'), 'SecondFactorScreen'),
  },
  {
    path: '/update-password',

    permission: ['passwords', 'update'],
    Component: screen(() => import('../features/passwords/update-password-screen'), 'UpdatePasswordScreen'),
  },
  {
    path: '/compliance',
    permission: ['compliance', 'list'],
    Component: screen(() => import('../features/compliance/compliance-screen'), 'ComplianceScreen'),
  },
  {
    path: '/grievances/:grievanceId?',
    permission: ['grievances', 'list'],
    Component: screen(() => import('../features/grievances/grievances-screen'), 'GrievancesScreen'),
  },
  {
    path: '/sos',
    permission: ['sos', 'list'],
    Component: screen(() => import('../features/sos/sos-screen'), 'SosScreen'),
  },
  {
    path: '/audit',
    permission: ['audit', 'list'],
    Component: screen(() => import('../features/audit/audit-screen'), 'AuditScreen'),
  },
  {
    path: '/firebase-link',
    permission: ['firebase-link', 'view'],
    Component: screen(() => import('../features/firebase-link/firebase-link-screen'), 'FirebaseLinkScreen'),
  },
  {
    path: '/manage-prices',

    permission: ['car-rates', 'list'],
    Component: screen(() => import('../features/car-rates/manage-prices-screen'), 'ManagePricesScreen'),
  },
  {
    path: '/fare-rules',
    permission: ['fare-rules', 'list'],
    Component: screen(() => import('../features/fare-rules/fare-rules-screen'), 'FareRulesScreen'),
  },
];
