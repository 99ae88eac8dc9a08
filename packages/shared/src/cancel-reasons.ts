import { m } from './paraglide/messages.js';

/**
 * The reasons the customer app offers for cancelling a ride, as it stores them (in English), each
 * with its words in the current language. A reason typed by hand, or one the console does not
 * know, is shown as it was written.
 */
const KNOWN: Record<string, () => string> = {
  'driver took too long to arrive': m.cancelReasonDriverLate,
  'changed my plans': m.cancelReasonChangedPlans,
  'booked by mistake': m.cancelReasonBookedByMistake,
  'driver asked to cancel': m.cancelReasonDriverAsked,
};

/** A cancellation reason as staff read it, in the current language. */
export function cancelReasonLabel(reason: string): string {
  return KNOWN[reason.trim().toLowerCase()]?.() ?? reason;
}
