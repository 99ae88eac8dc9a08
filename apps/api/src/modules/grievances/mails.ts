import { m } from '@bmet/shared/paraglide/messages';
import type { Grievance } from '@bmet/shared/schemas/grievance';
import type { Mail } from '../../infra/mailer';
import { inLanguage } from '../../infra/language';

const IST_OFFSET_MS = 330 * 60_000;

/** A moment as a complainant in India reads it: 02/12/2026 23:59. */
export function indianDateTime(moment: string): string {
  const local = new Date(Date.parse(moment) + IST_OFFSET_MS).toISOString();
  return `${local.slice(8, 10)}/${local.slice(5, 7)}/${local.slice(0, 4)} ${local.slice(11, 16)}`;
}

/** The complainant's mail when a grievance is logged: its number and its deadline. */
export function grievanceLoggedMail(grievance: Grievance): Mail | null {
  const { email, language, name } = grievance.complainant;
  if (!email) return null;
  return inLanguage(language, () => ({
    to: email,
    subject: m.grievanceMailLoggedSubject({ number: grievance.number }),
    text: [
      m.grievanceMailGreeting({ name }),
      '',
      m.grievanceMailLoggedBody({ number: grievance.number, due: indianDateTime(grievance.dueAt) }),
      '',
      m.productTitle(),
    ].join('\n'),
  }));
}

/** The complainant's mail when a grievance is resolved: the resolution, and how to come back. */
export function grievanceResolvedMail(grievance: Grievance): Mail | null {
  const { email, language, name } = grievance.complainant;
  if (!email) return null;
  return inLanguage(language, () => ({
    to: email,
    subject: m.grievanceMailResolvedSubject({ number: grievance.number }),
    text: [
      m.grievanceMailGreeting({ name }),
      '',
      m.grievanceMailResolvedBody({ number: grievance.number }),
      '',
      grievance.resolution ?? '',
      '',
      m.grievanceMailReplyNote({ number: grievance.number }),
      '',
      m.productTitle(),
    ].join('\n'),
  }));
}
