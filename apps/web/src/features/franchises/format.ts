import type { State } from '@bmet/shared/constants';

/** A state as people write it ('tamil nadu' is shown as 'Tamil Nadu'); the value stays lowercase. */
export function stateLabel(state: State | null): string {
  return state ? state.replace(/\b\p{L}/gu, (letter) => letter.toUpperCase()) : '-';
}

/** A date in India's usual form: 12 Jun 2026. */
export function formatDate(iso: string): string {
  return new Date(iso).toLocaleDateString('en-IN', { dateStyle: 'medium' });
}
