import type { Role } from './constants';
import { m } from './paraglide/messages.js';

/** How a role is named on screen, in the current language. */
export function roleLabel(role: Role): string {
  switch (role) {
    case 'admin':
      return m.roleAdmin();
    case 'city_dealer':
      return m.roleCityDealer();
    case 'franchise':
      return m.roleFranchise();
  }
}
