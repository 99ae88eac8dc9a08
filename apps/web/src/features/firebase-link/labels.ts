import { m } from '@bmet/shared/paraglide/messages';
import type { FirebaseLinkKind } from '@bmet/shared/schemas/firebase-link';

/** The kinds an admin may read again, by the apps' node names, in the words staff use. */
export const REREAD_LABELS: Record<FirebaseLinkKind, () => string> = {
  state: m.firebaseLinkKindRates,
  city_dealer: m.firebaseLinkKindCityDealers,
  franchise: m.firebaseLinkKindFranchises,
  driver: m.firebaseLinkKindDrivers,
  customer: m.firebaseLinkKindCustomers,
  trips: m.firebaseLinkKindTrips,
};

/**
 * What the link counts as applied, by the import report's kinds (apps/api/src/import/report.ts),
 * in the order shown. The first six are always shown, the others once the link applied one.
 */
export const APPLIED_LABELS: [kind: string, label: () => string, always: boolean][] = [
  ['rates', m.firebaseLinkKindRates, true],
  ['dealers', m.firebaseLinkKindCityDealers, true],
  ['franchises', m.firebaseLinkKindFranchises, true],
  ['drivers', m.firebaseLinkKindDrivers, true],
  ['customers', m.firebaseLinkKindCustomers, true],
  ['trips', m.firebaseLinkKindTrips, true],
  ['ratings', m.firebaseLinkKindRatings, false],
  ['bookingHistory', m.firebaseLinkKindBookingHistory, false],
  ['walletEntries', m.firebaseLinkKindWalletEntries, false],
  ['tripMessages', m.firebaseLinkKindTripMessages, false],
  ['documents', m.firebaseLinkKindDocuments, false],
  ['staffAccounts', m.firebaseLinkKindStaffAccounts, false],
  ['removed', m.firebaseLinkKindRemoved, false],
];

/** The applied counts to show: the known kinds in their order, then any kind the console has no words for yet. */
export function appliedRows(
  applied: Record<string, number>,
): { kind: string; label: string; count: number }[] {
  const known = APPLIED_LABELS.filter(([kind, , always]) => always || (applied[kind] ?? 0) > 0).map(
    ([kind, label]) => ({ kind, label: label(), count: applied[kind] ?? 0 }),
  );
  const others = Object.entries(applied)
    .filter(([kind, count]) => count > 0 && !APPLIED_LABELS.some(([known]) => known === kind))
    .map(([kind, count]) => ({ kind, label: kind, count }));
  return [...known, ...others];
}
