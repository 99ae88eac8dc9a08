/** SOS alerts' kinds and steps (the aggregator guidelines' control room), without zod: the screens read them. */

/** Where an alert stands: raised, acknowledged by a staff member, escalated outside, resolved. */
export const SOS_STATUSES = ['open', 'acknowledged', 'escalated', 'resolved'] as const;
export type SosStatus = (typeof SOS_STATUSES)[number];

/** Who raised it: the driver's phone, or staff from a call. */
export const SOS_SOURCES = ['driver_app', 'staff'] as const;
export type SosSource = (typeof SOS_SOURCES)[number];

/** Who is in danger. */
export const SOS_PERSONS = ['driver', 'passenger'] as const;
export type SosPerson = (typeof SOS_PERSONS)[number];

/** Whom staff call in: police (112), an ambulance, the driver's franchise. */
export const SOS_ESCALATIONS = ['police', 'ambulance', 'franchise'] as const;
export type SosEscalation = (typeof SOS_ESCALATIONS)[number];

/** How an alert ended. */
export const SOS_OUTCOMES = ['help_given', 'false_alarm', 'test', 'other'] as const;
export type SosOutcome = (typeof SOS_OUTCOMES)[number];

/** The steps staff take on an alert. */
export const SOS_ACTIONS = ['acknowledge', 'escalate', 'resolve'] as const;
export type SosAction = (typeof SOS_ACTIONS)[number];

/** The steps allowed from each state: acknowledged first; escalated as often as needed; resolved last. */
export function canTakeSosAction(status: SosStatus, action: SosAction): boolean {
  switch (action) {
    case 'acknowledge':
      return status === 'open';
    case 'escalate':
      return status === 'acknowledged' || status === 'escalated';
    case 'resolve':
      return status !== 'resolved';
  }
}

export const isSosOpen = (status: SosStatus): boolean => status !== 'resolved';
