import type { Role } from '@bmet/shared/constants';
import { m } from '@bmet/shared/paraglide/messages';
import { can, type Permission } from '@bmet/shared/permissions';
import type { SearchKind, SearchResults } from '@bmet/shared/schemas/search';
import { formatDateTime, stateLabel } from '../../lib/format';

/** One result as the dialog shows it: what it is, two lines of text and where it opens. */
export type MatchOption = { kind: SearchKind; id: string; title: string; detail: string; to: string };

/** A kind's results under its heading. */
export type MatchGroup = { kind: SearchKind; label: string; options: MatchOption[] };

type Kind = {
  kind: SearchKind;
  permission: Permission;
  label: () => string;
  /** What the empty dialog says can be searched for of this kind. */
  hint: () => string;
};

/**
 * The kinds in the order the dialog shows them: drivers first, whom staff look up most, then the
 * trips; each for the roles that may list it (the API answers no other). The headings are texts
 * of their own: sharing the navigation's would cut those into one more chunk, which the entry's
 * preload lists would name for every screen.
 */
const KINDS: Kind[] = [
  {
    kind: 'drivers',
    permission: ['drivers', 'list'],
    label: m.searchGroupDrivers,
    hint: m.searchHintDrivers,
  },
  { kind: 'trips', permission: ['trips', 'list'], label: m.searchGroupTrips, hint: m.searchHintTrips },
  {
    kind: 'customers',
    permission: ['customers', 'list'],
    label: m.searchGroupCustomers,
    hint: m.searchHintCustomers,
  },
  {
    kind: 'cityDealers',
    permission: ['city-dealers', 'list'],
    label: m.searchGroupCityDealers,
    hint: m.searchHintCityDealers,
  },
  {
    kind: 'franchises',
    permission: ['franchises', 'list'],
    label: m.searchGroupFranchises,
    hint: m.searchHintFranchises,
  },
];

/** What a role can search for, one line per kind. */
export function searchHints(role: Role): string[] {
  return KINDS.filter((kind) => can(role, kind.permission)).map((kind) => kind.hint());
}

/** The known parts of a line, side by side, or 'No info' when none is known. */
const line = (...parts: (string | null)[]) => parts.filter(Boolean).join(' · ') || m.noInfo();

/** Where a screen opens on one record: its own page, or its list searched for it with it open. */
const listWith = (path: string, name: string, param: string, id: string) =>
  `${path}?${new URLSearchParams({ q: name, [param]: id }).toString()}`;

function optionsOf(results: SearchResults, kind: SearchKind): MatchOption[] {
  switch (kind) {
    case 'drivers':
      return (results.drivers ?? []).map((driver) => ({
        kind,
        id: driver.id,
        title: driver.name,
        detail: line(driver.phoneNumber, driver.vehicleNumber),
        to: `/drivers/${driver.id}`,
      }));
    case 'trips':
      return (results.trips ?? []).map((trip) => ({
        kind,
        id: trip.id,
        title: trip.title,
        detail: m.searchTripDetail({
          date: formatDateTime(trip.createdAt),
          from: trip.pickup ?? '-',
          to: trip.destination ?? '-',
        }),
        to: `/trips/${trip.id}`,
      }));
    case 'customers':
      return (results.customers ?? []).map((customer) => ({
        kind,
        id: customer.id,
        title: customer.name,
        detail: line(customer.phoneNumber, customer.email),
        to: listWith('/customers', customer.name, 'customer', customer.id),
      }));
    case 'cityDealers':
      return (results.cityDealers ?? []).map((dealer) => ({
        kind,
        id: dealer.id,
        title: dealer.name || dealer.email,
        detail: line(dealer.email, dealer.state && stateLabel(dealer.state)),
        to: listWith('/cityDealer', dealer.name || dealer.email, 'dealer', dealer.id),
      }));
    case 'franchises':
      return (results.franchises ?? []).map((franchise) => ({
        kind,
        id: franchise.id,
        title: franchise.name || franchise.email,
        detail: line(franchise.email, franchise.state && stateLabel(franchise.state)),
        to: listWith('/displayFranchise', franchise.name || franchise.email, 'franchise', franchise.id),
      }));
  }
}

/** The answer's results by kind, in the dialog's order, leaving out the kinds with none. */
export function matchGroups(results: SearchResults): MatchGroup[] {
  return KINDS.map(({ kind, label }) => ({ kind, label: label(), options: optionsOf(results, kind) })).filter(
    (group) => group.options.length > 0,
  );
}
