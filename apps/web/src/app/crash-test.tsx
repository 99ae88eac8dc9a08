import { m } from '@bmet/shared/paraglide/messages';

/**
 * A route that fails on purpose, so that the error page can be seen and tested. Loaded when opened:
 * no sign-in downloads it.
 */
export function CrashTest(): never {
  throw new Error(m.appCrashTest());
}
