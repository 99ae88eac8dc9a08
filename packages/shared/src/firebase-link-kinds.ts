/** Kept apart from constants.ts, which every screen loads (the sign-in screen has a budget). */

/** The kinds of record the Firebase link follows, by the apps' node names; an admin may re-read each. */
export const FIREBASE_LINK_KINDS = [
  'state',
  'city_dealer',
  'franchise',
  'driver',
  'customer',
  'trips',
] as const;
export type FirebaseLinkKind = (typeof FIREBASE_LINK_KINDS)[number];
