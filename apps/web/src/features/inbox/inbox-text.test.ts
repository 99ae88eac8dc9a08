import { describe, expect, it } from 'vitest';
import type { Notification } from '@bmet/shared/schemas/notification';
import { notificationLink, notificationText } from './inbox-text';

const notification = (fields: Partial<Notification>): Notification => ({
  id: '00000000-0000-4000-8000-000000000001',
  kind: 'sos',
  recordType: 'sos',
  recordId: '00000000-0000-4000-8000-000000000002',
  detail: {},
  createdAt: '2026-11-29T10:00:00.000Z',
  readAt: null,
  ...fields,
});

describe('a notification in words', () => {
  it('says what happened, with times in IST and dates as DD/MM/YYYY, and leads to its record', () => {
    const sos = notification({ detail: { number: 'SOS-000042', person: 'passenger' } });
    expect(notificationText(sos)).toBe('SOS SOS-000042: Passenger in danger');
    expect(notificationLink(sos)).toBe('/sos');

    const overdue = notification({
      kind: 'grievance_overdue',
      recordType: 'grievances',
      detail: { number: 'GR-2026-000007', dueAt: '2026-11-27T18:29:00Z' },
    });
    expect(notificationText(overdue)).toBe(
      'Grievance GR-2026-000007 is overdue: it was due by 27/11/2026, 11:59 pm IST',
    );
    expect(notificationLink(overdue)).toBe(`/grievances/${overdue.recordId}`);

    const expiring = notification({
      kind: 'document_expiring',
      recordType: 'drivers',
      detail: { documentKey: 'drivingLicense', driverName: 'Ravi Kumar', expiresOn: '2026-12-05' },
    });
    expect(notificationText(expiring)).toMatch(/ of Ravi Kumar expires on 05\/12\/2026$/);
    expect(notificationLink(expiring)).toBe(`/drivers/${expiring.recordId}`);
  });
});
