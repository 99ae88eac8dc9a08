import type { State } from '@bmet/shared/constants';

/** A state as people write it ('tamil nadu' is shown as 'Tamil Nadu'), or '-' for none; the value stays lowercase. */
export function stateLabel(state: State | null): string {
  return state ? state.replace(/\b\p{L}/gu, (letter) => letter.toUpperCase()) : '-';
}

/** Rupees as written in India, with paise only when there are any: ₹1,250 or ₹87.5. */
export function formatRupees(amount: number): string {
  return `₹${amount.toLocaleString('en-IN', { maximumFractionDigits: 2 })}`;
}

/** A date in India's usual form: 12 Jun 2026. */
export function formatDate(iso: string): string {
  return new Date(iso).toLocaleDateString('en-IN', { dateStyle: 'medium' });
}

/** A moment in the admin's locale for India: 12 Jun 2026, 10:30 am. */
export function formatDateTime(iso: string): string {
  return new Date(iso).toLocaleString('en-IN', { dateStyle: 'medium', timeStyle: 'short' });
}
