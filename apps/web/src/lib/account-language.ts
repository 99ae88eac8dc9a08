import { apiRequest } from './api-client';
import type { Language } from './language';

/**
 * Keeps the chosen language with the signed-in account, so that it follows the user to another
 * browser. A failure changes nothing on screen: the language stays remembered in this browser.
 */
export function rememberAccountLanguage(language: Language): void {
  apiRequest('PUT', '/auth/me/language', { body: { language } }).catch(() => undefined);
}
