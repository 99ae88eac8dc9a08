import { describe, expect, it } from 'vitest';
import { STATES } from '@bmet/shared/constants';
import { formatRupees, stateLabel } from './format';

describe('stateLabel', () => {
  it('capitalizes each word of a state and nothing else', () => {
    expect(stateLabel('tamil nadu')).toBe('Tamil Nadu');
    expect(stateLabel('goa')).toBe('Goa');
    for (const state of STATES) expect(stateLabel(state).toLowerCase()).toBe(state);
  });

  it('shows a dash for an account without a state', () => {
    expect(stateLabel(null)).toBe('-');
  });
});

describe('formatRupees', () => {
  it('groups digits the Indian way and shows paise only when there are any', () => {
    expect(formatRupees(220)).toBe('₹220');
    expect(formatRupees(107.5)).toBe('₹107.5');
    expect(formatRupees(125000)).toBe('₹1,25,000');
  });
});
