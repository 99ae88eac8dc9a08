import { normaliseRegistration } from './vehicle-rules';

/**
 * An Indian phone number as the console compares them: its last ten digits, so that
 * `+91 85482 84189`, `918548284189`, `08548284189` and `8548284189` are one number. Null when
 * the text holds fewer than ten digits or anything but digits, spaces, `+`, `-`, dots and brackets.
 * The database's `phone_key()` does the same (migration 0032).
 */
export function normalisePhone(value: string): string | null {
  if (!/^[\d\s+().-]+$/.test(value)) return null;
  const digits = value.replace(/\D/g, '');
  return digits.length >= 10 ? digits.slice(-10) : null;
}

/** At most this many words of a search are matched (each must match). */
export const SEARCH_WORDS_MAX = 5;

/**
 * What a trip search looks for, read from what staff type on the phone (decision 031): every word
 * in the customer's name, the pick-up or the destination, or the driver's name; a phone number in
 * any form; a registration number in any spacing (the vehicles its drivers drove); the trip's id,
 * or its short form (the last 6 characters).
 */
export type TripSearch = {
  /** Lowered words, each of which must match. */
  words: string[];
  phone: string | null;
  registration: string | null;
  tripId: string | null;
  shortId: string | null;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function readSearchTerms(q: string): TripSearch {
  const text = q.trim();
  const words = text.toLowerCase().split(/\s+/).filter(Boolean).slice(0, SEARCH_WORDS_MAX);
  const phone = normalisePhone(text);
  const compact = normaliseRegistration(text);
  // A registration has letters and digits, and is not a phone number or an id.
  const registration =
    !phone &&
    !UUID.test(text) &&
    /[A-Z]/.test(compact) &&
    /\d/.test(compact) &&
    compact.length >= 4 &&
    compact.length <= 12
      ? compact
      : null;
  return {
    // A phone number is matched as one, whatever its spacing.
    words: phone ? [phone] : words,
    phone,
    registration,
    tripId: UUID.test(text) ? text.toLowerCase() : null,
    shortId: /^[0-9a-f]{6}$/i.test(text) ? text.toLowerCase() : null,
  };
}
