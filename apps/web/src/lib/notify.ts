import type { NotificationData } from '@mantine/notifications';
import { m } from '@bmet/shared/paraglide/messages';

/**
 * Shows an in-page notification. The notifications package is loaded on demand (it is already
 * there once the container has loaded after the first screen), so screens do not carry it. Its
 * close button is named, as a dialog's is (a button without a name fails WCAG 4.1.2).
 */
export function showNotification(notification: NotificationData): void {
  void import('@mantine/notifications').then(({ notifications }) =>
    notifications.show({ closeButtonProps: { 'aria-label': m.close() }, ...notification }),
  );
}

/** Closes the notification shown with this id, if it is still shown. */
export function hideNotification(id: string): void {
  void import('@mantine/notifications').then(({ notifications }) => notifications.hide(id));
}
