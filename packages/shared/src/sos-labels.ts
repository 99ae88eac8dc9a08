import { m } from './paraglide/messages.js';
import type { SosAction, SosEscalation, SosOutcome, SosPerson, SosSource, SosStatus } from './sos-rules';

/** Where an SOS alert stands, on screen, in the current language. */
export function sosStatusLabel(status: SosStatus): string {
  switch (status) {
    case 'open':
      return m.sosStatusOpen();
    case 'acknowledged':
      return m.sosStatusAcknowledged();
    case 'escalated':
      return m.sosStatusEscalated();
    case 'resolved':
      return m.sosStatusResolved();
  }
}

/** A step named as a past participle ("acknowledged"), for the refusal of a step. */
export function sosActionLabel(action: SosAction): string {
  switch (action) {
    case 'acknowledge':
      return m.sosActionAcknowledge();
    case 'escalate':
      return m.sosActionEscalate();
    case 'resolve':
      return m.sosActionResolve();
  }
}

export function sosEscalationLabel(to: SosEscalation): string {
  switch (to) {
    case 'police':
      return m.sosEscalationPolice();
    case 'ambulance':
      return m.sosEscalationAmbulance();
    case 'franchise':
      return m.sosEscalationFranchise();
  }
}

export function sosOutcomeLabel(outcome: SosOutcome): string {
  switch (outcome) {
    case 'help_given':
      return m.sosOutcomeHelpGiven();
    case 'false_alarm':
      return m.sosOutcomeFalseAlarm();
    case 'test':
      return m.sosOutcomeTest();
    case 'other':
      return m.sosOutcomeOther();
  }
}

export function sosPersonLabel(person: SosPerson): string {
  return person === 'driver' ? m.sosPersonDriver() : m.sosPersonPassenger();
}

export function sosSourceLabel(source: SosSource): string {
  return source === 'driver_app' ? m.sosSourceDriverApp() : m.sosSourceStaff();
}
