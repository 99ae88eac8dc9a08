import type { NotificationData } from '@mantine/notifications';

/**
 * Shows an in-page notification. The notifications package is loaded on demand (it is already
 * there once the container has loaded after the first screen), so screens do not carry it.
 */
export function showNotification(notification: NotificationData): void {
  void import('@mantine/notifications').then(({ notifications }) => notifications.show(notification));
}
