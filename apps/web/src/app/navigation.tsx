import type { ReactNode } from 'react';
import { UnstyledButton } from '@mantine/core';
import { IconLogout } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';
import type { Role } from '@bmet/shared/constants';
import { m } from '@bmet/shared/paraglide/messages';
import { can, type Permission } from '@bmet/shared/permissions';
import type { complianceSummaryResponseSchema } from '@bmet/shared/schemas/compliance';
import type { grievanceSummaryResponseSchema } from '@bmet/shared/schemas/grievance';
import type { sosListResponseSchema } from '@bmet/shared/schemas/sos';
import classes from './layout.module.css';
import { NavCount, type NavCountSource } from './nav-count';

/** `label` is called when the bar is drawn, so that it follows the language. */
export type NavItem = { label: () => string; to: string; permission: Permission };

/**
 * The navigation bar: the dashboard first for every role, then the spec's order (Drivers and Trips
 * for all, then each role's extras).
 */
export const NAV_ITEMS: NavItem[] = [
  { label: m.navDashboard, to: '/dashboard', permission: ['dashboard', 'view'] },
  { label: m.navFleetMap, to: '/fleet', permission: ['fleet', 'view'] },
  { label: m.navDrivers, to: '/drivers', permission: ['drivers', 'list'] },
  { label: m.navVehicles, to: '/vehicles', permission: ['vehicles', 'list'] },
  { label: m.navTrips, to: '/trips', permission: ['trips', 'list'] },
  { label: m.updatePassword, to: '/update-password', permission: ['passwords', 'update'] },
  { label: m.navManagePrices, to: '/manage-prices', permission: ['car-rates', 'list'] },
  { label: m.navFareRules, to: '/fare-rules', permission: ['fare-rules', 'list'] },
  { label: m.navCustomers, to: '/customers', permission: ['customers', 'list'] },
  { label: m.navCreateCityDealer, to: '/createcitydealer', permission: ['city-dealers', 'create'] },
  { label: m.navFranchises, to: '/displayFranchise', permission: ['franchises', 'list'] },
  { label: m.navCreateFranchise, to: '/createfranchise', permission: ['franchises', 'create'] },
  { label: m.navCityDealers, to: '/cityDealer', permission: ['city-dealers', 'list'] },
  { label: m.navCompliance, to: '/compliance', permission: ['compliance', 'list'] },
  { label: m.grievanceNavLabel, to: '/grievances', permission: ['grievances', 'list'] },
  { label: m.sosNavLabel, to: '/sos', permission: ['sos', 'list'] },
  { label: m.navAudit, to: '/audit', permission: ['audit', 'list'] },
  { label: m.navFirebaseLink, to: '/firebase-link', permission: ['firebase-link', 'view'] },
];

const complianceCount: NavCountSource<typeof complianceSummaryResponseSchema> = {
  path: '/compliance/summary',
  refreshMs: 60_000,
  count: ({ data }) => data.expired + data.awaitingReview,
  describe: ({ data }) => m.navComplianceCount({ count: data.expired + data.awaitingReview }),
};

const grievanceCount: NavCountSource<typeof grievanceSummaryResponseSchema> = {
  path: '/grievances/summary',
  refreshMs: 60_000,
  count: ({ data }) => data.overdue + data.dueSoon,
  describe: ({ data }) => m.grievanceNavCount({ overdue: data.overdue, dueSoon: data.dueSoon }),
};

/** Open means not yet resolved; an alert matters within seconds, so it is asked more often. */
const sosCount: NavCountSource<typeof sosListResponseSchema> = {
  path: '/sos?status=open&limit=1',
  refreshMs: 15_000,
  count: ({ total }) => total,
  describe: ({ total }) => m.sosNavCount({ count: total }),
};

/** The links with a count beside them: the id of the count's description, and the count. */
const COUNTS: Partial<Record<string, { id: string; show: (path: string) => ReactNode }>> = {
  '/compliance': {
    id: 'nav-compliance-count',
    show: (path) => <NavCount id="nav-compliance-count" path={path} source={complianceCount} />,
  },
  '/grievances': {
    id: 'nav-grievance-count',
    show: (path) => <NavCount id="nav-grievance-count" path={path} source={grievanceCount} />,
  },
  '/sos': {
    id: 'nav-sos-count',
    show: (path) => <NavCount id="nav-sos-count" path={path} source={sosCount} />,
  },
};

/**
 * The navigation bar of a signed-in user. Its code (every screen's name in both languages) loads
 * after the first paint, and never on the sign-in screen, which has no navigation.
 */
export function Navigation({
  role,
  opened,
  onNavigate,
  onLogout,
}: {
  role: Role;
  opened: boolean;
  onNavigate: () => void;
  onLogout: () => void;
}) {
  const location = useLocation();
  const items = NAV_ITEMS.filter((item) => can(role, item.permission));
  const current = location.pathname.toLowerCase();
  return (
    <nav className={classes.navbar} data-opened={opened || undefined} aria-label={m.appMainNavigation()}>
      <div className={classes.navLinks}>
        {items.map((item) => (
          <UnstyledButton
            key={item.to}
            component={Link}
            to={item.to}
            className={classes.navLink}
            data-active={current === item.to.toLowerCase() || undefined}
            aria-current={current === item.to.toLowerCase() ? 'page' : undefined}
            onClick={onNavigate}
            aria-describedby={COUNTS[item.to]?.id}
          >
            {item.label()}
            {COUNTS[item.to]?.show(location.pathname)}
          </UnstyledButton>
        ))}
      </div>
      <UnstyledButton className={classes.navLink} data-danger onClick={onLogout}>
        <IconLogout size={16} aria-hidden />
        {m.logout()}
      </UnstyledButton>
    </nav>
  );
}
