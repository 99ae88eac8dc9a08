import { CHECK_KIND_LABELS } from '@bmet/shared/check-labels';
import type { DocumentKey } from '@bmet/shared/constants';
import type { DriverCheckKind } from '@bmet/shared/driver-check-rules';
import { documentLabel } from '@bmet/shared/labels';
import { m } from '@bmet/shared/paraglide/messages';
import type { Notification } from '@bmet/shared/schemas/notification';
import { sosPersonLabel } from '@bmet/shared/sos-labels';
import type { SosPerson } from '@bmet/shared/sos-rules';
import { formatCalendarDate, formatDateTime } from '../../lib/format';

/** A document or a check that lapses, by its name in the current language. */
const itemLabel = (key: string) =>
  key in CHECK_KIND_LABELS ? CHECK_KIND_LABELS[key as DriverCheckKind]() : documentLabel(key as DocumentKey);

/** What a notification says, in the current language. */
export function notificationText({ kind, detail }: Notification): string {
  switch (kind) {
    case 'sos':
      return m.inboxSos({
        number: detail.number ?? '',
        person: sosPersonLabel((detail.person ?? 'driver') as SosPerson),
      });
    case 'grievance_due_soon':
      return m.inboxGrievanceDueSoon({
        number: detail.number ?? '',
        due: formatDateTime(detail.dueAt ?? ''),
      });
    case 'grievance_overdue':
      return m.inboxGrievanceOverdue({
        number: detail.number ?? '',
        due: formatDateTime(detail.dueAt ?? ''),
      });
    case 'document_expiring':
      return m.inboxDocumentExpiring({
        document: itemLabel(detail.documentKey ?? ''),
        driver: detail.driverName ?? '',
        date: formatCalendarDate(detail.expiresOn ?? ''),
      });
  }
}

/** Where a notification leads. */
export function notificationLink({ recordType, recordId }: Notification): string {
  switch (recordType) {
    case 'sos':
      return '/sos';
    case 'grievances':
      return `/grievances/${recordId}`;
    case 'drivers':
      return `/drivers/${recordId}`;
  }
}
